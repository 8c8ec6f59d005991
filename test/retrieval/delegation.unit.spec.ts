import { describe, expect, it } from "vitest";
import type { ChunkDocument, DefinitionHit } from "../../src/codeindex/port.ts";
import type { RankedFile } from "../../src/retrieval/ranking.ts";
import { codeLines, delegatedCalls, delegatedNames, delegateOf, delegationIn, delegationReason, DELEGATION, isEntryPoint, withDelegate, withDelegateFile } from "../../src/retrieval/delegation.ts";

function chunk(path: string, symbol: string, text: string, startLine = 560): ChunkDocument {
  return {
    id: `r|${path}|b|0`, orgId: "o", repoId: "r", path, blobId: "b", ordinal: 0, language: "c", kind: "function",
    symbol, parent: null, signature: null, doc: null, startLine, endLine: startLine + text.split("\n").length - 1, text, summary: "", fileSummary: "",
  };
}

function definition(path: string, name: string, startLine: number, endLine: number, kind: "function" | "method" | "class" = "function"): DefinitionHit {
  return { repoId: "r", branch: "main", path, blobId: "b", language: "c", def: { name, kind, label: kind, parent: null, startLine, endLine, params: null, paramsText: null } };
}

const ENTRY = `/* Format a command according to the Redis protocol. This function
 * takes a format similar to printf.
 */
int redisFormatCommand(char **target, const char *format, ...) {
    va_list ap;
    int len;
    va_start(ap,format);
    len = redisvFormatCommand(target,format,ap);
    va_end(ap);

    /* Force the return value to always be -1. */
    if (len < 0)
        len = -1;
    return len;
}`;

const everywhere = () => true;
const calls = (...names: string[]) => names.map((name) => ({ name, parent: null }));

describe("a short entry point hands its work to what it calls", () => {
  it("counts code lines without the doc comment and blank lines", () => {
    expect(codeLines(chunk("hiredis.c", "redisFormatCommand", ENTRY))).toBe(10);
    expect(isEntryPoint(chunk("hiredis.c", "redisFormatCommand", ENTRY))).toBe(true);
    expect(delegatedNames(chunk("hiredis.c", "redisFormatCommand", ENTRY))).toEqual(["va_start", "redisvFormatCommand", "va_end"]);
  });

  it("is not a long function, a test, or a class", () => {
    const long = `int process(void) {\n${"    step();\n".repeat(DELEGATION.maxLines)}    return finish();\n}`;
    expect(isEntryPoint(chunk("src/process.c", "process", long))).toBe(false);
    expect(isEntryPoint(chunk("test/format_test.c", "redisFormatCommand", ENTRY))).toBe(false);
    expect(isEntryPoint({ ...chunk("hiredis.c", "Reader", ENTRY), kind: "class" })).toBe(false);
  });

  it("picks the longer definition in its own file, skipping short helpers and names defined too often", () => {
    const entry = chunk("hiredis.c", "redisFormatCommand", ENTRY);
    const found = [definition("hiredis.c", "redisvFormatCommand", 323, 558), definition("compat.c", "va_end", 1, 3)];
    expect(delegateOf(entry, "main", calls("va_start", "redisvFormatCommand", "va_end"), found, everywhere)?.def.name).toBe("redisvFormatCommand");
    // As short as the entry point: no work is handed over there.
    expect(delegateOf(entry, "main", calls("redisvFormatCommand"), [definition("hiredis.c", "redisvFormatCommand", 323, 330)], everywhere)).toBeNull();
    // A name defined in many places names nothing in particular.
    const many = Array.from({ length: DELEGATION.maxPlaces + 1 }, (_, i) => definition(`src/m${i}.c`, "redisvFormatCommand", 1, 100));
    expect(delegateOf(entry, "main", calls("redisvFormatCommand"), many, everywhere)).toBeNull();
    // Another branch's definitions are not this target's.
    expect(delegateOf(entry, "dev", calls("redisvFormatCommand"), found, everywhere)).toBeNull();
  });

  it("reads the methods called on locals a constructor made, with their class, before the other calls", () => {
    const text = ["def iter_lines(self):", "    decoder = LineDecoder()", "    for text in self.iter_text():", "        yield from decoder.decode(text)", "    yield from decoder.flush()"].join("\n");
    const entry = { ...chunk("httpx/_models.py", "iter_lines", text), language: "python", kind: "method", parent: "Response" };
    expect(delegatedCalls(entry)).toEqual([
      { name: "decode", parent: "LineDecoder" },
      { name: "flush", parent: "LineDecoder" },
      { name: "LineDecoder", parent: null },
      { name: "iter_text", parent: null },
    ]);
    const js = chunk("src/a.js", "run", "function run(x) {\n  const p = new Parser(x)\n  return p.parseAll()\n}");
    expect(delegatedCalls(js)[0]).toEqual({ name: "parseAll", parent: "Parser" });
    const rust = chunk("src/a.rs", "run", "pub fn run(x: &str) -> Out {\n    let mut p = Parser::new(x);\n    p.parse_all()\n}");
    expect(delegatedCalls(rust)[0]).toEqual({ name: "parse_all", parent: "Parser" });
    // A method name defined by many classes is its class's: the receiver's.
    const decoders = ["TextDecoder", "ByteDecoder", "GZipDecoder", "LineDecoder"].map((c, i) => ({ ...definition(`httpx/_decoders.py`, "decode", 100 * i + 10, 100 * i + 50, "method"), def: { ...definition("", "decode", 100 * i + 10, 100 * i + 50, "method").def, parent: c } }));
    const found = delegateOf(entry, "main", delegatedCalls(entry), decoders, everywhere);
    expect([found?.def.parent, found?.def.startLine]).toEqual(["LineDecoder", 310]);
  });

  it("of several delegates takes the one the question's words scored highest", () => {
    const entry = chunk("hiredis.c", "redisFormatCommand", ENTRY);
    const found = [definition("hiredis.c", "redisvFormatCommand", 323, 558), definition("hiredis.c", "va_end", 600, 640)];
    const byName = (d: { def: { name: string } }) => (d.def.name === "va_end" ? 2 : 1);
    expect(delegateOf(entry, "main", calls("va_start", "redisvFormatCommand", "va_end"), found, everywhere)?.def.name).toBe("redisvFormatCommand");
    expect(delegateOf(entry, "main", calls("va_start", "redisvFormatCommand", "va_end"), found, everywhere, byName)?.def.name).toBe("va_end");
  });

  it("takes another file's definition only when the caller accepts it", () => {
    const entry = chunk("hiredis.c", "redisFormatCommand", ENTRY);
    const elsewhere = [definition("format.c", "redisvFormatCommand", 10, 200)];
    expect(delegateOf(entry, "main", calls("redisvFormatCommand"), elsewhere, everywhere)?.path).toBe("format.c");
    expect(delegateOf(entry, "main", calls("redisvFormatCommand"), elsewhere, () => false)).toBeNull();
    // Two other files define it: which one the call reaches is unknown.
    expect(delegateOf(entry, "main", calls("redisvFormatCommand"), [...elsewhere, definition("alt.c", "redisvFormatCommand", 10, 200)], everywhere)).toBeNull();
  });

  it("puts the delegate's lines right after the entry point's in its file, first in another, keeping the file's own", () => {
    const refs = [
      { linestart: 560, lineend: 585, score: 2 },
      { linestart: 644, lineend: 685, score: 1.5 },
      { linestart: 483, lineend: 558, score: 1 },
    ];
    const delegate = definition("hiredis.c", "redisvFormatCommand", 323, 558);
    // The window 483-558 is part of the delegate: its whole definition replaces it.
    expect(withDelegate(refs, delegate, true, 3)).toEqual([refs[0], { linestart: 323, lineend: 558, score: 2 }, refs[1]]);
    expect(withDelegate(refs.slice(0, 2), delegate, false, 3)).toEqual([{ linestart: 323, lineend: 558, score: 2 }, ...refs.slice(0, 2)]);
  });

  it("moves the delegate's file second and says why; its reason is read back", () => {
    const file = (path: string, score: number): RankedFile => ({ repoId: "r", branch: "main", path, score, chunks: [], reasons: [] });
    const first: RankedFile = { ...file("hiredis.c", 3), chunks: [{ doc: chunk("hiredis.c", "redisFormatCommand", ENTRY), score: 3 }] };
    const ranked = [first, file("async.c", 2), file("sds.c", 1.5), file("format.c", 1)];
    const moved = withDelegateFile(ranked, definition("format.c", "redisvFormatCommand", 10, 200));
    expect(moved.map((f) => f.path)).toEqual(["hiredis.c", "format.c", "async.c", "sds.c"]);
    expect(moved[1]!.score).toBe(2);
    expect(moved[1]!.reasons).toEqual(["called by redisFormatCommand"]);
    expect(withDelegateFile(ranked, definition("hiredis.c", "redisvFormatCommand", 323, 558))).toEqual(ranked);
    expect(delegationIn(["defines x", delegationReason("redisFormatCommand", "redisvFormatCommand")])).toEqual({ entry: "redisFormatCommand", delegate: "redisvFormatCommand" });
    expect(delegationIn(["defines x"])).toBeNull();
  });
});
