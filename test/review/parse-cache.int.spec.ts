/**
 * One review run's parses of the files the broken-callers finding reads (src/review/graph/calls.ts
 * `createParseCache`): whatever is asked of a version of a file, in whatever order, the answer is the
 * one parseForCalls gives for it, and the version is parsed once for all the names asked about.
 */
import { describe, expect, it } from "vitest";
import { createParseCache, parseForCalls } from "../../src/review/graph/calls.ts";

const FILES: Record<string, string> = {
  "pkg/client.py": [
    "from .config import load, Timer",
    "",
    "def send(request, *, timeout=None):",
    "    timer = Timer()",
    "    load(request.url, verify=True)",
    "    return timer.elapsed(request, *rest, **extra)",
    "",
    "class Client:",
    "    def get(self, url):",
    "        return send(self.build(url), timeout=5)",
    "",
  ].join("\n"),
  "src/app.js": [
    "import { load } from './config.js';",
    "export function start(port, host) {",
    "  const server = new Server(host);",
    "  load('x', ...rest);",
    "  return server.listen(port, () => log(`up on ${port}`));",
    "}",
    "",
  ].join("\n"),
  "cmd/main.go": [
    "package main",
    "",
    'import p "example.com/m/pricing"',
    "",
    "func Run(items []int, opts ...string) int {",
    "\ttotal := p.Sum(items...)",
    "\treturn apply(total, opts...)",
    "}",
    "",
  ].join("\n"),
  "src/lib.rs": [
    "pub fn run(items: &[u32]) -> u32 {",
    "    let total = sum(items);",
    "    Config::load(total).apply(items, 2)",
    "}",
    "",
  ].join("\n"),
};

describe("the parse cache of a review run", () => {
  it.each(Object.keys(FILES))("answers as parseForCalls does for %s, whatever is asked first", async (path) => {
    const content = FILES[path]!;
    const all = await parseForCalls(path, content, null);
    expect(all?.calls.length).toBeGreaterThan(1);
    const names = [...new Set(all!.calls.map((c) => c.name))];
    const asks: (ReadonlySet<string> | null)[] = [new Set<string>(), new Set([names[0]!]), null, new Set(names.slice(1)), new Set(["nothing_calls_this"]), new Set<string>()];
    for (const order of [asks, [...asks].reverse()]) {
      const parse = createParseCache();
      for (const wanted of order) expect(await parse(path, content, wanted)).toEqual(await parseForCalls(path, content, wanted));
    }
  });

  it("parses a version once for the calls of every name asked about; another version is parsed apart", async () => {
    const parse = createParseCache();
    const path = "pkg/client.py";
    const content = FILES[path]!;
    const [a, b] = [await parse(path, content, new Set(["send"])), await parse(path, content, new Set(["load"]))];
    // One parse shared: the same graph, each with its own calls.
    expect(a!.graph).toBe(b!.graph);
    expect(a!.calls.map((c) => c.name)).toEqual(["send"]);
    expect(b!.calls.map((c) => c.name)).toEqual(["load"]);
    // The graph-only answer of a version already parsed for its calls comes from that parse.
    expect((await parse(path, content, new Set()))!.graph).toBe(a!.graph);
    const changed = await parse(path, content.replace("timeout=5", "timeout=6"), new Set(["send"]));
    expect(changed!.graph).not.toBe(a!.graph);
    expect(changed!.calls[0]!.lineText).toContain("timeout=6");
  });

  it("a file it cannot parse is null for every question", async () => {
    const parse = createParseCache();
    expect(await parse("notes.txt", "send(1)\n", new Set(["send"]))).toBeNull();
    expect(await parse("notes.txt", "send(1)\n", null)).toBeNull();
    expect(await parse("notes.txt", "send(1)\n", new Set())).toBeNull();
  });
});
