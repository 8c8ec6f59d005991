/**
 * Stack traces and error output of Go, Rust, Java and Kotlin in reports (issue 17, item 5). The texts
 * follow what these tools print and what reporters paste into issue trackers.
 */
import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";
import { pathMatches } from "../../src/retrieval/path-mentions.ts";
import { firstMatch, has, rows, weight, wellFormed } from "./report-frames-support.ts";

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
