/**
 * Stack traces and error output of Go, Rust, Java/Kotlin and C/C++ in reports (issue 17, item 5).
 * The texts follow what these tools print and what reporters paste into issue trackers.
 */
import { describe, expect, it } from "vitest";
import { analyzeQuery, type QueryAnalysis, type QueryTermKind } from "../../src/retrieval/query-analysis.ts";
import { pathMatches } from "../../src/retrieval/ranking.ts";

function weight(a: QueryAnalysis, text: string, kind?: QueryTermKind): number {
  const t = a.terms.find((x) => x.text === text && (kind === undefined || x.kind === kind));
  if (!t) throw new Error(`no term ${kind ?? ""} ${text} in ${a.terms.map((x) => `${x.kind}:${x.text}`).join(", ")}`);
  return t.weight;
}
const has = (a: QueryAnalysis, text: string) => a.terms.some((t) => t.text === text);
const rows = (a: QueryAnalysis) => a.frames.map((f) => [f.path, f.line, f.symbol, f.origin]);
/** The first query path that matches a repository file, as the ranking matches them. */
const firstMatch = (a: QueryAnalysis, repoFiles: string[]) => repoFiles.find((file) => pathMatches(file, a.paths[0] ?? ""));

function wellFormed(a: QueryAnalysis): void {
  const texts = a.terms.map((t) => t.text);
  expect(new Set(texts).size).toBe(texts.length);
  const weights = a.terms.map((t) => t.weight);
  expect([...weights].sort((x, y) => y - x)).toEqual(weights);
  expect(a.paths).toEqual(a.terms.filter((t) => t.kind === "path").map((t) => t.text));
}

describe("Go", () => {
  const GO_PANIC = [
    "Checkout crashes when the cart is empty",
    "",
    "```",
    "panic: runtime error: invalid memory address or nil pointer dereference",
    "[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x9d4f2a]",
    "",
    "goroutine 87 [running]:",
    "github.com/acme/shop/internal/cart.(*Service).Checkout(0x0, {0xc0001a2000, 0x24})",
    "\t/home/dev/src/shop/internal/cart/service.go:142 +0x2a",
    "github.com/acme/shop/internal/api.(*Handler).postCheckout(0xc000118090, {0xb1c2e0, 0xc0002f4000}, 0xc000312100)",
    "\t/home/dev/src/shop/internal/api/checkout.go:57 +0x1d6",
    "net/http.HandlerFunc.ServeHTTP(0xc00011c1e0, {0xb1c2e0, 0xc0002f4000}, 0xc000312100)",
    "\t/usr/local/go/src/net/http/server.go:2136 +0x29",
    "github.com/go-chi/chi/v5.(*Mux).routeHTTP(0xc0000b2060, {0xb1c2e0, 0xc0002f4000}, 0xc000312100)",
    "\t/home/dev/go/pkg/mod/github.com/go-chi/chi/v5@v5.0.8/mux.go:444 +0x216",
    "net/http.(*conn).serve.func1(0xc0001ad040)",
    "\t/usr/local/go/src/net/http/server.go:1868 +0xb9",
    "panic({0x1404960, 0x17c1fc0})",
    "\t/usr/local/go/src/runtime/panic.go:920 +0x270",
    "main.main()",
    "\t/home/dev/src/shop/cmd/shop/main.go:31 +0x1c5",
    "created by net/http.(*Server).Serve in goroutine 1",
    "\t/usr/local/go/src/net/http/server.go:3102 +0x4db",
    "exit status 2",
    "```",
  ].join("\n");
  const a = analyzeQuery(GO_PANIC);

  it("reads a goroutine dump: function line and file line as one frame, runtime and module cache told apart", () => {
    wellFormed(a);
    expect(a.language).toBe("go");
    expect(rows(a)).toEqual([
      ["/home/dev/src/shop/internal/cart/service.go", 142, "Service.Checkout", "project"],
      ["/home/dev/src/shop/internal/api/checkout.go", 57, "Handler.postCheckout", "project"],
      ["/usr/local/go/src/net/http/server.go", 2136, "HandlerFunc.ServeHTTP", "runtime"],
      ["github.com/go-chi/chi/v5/mux.go", 444, "Mux.routeHTTP", "library"],
      ["/usr/local/go/src/net/http/server.go", 1868, "conn.serve", "runtime"],
      ["/usr/local/go/src/runtime/panic.go", 920, null, "runtime"],
      ["/home/dev/src/shop/cmd/shop/main.go", 31, "main", "project"],
      ["/usr/local/go/src/net/http/server.go", 3102, "Server.Serve", "runtime"],
    ]);
    expect(a.frames.every((f) => f.language === "go")).toBe(true);
  });

  it("ranks the innermost project frame first and finds the repository file by suffix", () => {
    expect(a.paths[0]).toBe("/home/dev/src/shop/internal/cart/service.go");
    expect(firstMatch(a, ["internal/api/checkout.go", "internal/cart/service.go"])).toBe("internal/cart/service.go");
    expect(a.symbols[0]).toBe("Checkout");
    expect(weight(a, "Checkout", "symbolFromTrace")).toBeGreaterThan(weight(a, "postCheckout", "symbolFromTrace"));
    expect(weight(a, "routeHTTP", "symbolFromTrace")).toBeLessThan(weight(a, "postCheckout", "symbolFromTrace"));
    expect(weight(a, "/usr/local/go/src/net/http/server.go", "path")).toBeLessThan(weight(a, "github.com/go-chi/chi/v5/mux.go", "path"));
    // A dependency's frame matches that dependency's own repository (the module root is its root).
    expect(pathMatches("middleware/mux.go", "github.com/go-chi/chi/v5/mux.go")).toBe(false);
    expect(pathMatches("v5/mux.go", "github.com/go-chi/chi/v5/mux.go")).toBe(true);
    expect(has(a, "main")).toBe(false);
    expect(has(a, "0x1d6") || has(a, "1d6")).toBe(false);
  });

  it("reads go test failures, testify traces and compiler / vet output", () => {
    const t = analyzeQuery(
      [
        "```",
        "--- FAIL: TestParseDuration (0.00s)",
        '    duration_test.go:48: ParseDuration("1h30m") = 1h0m0s, want 1h30m0s',
        "--- FAIL: TestRoundTrip/utc (0.00s)",
        "    Error Trace:\t/home/dev/src/shop/internal/timeutil/format_test.go:91",
        "    Error:      \tNot equal:",
        "FAIL",
        "FAIL\tgithub.com/acme/shop/internal/timeutil\t0.004s",
        "",
        "$ go vet ./...",
        "# github.com/acme/shop/internal/cart",
        "internal/cart/service.go:88:14: undefined: discountFor",
        "./internal/cart/rules.go:12:2: declared and not used: total",
        "```",
      ].join("\n"),
    );
    wellFormed(t);
    expect(rows(t)).toEqual([
      [null, null, "TestParseDuration", "project"],
      ["duration_test.go", 48, null, "project"],
      [null, null, "TestRoundTrip", "project"],
      ["/home/dev/src/shop/internal/timeutil/format_test.go", 91, null, "project"],
      ["internal/cart/service.go", 88, null, "project"],
      ["internal/cart/rules.go", 12, null, "project"],
    ]);
    expect(t.language).toBe("go");
    expect(t.symbols).toEqual(expect.arrayContaining(["TestParseDuration", "TestRoundTrip", "ParseDuration", "discountFor"]));
    expect(t.paths).toEqual(expect.arrayContaining(["internal/cart/service.go", "internal/cart/rules.go", "duration_test.go"]));
  });
});

describe("Rust", () => {
  const RUST_BACKTRACE = [
    "thread 'main' panicked at src/config/loader.rs:88:39:",
    'called `Result::unwrap()` on an `Err` value: Os { code: 2, kind: NotFound, message: "No such file or directory" }',
    "stack backtrace:",
    "   0: rust_begin_unwind",
    "             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:645:5",
    "   1: core::panicking::panic_fmt",
    "             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/panicking.rs:72:14",
    "   2: core::result::unwrap_failed",
    "             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/result.rs:1649:5",
    "   3: core::result::Result<T,E>::unwrap",
    "             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/result.rs:1073:23",
    "   4: quill::config::loader::read_profile",
    "             at ./src/config/loader.rs:88:39",
    "   5: quill::config::loader::Loader::load",
    "             at ./src/config/loader.rs:41:23",
    "   6: <serde_json::de::Deserializer<R> as serde::de::Deserializer>::deserialize_map",
    "             at /home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde_json-1.0.108/src/de.rs:1797:31",
    "   7: quill::main::{{closure}}",
    "             at ./src/main.rs:19:9",
    "   8: core::ops::function::FnOnce::call_once",
    "             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/ops/function.rs:250:5",
    "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.",
  ].join("\n");
  const a = analyzeQuery(RUST_BACKTRACE);

  it("reads the panic location and the RUST_BACKTRACE frames, with the std library as runtime", () => {
    wellFormed(a);
    expect(a.language).toBe("rust");
    expect(rows(a)).toEqual([
      ["src/config/loader.rs", 88, null, "project"],
      ["/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs", 645, "rust_begin_unwind", "runtime"],
      ["/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/panicking.rs", 72, "core.panicking.panic_fmt", "runtime"],
      ["/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/result.rs", 1649, "core.result.unwrap_failed", "runtime"],
      ["/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/result.rs", 1073, "core.result.Result.unwrap", "runtime"],
      ["src/config/loader.rs", 88, "quill.config.loader.read_profile", "project"],
      ["src/config/loader.rs", 41, "quill.config.loader.Loader.load", "project"],
      ["serde_json/src/de.rs", 1797, "serde_json.de.Deserializer.deserialize_map", "library"],
      ["src/main.rs", 19, "quill.main", "project"],
      ["/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/ops/function.rs", 250, "core.ops.function.FnOnce.call_once", "runtime"],
    ]);
  });

  it("weighs project frames first, the crate cut to its name and its own path", () => {
    expect(a.paths[0]).toBe("src/config/loader.rs");
    expect(a.symbols[0]).toBe("read_profile");
    // Frames further out weigh less: read_profile > load > main's closure.
    expect(weight(a, "load", "symbolFromTrace")).toBeLessThan(weight(a, "read_profile", "symbolFromTrace"));
    expect(weight(a, "src/main.rs", "path")).toBeLessThan(weight(a, "src/config/loader.rs", "path"));
    expect(weight(a, "deserialize_map", "symbolFromTrace")).toBeLessThan(weight(a, "load", "symbolFromTrace"));
    expect(weight(a, "call_once", "symbolFromTrace")).toBeLessThan(weight(a, "deserialize_map", "symbolFromTrace"));
    // The crate's frame finds its file in the crate's repository, alone or in a workspace.
    expect(pathMatches("src/de.rs", "serde_json/src/de.rs")).toBe(true);
    expect(pathMatches("serde_json/src/de.rs", "serde_json/src/de.rs")).toBe(true);
    expect(a.paths.some((p) => p.includes(".cargo"))).toBe(false);
    expect(has(a, "closure")).toBe(false);
  });

  it("reads the pre-1.73 panic message, old backtraces with addresses and hashes, and rustc locations", () => {
    const b = analyzeQuery(
      [
        "```",
        "thread 'tokio-runtime-worker' panicked at 'index out of bounds: the len is 3 but the index is 3', crates/quill-core/src/span.rs:214:22",
        "stack backtrace:",
        "   8:     0x55d0c2a1b6e3 - quill_core::span::Span::slice::h5f3e0e1c2d4b6a79",
        "                               at crates/quill-core/src/span.rs:214",
        "   9:     0x55d0c2a1c010 - std::rt::lang_start::{{closure}}::h0d1e2f3a4b5c6d7e",
        "```",
        "",
        "and the compiler says:",
        "",
        "```",
        "error[E0599]: no method named `slice_to` found for struct `Span` in the current scope",
        "  --> crates/quill-cli/src/render.rs:57:18",
        "   |",
        "57 |     let s = span.slice_to(end);",
        "   |                  ^^^^^^^^ method not found in `Span`",
        "   |",
        "  ::: /home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/tracing-attributes-0.1.27/src/lib.rs:568:1",
        "```",
      ].join("\n"),
    );
    wellFormed(b);
    expect(b.language).toBe("rust");
    expect(rows(b)).toEqual([
      ["crates/quill-core/src/span.rs", 214, null, "project"],
      ["crates/quill-core/src/span.rs", 214, "quill_core.span.Span.slice", "project"],
      [null, null, "std.rt.lang_start", "runtime"],
      ["crates/quill-cli/src/render.rs", 57, null, "project"],
      ["tracing-attributes/src/lib.rs", 568, null, "library"],
    ]);
    expect(b.paths[0]).toBe("crates/quill-core/src/span.rs");
    expect(b.symbols).toEqual(expect.arrayContaining(["slice", "slice_to", "Span"]));
    expect(has(b, "index out of bounds: the len is 3 but the index is 3") || has(b, "bounds")).toBe(true);
    expect(has(b, "lang_start")).toBe(false);
  });
});

describe("Java and Kotlin", () => {
  const JAVA_TRACE = [
    "Billing fails to start after upgrading jackson",
    "",
    "```",
    'Exception in thread "main" java.lang.IllegalStateException: Failed to load configuration',
    "\tat com.acme.billing.config.ConfigLoader.load(ConfigLoader.java:57)",
    "\tat com.acme.billing.App.main(App.java:21)",
    "Caused by: com.fasterxml.jackson.core.JsonParseException: Unexpected character ('}' (code 125)): was expecting double-quote to start field name",
    ' at [Source: (File)"config.json"; line: 12, column: 2]',
    "\tat com.fasterxml.jackson.core.JsonParser._constructError(JsonParser.java:2391)",
    "\tat com.fasterxml.jackson.core.json.ReaderBasedJsonParser._handleOddName(ReaderBasedJsonParser.java:1903)",
    "\tat com.fasterxml.jackson.core.json.ReaderBasedJsonParser.nextFieldName(ReaderBasedJsonParser.java:924)",
    "\tat com.acme.billing.config.ConfigLoader$Parser.readTree(ConfigLoader.java:102)",
    "\tat java.base/java.util.Optional.map(Optional.java:260)",
    "\tat com.acme.billing.config.ConfigLoader.lambda$load$0(ConfigLoader.java:51)",
    "\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)",
    "\t... 1 more",
    "```",
  ].join("\n");
  const a = analyzeQuery(JAVA_TRACE);

  it("resolves package and class to a path suffix and takes the method as the symbol", () => {
    wellFormed(a);
    expect(a.language).toBe("java");
    expect(rows(a)).toEqual([
      ["com/acme/billing/config/ConfigLoader.java", 57, "ConfigLoader.load", "project"],
      ["com/acme/billing/App.java", 21, "App.main", "project"],
      ["com/fasterxml/jackson/core/JsonParser.java", 2391, "JsonParser._constructError", "project"],
      ["com/fasterxml/jackson/core/json/ReaderBasedJsonParser.java", 1903, "ReaderBasedJsonParser._handleOddName", "project"],
      ["com/fasterxml/jackson/core/json/ReaderBasedJsonParser.java", 924, "ReaderBasedJsonParser.nextFieldName", "project"],
      ["com/acme/billing/config/ConfigLoader.java", 102, "Parser.readTree", "project"],
      ["java/util/Optional.java", 260, "Optional.map", "runtime"],
      ["com/acme/billing/config/ConfigLoader.java", 51, "ConfigLoader.load", "project"],
      [null, null, "NativeMethodAccessorImpl.invoke0", "runtime"],
    ]);
    expect(firstMatch(a, ["src/test/java/com/acme/billing/AppTest.java", "src/main/java/com/acme/billing/config/ConfigLoader.java"])).toBe(
      "src/main/java/com/acme/billing/config/ConfigLoader.java",
    );
  });

  it("starts a stack at each Caused by, and keeps the exceptions and their messages", () => {
    // Two stacks, so each has its innermost project frame: ConfigLoader.load and JsonParser._constructError.
    expect(weight(a, "_constructError", "symbolFromTrace")).toBeGreaterThan(weight(a, "_handleOddName", "symbolFromTrace"));
    expect(weight(a, "load", "symbolFromTrace")).toBeGreaterThan(weight(a, "readTree", "symbolFromTrace"));
    expect(a.errors.map((e) => e.type)).toEqual(["IllegalStateException", "JsonParseException"]);
    expect(a.symbols).toContain("JsonParseException");
    expect(has(a, "invoke0")).toBe(false);
    expect(has(a, "more")).toBe(false);
  });

  it("reads Kotlin frames (lambdas and coroutines named after their function) and kotlinc output", () => {
    const k = analyzeQuery(
      [
        'Exception in thread "DefaultDispatcher-worker-1" kotlin.KotlinNullPointerException',
        "\tat com.acme.notes.sync.SyncWorker$pullChanges$1.invokeSuspend(SyncWorker.kt:48)",
        "\tat kotlin.coroutines.jvm.internal.BaseContinuationImpl.resumeWith(ContinuationImpl.kt:33)",
        "\tat kotlinx.coroutines.DispatchedTask.run(DispatchedTask.kt:108)",
        "\tat com.acme.notes.MainKt.main(Main.kt:12)",
        "\tat org.junit.runners.ParentRunner.runLeaf(ParentRunner.java:366)",
        "",
        "e: file:///home/dev/notes/app/src/main/kotlin/com/acme/notes/sync/SyncWorker.kt:61:9 Unresolved reference: retryPolicy",
      ].join("\n"),
    );
    wellFormed(k);
    expect(k.language).toBe("kotlin");
    expect(rows(k)).toEqual([
      ["com/acme/notes/sync/SyncWorker.kt", 48, "SyncWorker.pullChanges", "project"],
      ["kotlin/coroutines/jvm/internal/ContinuationImpl.kt", 33, "BaseContinuationImpl.resumeWith", "runtime"],
      ["kotlinx/coroutines/DispatchedTask.kt", 108, "DispatchedTask.run", "library"],
      ["com/acme/notes/Main.kt", 12, "MainKt.main", "project"],
      ["org/junit/runners/ParentRunner.java", 366, "ParentRunner.runLeaf", "library"],
      ["/home/dev/notes/app/src/main/kotlin/com/acme/notes/sync/SyncWorker.kt", 61, null, "project"],
    ]);
    expect(k.symbols[0]).toBe("pullChanges");
    expect(k.symbols).toContain("retryPolicy");
    expect(pathMatches("app/src/main/kotlin/com/acme/notes/sync/SyncWorker.kt", k.paths[0] ?? "")).toBe(true);
  });
});

describe("C and C++", () => {
  it("reads GCC and Clang diagnostics with include chains, GCC's function context and MSVC / tsc locations", () => {
    const a = analyzeQuery(
      [
        "Build breaks with GCC 13",
        "",
        "```",
        "In file included from src/render/scene.cpp:3:",
        "src/render/mesh.h: In member function 'void lumen::Mesh::upload(const lumen::Device&)':",
        "src/render/mesh.h:41:17: error: 'Vertex' was not declared in this scope",
        "   41 |     std::vector<Vertex> vertices;",
        "      |                 ^~~~~~",
        "src/render/scene.cpp:88:5: warning: unused variable 'count' [-Wunused-variable]",
        "/usr/include/c++/13/bits/stl_vector.h:1281:7: note: candidate: 'void std::vector<_Tp, _Alloc>::push_back(const value_type&)'",
        "C:\\work\\lumen\\src\\render\\scene.cpp(88): error C2065: 'meshCount': undeclared identifier",
        "src/app.ts(12,5): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
        "```",
      ].join("\n"),
    );
    wellFormed(a);
    expect(rows(a)).toEqual([
      ["src/render/scene.cpp", 3, null, "project"],
      ["src/render/mesh.h", null, "lumen.Mesh.upload", "project"],
      ["src/render/mesh.h", 41, null, "project"],
      ["src/render/scene.cpp", 88, null, "project"],
      ["/usr/include/c++/13/bits/stl_vector.h", 1281, null, "runtime"],
      ["C:/work/lumen/src/render/scene.cpp", 88, null, "project"],
      ["src/app.ts", 12, null, "project"],
    ]);
    expect(a.frames.map((f) => f.language)).toEqual(["cpp", "c", "c", "cpp", "cpp", "cpp", "javascript"]);
    expect(a.symbols).toEqual(expect.arrayContaining(["Vertex", "meshCount", "upload", "Mesh"]));
    expect(weight(a, "src/render/mesh.h", "path")).toBeGreaterThan(weight(a, "/usr/include/c++/13/bits/stl_vector.h", "path"));
    expect(has(a, "constexpr") || has(a, "void")).toBe(false);
    expect(has(a, "Wunused")).toBe(false);
  });

  const ASAN = [
    "```",
    "=================================================================",
    "==48213==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000150 at pc 0x55a4b1c3e9a2 bp 0x7ffd5e0a1f20 sp 0x7ffd5e0a1f18",
    "READ of size 8 at 0x602000000150 thread T0",
    "    #0 0x55a4b1c3e9a1 in list_pop /home/dev/lumen/src/util/list.c:77:18",
    "    #1 0x55a4b1c3d2f4 in scene_free /home/dev/lumen/src/render/scene.c:212:9",
    "    #2 0x55a4b1c3a0b7 in main /home/dev/lumen/src/main.c:64:3",
    "    #3 0x7f3c6a829d8f in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58:16",
    "    #4 0x7f3c6a829e3f in __libc_start_main_impl ../csu/libc-start.c:392:3",
    "    #5 0x55a4b1c39f64 in _start (/home/dev/lumen/build/lumen+0x2f64) (BuildId: 5e1b0c2a9d3f4e8b7a6c5d4e3f2a1b0c9d8e7f6a)",
    "",
    "0x602000000150 is located 0 bytes inside of 16-byte region [0x602000000150,0x602000000160)",
    "freed by thread T0 here:",
    "    #0 0x7f3c6aab4537 in __interceptor_free ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:127",
    "    #1 0x55a4b1c3e8f0 in list_remove /home/dev/lumen/src/util/list.c:63:5",
    "    #2 0x7f3c6a8299ff  (/lib/x86_64-linux-gnu/libc.so.6+0x299ff)",
    "",
    "SUMMARY: AddressSanitizer: heap-use-after-free /home/dev/lumen/src/util/list.c:77:18 in list_pop",
    "```",
  ].join("\n");

  it("reads sanitizer reports: each #0 starts a stack, the C library and the sanitizer are runtime", () => {
    const a = analyzeQuery(ASAN);
    wellFormed(a);
    expect(a.language).toBe("c");
    expect(rows(a)).toEqual([
      ["/home/dev/lumen/src/util/list.c", 77, "list_pop", "project"],
      ["/home/dev/lumen/src/render/scene.c", 212, "scene_free", "project"],
      ["/home/dev/lumen/src/main.c", 64, "main", "project"],
      ["../sysdeps/nptl/libc_start_call_main.h", 58, "__libc_start_call_main", "runtime"],
      ["../csu/libc-start.c", 392, "__libc_start_main_impl", "runtime"],
      [null, null, "_start", "runtime"],
      ["../../../../src/libsanitizer/asan/asan_malloc_linux.cpp", 127, "__interceptor_free", "runtime"],
      ["/home/dev/lumen/src/util/list.c", 63, "list_remove", "project"],
      [null, null, null, "runtime"],
      ["/home/dev/lumen/src/util/list.c", 77, "list_pop", "project"],
    ]);
    expect(a.paths[0]).toBe("/home/dev/lumen/src/util/list.c");
    expect(firstMatch(a, ["src/main.c", "src/util/list.c"])).toBe("src/util/list.c");
    expect(a.symbols.slice(0, 2)).toEqual(["list_pop", "list_remove"]);
    expect(weight(a, "scene_free", "symbolFromTrace")).toBeLessThan(weight(a, "list_remove", "symbolFromTrace"));
    expect(has(a, "main")).toBe(false);
    expect(weight(a, "__libc_start_main_impl")).toBeLessThan(0.5);
    expect(has(a, "heap-use-after-free") || has(a, "free")).toBe(true);
  });

  it("reads gdb backtraces, arguments wrapped over lines included, and lldb frames", () => {
    const a = analyzeQuery(
      [
        "```",
        "Program received signal SIGABRT, Aborted.",
        "(gdb) bt",
        "#0  __pthread_kill_implementation (no_tid=0, signo=6, threadid=140737351481152) at ./nptl/pthread_kill.c:44",
        "#1  0x00007ffff7c42476 in __GI_raise (sig=sig@entry=6) at ../sysdeps/posix/raise.c:26",
        "#2  0x00007ffff7c287f3 in __GI_abort () at ./stdlib/abort.c:79",
        "#3  0x00007ffff7c2871b in __assert_fail_base (fmt=0x7ffff7ddd130 \"%s%s%s:%u: %s%sAssertion `%s' failed.\\n%n\",",
        "    assertion=0x555555570f88 \"node->refs > 0\", file=0x555555570f60 \"src/util/tree.c\", line=118,",
        "    function=<optimized out>) at ./assert/assert.c:92",
        "#4  0x0000555555556a3e in tree_release (node=0x5555555792a0) at src/util/tree.c:118",
        "#5  0x0000555555557c12 in lumen::Scene::clear (this=0x7fffffffd950) at src/render/scene.cpp:301",
        "#6  0x00007ffff7e4a1b2 in operator delete(void*) () from /lib/x86_64-linux-gnu/libstdc++.so.6",
        "#7  0x0000555555555f10 in main (argc=2, argv=0x7fffffffe1f8) at src/main.cpp:40",
        "```",
        "",
        "On macOS:",
        "",
        "```",
        "* thread #1, queue = 'com.apple.main-thread', stop reason = EXC_BAD_ACCESS (code=1, address=0x8)",
        "  * frame #0: 0x0000000100003a2c lumen`tree_release(node=0x0000000000000000) at tree.c:118:15",
        "    frame #1: 0x0000000100003f10 lumen`lumen::Scene::clear(this=0x00007ff7bfeff2d8) at scene.cpp:301:5",
        "    frame #2: 0x00007ff80a7d441f dyld`start + 1903",
        "```",
      ].join("\n"),
    );
    wellFormed(a);
    expect(rows(a)).toEqual([
      ["nptl/pthread_kill.c", 44, "__pthread_kill_implementation", "runtime"],
      ["../sysdeps/posix/raise.c", 26, "__GI_raise", "runtime"],
      ["stdlib/abort.c", 79, "__GI_abort", "runtime"],
      ["assert/assert.c", 92, "__assert_fail_base", "runtime"],
      ["src/util/tree.c", 118, "tree_release", "project"],
      ["src/render/scene.cpp", 301, "lumen.Scene.clear", "project"],
      [null, null, null, "runtime"],
      ["src/main.cpp", 40, "main", "project"],
      ["tree.c", 118, "tree_release", "project"],
      ["scene.cpp", 301, "lumen.Scene.clear", "project"],
      [null, null, "start", "runtime"],
    ]);
    expect(a.paths[0]).toBe("src/util/tree.c");
    expect(a.symbols[0]).toBe("tree_release");
    expect(a.symbols).toEqual(expect.arrayContaining(["clear", "Scene"]));
    expect(weight(a, "__GI_abort")).toBeLessThan(0.5);
    expect(has(a, "optimized")).toBe(false);
  });

  it("reads valgrind's at / by frames", () => {
    const a = analyzeQuery(
      [
        "==20731== Invalid read of size 4",
        "==20731==    at 0x10A2F3: tree_depth (tree.c:142)",
        "==20731==    by 0x10A51C: tree_balance (tree.c:201)",
        "==20731==    by 0x1093E8: main (main.c:57)",
        "==20731==  Address 0x4a8f048 is 8 bytes inside a block of size 24 free'd",
        "==20731==    at 0x484B27F: free (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)",
        "==20731==    by 0x10A1C7: tree_remove (tree.c:97)",
        "==20731==    by 0x4A2DD8F: (below main) (libc_start_call_main.h:58)",
      ].join("\n"),
    );
    wellFormed(a);
    expect(rows(a)).toEqual([
      ["tree.c", 142, "tree_depth", "project"],
      ["tree.c", 201, "tree_balance", "project"],
      ["main.c", 57, "main", "project"],
      [null, null, "free", "runtime"],
      ["tree.c", 97, "tree_remove", "project"],
      ["libc_start_call_main.h", 58, null, "project"],
    ]);
    expect(a.symbols.slice(0, 2)).toEqual(["tree_depth", "tree_remove"]);
    expect(a.paths[0]).toBe("tree.c");
  });
});

describe("reports that are not traces", () => {
  it("does not read frames into prose, numbered lists, issue references or markdown headings", () => {
    const a = analyzeQuery(
      [
        "# 1. Steps",
        "#12 fixed something at src/util/tree.c:118 last year",
        "1: open the file",
        "   at the top of the page, click save",
        "See src/render/scene.cpp:88 and https://example.com/a.c:12:3 for details.",
        "The time was 12:30:45.",
      ].join("\n"),
    );
    expect(a.frames).toEqual([]);
    expect(a.paths).toEqual(expect.arrayContaining(["src/render/scene.cpp"]));
  });

  it("keeps Python warnings read as errors, with their location", () => {
    const a = analyzeQuery(
      "/home/dev/.venv/lib/python3.11/site-packages/pvlib/irradiance.py:812: FutureWarning: 'H' is deprecated and will be removed, use 'h' instead",
    );
    expect(rows(a)).toEqual([["pvlib/irradiance.py", 812, null, "library"]]);
    expect(a.errors).toEqual([{ type: "FutureWarning", message: "'H' is deprecated and will be removed, use 'h' instead" }]);
  });
});
