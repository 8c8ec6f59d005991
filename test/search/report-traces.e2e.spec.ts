/**
 * Bug reports with Go, Java, C and Rust traces find the file and the function the trace points at,
 * through POST /v2/search on a real server and a repository indexed from a real git host fixture.
 */
import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

const REPO = {
  "go.mod": "module github.com/acme/shop\n\ngo 1.22\n",
  "internal/cart/service.go": [
    "package cart",
    "",
    "// Service keeps carts and checks them out.",
    "type Service struct {",
    "\tstore Store",
    "}",
    "",
    "// Checkout totals the cart and records the order.",
    "func (s *Service) Checkout(cartID string) (Order, error) {",
    "\tcart := s.store.Cart(cartID)",
    "\ttotal := 0",
    "\tfor _, item := range cart.Items {",
    "\t\ttotal += item.Price * item.Quantity",
    "\t}",
    "\treturn s.store.Record(cartID, total)",
    "}",
    "",
  ].join("\n"),
  "internal/api/checkout.go": [
    "package api",
    "",
    "import \"net/http\"",
    "",
    "// postCheckout handles POST /checkout: the cart checkout endpoint.",
    "func (h *Handler) postCheckout(w http.ResponseWriter, r *http.Request) {",
    "\torder, err := h.carts.Checkout(r.FormValue(\"cart\"))",
    "\tif err != nil {",
    "\t\thttp.Error(w, err.Error(), http.StatusBadRequest)",
    "\t\treturn",
    "\t}",
    "\twriteJSON(w, order)",
    "}",
    "",
  ].join("\n"),
  "src/main/java/com/acme/billing/config/ConfigLoader.java": [
    "package com.acme.billing.config;",
    "",
    "import java.nio.file.Path;",
    "",
    "/** Loads the billing configuration file. */",
    "public final class ConfigLoader {",
    "  private final Path path;",
    "",
    "  public ConfigLoader(Path path) {",
    "    this.path = path;",
    "  }",
    "",
    "  /** Reads and parses the configuration. */",
    "  public Config load() {",
    "    String text = Files.readString(path);",
    "    return new Parser().readTree(text);",
    "  }",
    "}",
    "",
  ].join("\n"),
  "src/main/java/com/acme/billing/App.java": [
    "package com.acme.billing;",
    "",
    "/** Starts billing: loads the configuration, then serves. */",
    "public final class App {",
    "  public static void main(String[] args) {",
    "    Config config = new ConfigLoader(Path.of(args[0])).load();",
    "    new Server(config).start();",
    "  }",
    "}",
    "",
  ].join("\n"),
  "src/util/list.c": [
    "#include \"list.h\"",
    "",
    "/* Removes and returns the first node of a list. */",
    "void *list_pop(struct list *l) {",
    "  struct node *n = l->head;",
    "  l->head = n->next;",
    "  void *value = n->value;",
    "  free(n);",
    "  return value;",
    "}",
    "",
    "/* Removes a node from a list. */",
    "void list_remove(struct list *l, struct node *n) {",
    "  unlink_node(l, n);",
    "  free(n);",
    "}",
    "",
  ].join("\n"),
  "src/render/scene.c": [
    "#include \"scene.h\"",
    "#include \"../util/list.h\"",
    "",
    "/* Frees a scene and every object on its list. */",
    "void scene_free(struct scene *s) {",
    "  while (s->objects.head) {",
    "    object_free(list_pop(&s->objects));",
    "  }",
    "  free(s);",
    "}",
    "",
  ].join("\n"),
  "crates/quill/src/config/loader.rs": [
    "use std::fs;",
    "",
    "/// Reads the profile file of the user's configuration.",
    "pub fn read_profile(path: &str) -> Profile {",
    "    let text = fs::read_to_string(path).unwrap();",
    "    toml::from_str(&text).unwrap()",
    "}",
    "",
    "pub struct Loader;",
    "",
    "impl Loader {",
    "    /// Loads the configuration: the profile, then the overrides.",
    "    pub fn load(&self, path: &str) -> Profile {",
    "        read_profile(path)",
    "    }",
    "}",
    "",
  ].join("\n"),
  "crates/quill/src/main.rs": [
    "mod config;",
    "",
    "fn main() {",
    "    let profile = config::loader::Loader.load(\"quill.toml\");",
    "    println!(\"{profile:?}\");",
    "}",
    "",
  ].join("\n"),
};

const GO_PANIC = [
  "Server crashes on checkout",
  "",
  "```",
  "panic: runtime error: invalid memory address or nil pointer dereference",
  "[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x9d4f2a]",
  "",
  "goroutine 87 [running]:",
  "github.com/acme/shop/internal/cart.(*Service).Checkout(0x0, {0xc0001a2000, 0x24})",
  "\t/home/dev/src/shop/internal/cart/service.go:10 +0x2a",
  "github.com/acme/shop/internal/api.(*Handler).postCheckout(0xc000118090, {0xb1c2e0, 0xc0002f4000}, 0xc000312100)",
  "\t/home/dev/src/shop/internal/api/checkout.go:7 +0x1d6",
  "net/http.HandlerFunc.ServeHTTP(0xc00011c1e0, {0xb1c2e0, 0xc0002f4000}, 0xc000312100)",
  "\t/usr/local/go/src/net/http/server.go:2136 +0x29",
  "```",
].join("\n");

const JAVA_EXCEPTION = [
  "Billing does not start",
  "",
  "```",
  'Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()" because "text" is null',
  "\tat com.acme.billing.config.ConfigLoader.load(ConfigLoader.java:15)",
  "\tat com.acme.billing.App.main(App.java:6)",
  "```",
].join("\n");

const ASAN_REPORT = [
  "Crash on shutdown since 2.3",
  "",
  "```",
  "==48213==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000150 at pc 0x55a4b1c3e9a2 bp 0x7ffd5e0a1f20 sp 0x7ffd5e0a1f18",
  "READ of size 8 at 0x602000000150 thread T0",
  "    #0 0x55a4b1c3e9a1 in list_pop /home/dev/lumen/src/util/list.c:6:18",
  "    #1 0x55a4b1c3d2f4 in scene_free /home/dev/lumen/src/render/scene.c:7:5",
  "    #2 0x7f3c6a829d8f in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58:16",
  "SUMMARY: AddressSanitizer: heap-use-after-free /home/dev/lumen/src/util/list.c:6:18 in list_pop",
  "```",
].join("\n");

const RUST_PANIC = [
  "quill panics without a profile",
  "",
  "```",
  "thread 'main' panicked at crates/quill/src/config/loader.rs:5:41:",
  'called `Result::unwrap()` on an `Err` value: Os { code: 2, kind: NotFound, message: "No such file or directory" }',
  "stack backtrace:",
  "   0: rust_begin_unwind",
  "             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:645:5",
  "   1: quill::config::loader::read_profile",
  "             at ./crates/quill/src/config/loader.rs:5:41",
  "   2: quill::config::loader::Loader::load",
  "             at ./crates/quill/src/config/loader.rs:14:9",
  "   3: quill::main",
  "             at ./crates/quill/src/main.rs:4:19",
  "```",
].join("\n");

describe("reports with Go, Java, C and Rust traces (e2e)", () => {
  const { search } = withIndexedRepository("acme/polyglot", REPO);

  it("a Go panic: the innermost project frame's file and method, not the handler that called it", async () => {
    const results = await search(GO_PANIC);
    expect(results[0]).toMatchObject({ filepath: "internal/cart/service.go" });
    expect(results[0]!.linestart).toBeLessThanOrEqual(9);
    expect(results[0]!.lineend).toBeGreaterThanOrEqual(9);
  });

  it("a Java exception: the package and class resolve to the file under src/main/java", async () => {
    const results = await search(JAVA_EXCEPTION);
    expect(results[0]).toMatchObject({ filepath: "src/main/java/com/acme/billing/config/ConfigLoader.java" });
    expect(results[0]!.linestart).toBeLessThanOrEqual(14);
    expect(results[0]!.lineend).toBeGreaterThanOrEqual(14);
  });

  it("an AddressSanitizer report: the file of frame #0, before its caller's", async () => {
    const results = await search(ASAN_REPORT);
    const paths = results.map((r) => r.filepath);
    expect(paths[0]).toBe("src/util/list.c");
    expect(paths.indexOf("src/render/scene.c")).toBeGreaterThan(0);
    expect(results[0]!.linestart).toBeLessThanOrEqual(4);
    expect(results[0]!.lineend).toBeGreaterThanOrEqual(4);
  });

  it("a Rust panic with a backtrace: the panicking function's file in the workspace crate", async () => {
    const results = await search(RUST_PANIC);
    expect(results[0]).toMatchObject({ filepath: "crates/quill/src/config/loader.rs" });
    expect(results.map((r) => r.filepath).indexOf("crates/quill/src/main.rs")).not.toBe(0);
  });
});
