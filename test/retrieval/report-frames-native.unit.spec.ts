/**
 * C and C++ in reports (issue 17, item 5): compiler output, sanitizer reports, gdb / lldb backtraces and
 * valgrind; and lines that only look like frames.
 */
import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../src/retrieval/query-analysis.ts";
import { firstMatch, has, rows, weight, wellFormed } from "./report-frames-support.ts";

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
        "C:\\Users\\dev\\lumen\\src\\render\\scene.cpp(88): error C2065: 'meshCount': undeclared identifier",
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
      ["C:/Users/dev/lumen/src/render/scene.cpp", 88, null, "project"],
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
