import { describe, expect, it } from "vitest";
import type { ChunkDocument } from "../../src/codeindex/port.ts";
import { referencedNames, wrapperCallees, WRAPPERS } from "../../src/retrieval/callees.ts";

let ordinal = 0;
function def(path: string, symbol: string, text: string): { doc: ChunkDocument } {
  const lines = text.split("\n").length;
  const n = ordinal++;
  return {
    doc: {
      id: `r|${path}|b|${n}`, orgId: "o", repoId: "r", path, blobId: "b", ordinal: n, language: "go", kind: "function",
      symbol, parent: null, signature: null, doc: null, startLine: 10, endLine: 10 + lines - 1, text, summary: "", fileSummary: "",
    },
  };
}

const WRAPPER = `func UnmarshalJsonBytes(content []byte, v any, opts ...UnmarshalOption) error {
	return unmarshalJsonBytes(content, v, getJsonUnmarshaler(opts...))
}`;

describe("callees of the wrappers a report names", () => {
  it("reads what a short definition of a named function calls", () => {
    expect(referencedNames(def("core/mapping/json.go", "UnmarshalJsonBytes", WRAPPER).doc)).toEqual([
      "unmarshalJsonBytes",
      "getJsonUnmarshaler",
    ]);
    const callees = wrapperCallees([def("core/mapping/json.go", "UnmarshalJsonBytes", WRAPPER)], ["UnmarshalJsonBytes", "uuid"]);
    expect(callees).toEqual(["unmarshalJsonBytes", "getJsonUnmarshaler"]);
  });

  it("leaves long definitions, tests, unnamed definitions and the named names themselves alone", () => {
    const long = `func Process(v any) error {\n${"\tstep(v)\n".repeat(WRAPPERS.maxLines)}\treturn finish(v)\n}`;
    expect(wrapperCallees([def("core/proc.go", "Process", long)], ["Process"])).toEqual([]);
    expect(wrapperCallees([def("core/mapping/json_test.go", "UnmarshalJsonBytes", WRAPPER)], ["UnmarshalJsonBytes"])).toEqual([]);
    expect(wrapperCallees([def("core/mapping/json.go", "UnmarshalJsonBytes", WRAPPER)], ["somethingElse"])).toEqual([]);
    // A callee the report names too is already looked up as a definition.
    expect(wrapperCallees([def("core/mapping/json.go", "UnmarshalJsonBytes", WRAPPER)], ["UnmarshalJsonBytes", "getJsonUnmarshaler"])).toEqual(["unmarshalJsonBytes"]);
  });

  it("only the report's strongest names are read", () => {
    const names = Array.from({ length: WRAPPERS.names }, (_, i) => `name${i}`);
    expect(wrapperCallees([def("core/mapping/json.go", "UnmarshalJsonBytes", WRAPPER)], [...names, "UnmarshalJsonBytes"])).toEqual([]);
  });
});
