import { describe, expect, it } from "vitest";
import { ANALYSERS, analyserContext } from "../../src/review/analysers/index.ts";
import { headLinesOf } from "../../src/review/analysers/leftover-output.ts";
import type { DiffFile } from "../../src/review/diff.ts";
import { added, diffOf } from "./helpers.ts";

/** The debug-leftover findings of a change of `before` into `after`, the base read as the engine reads it. */
const leftovers = (path: string, before: string[] | null, after: string[], base: string | null = before === null ? null : `${before.join("\n")}\n`) => {
  const file: DiffFile = before === null ? added(path, after) : diffOf(path, before, after);
  return ANALYSERS.debugLeftovers!(file, analyserContext(file, base)).map((f) => [f.lineStart, f.severity]);
};

// pallets/flask 0ec7f713 (shortened): `print(self.config["SERVER_NAME"], subdomain)` left in src/flask/app.py.
const APP = [
  "class Flask(App):",
  "    def create_url_adapter(self, request):",
  '        """Creates a URL adapter for the given request.',
  "",
  "        >>> print(app.url_map)",
  '        """',
  "        if request is not None:",
  "            subdomain = None",
  "            server_name = self.config['SERVER_NAME']",
  "            return self.url_map.bind_to_environ(request.environ, server_name=server_name, subdomain=subdomain)",
  "        return None",
];
const withPrint = (lines: string[], at: number, text: string) => [...lines.slice(0, at), text, ...lines.slice(at)];
const PRINT = '            print(self.config["SERVER_NAME"], subdomain)';

describe("an output call likely left in by accident is medium, shown at the default strictness", () => {
  it("Python: a print in library code that prints nowhere else (flask 0ec7f713)", () => {
    expect(leftovers("src/flask/app.py", APP, withPrint(APP, 8, PRINT))).toEqual([[9, "medium"]]);
    // An added module with one print is library code too.
    expect(leftovers("src/flask/app.py", null, withPrint(APP, 8, PRINT), "")).toEqual([[9, "medium"]]);
  });

  it("Python: low when the module prints elsewhere, is a command line, the call is flagged or writes to a stream, or the base is unknown", () => {
    const printing = withPrint(APP, 10, "        print('no request')");
    expect(leftovers("src/flask/app.py", printing, withPrint(printing, 8, PRINT))).toEqual([[9, "low"]]);
    const main = [...APP, "", 'if __name__ == "__main__":', "    Flask(__name__).run()"];
    expect(leftovers("src/flask/app.py", main, withPrint(main, 8, PRINT))).toEqual([[9, "low"]]);
    const parser = ["import argparse", "", "parser = argparse.ArgumentParser()", ...APP];
    expect(leftovers("src/tool.py", parser, withPrint(parser, 11, PRINT))).toEqual([[12, "low"]]);
    expect(leftovers("src/flask/app.py", APP, withPrint(APP, 8, "            if self.debug:\n"))).toEqual([]);
    const flagged = withPrint(withPrint(APP, 8, "            if verbose:"), 9, "    " + PRINT);
    expect(leftovers("src/flask/app.py", APP, flagged)).toEqual([[10, "low"]]);
    expect(leftovers("src/flask/app.py", APP, withPrint(APP, 8, "            print(subdomain, file=sys.stderr)"))).toEqual([[9, "low"]]);
    expect(leftovers("src/flask/app.py", APP, withPrint(APP, 8, PRINT), null)).toEqual([[9, "low"]]);
    // Three prints added: output on purpose.
    const three = withPrint(withPrint(withPrint(APP, 8, PRINT), 8, PRINT), 8, PRINT);
    expect(leftovers("src/flask/app.py", APP, three)).toEqual([[9, "low"], [10, "low"], [11, "low"]]);
    expect(leftovers("docs/tutorial/flaskr/db.py", APP, withPrint(APP, 8, PRINT))).toEqual([[9, "low"]]);
  });

  it("Python: an example in a docstring is low", () => {
    expect(leftovers("src/flask/app.py", APP, withPrint(APP, 4, "        print(app.config)"))).toEqual([[5, "low"]]);
  });

  it("JavaScript: a console.log in a module that logs nowhere else (axios 5c3b144a); not in a command-line tool", () => {
    const xhr = ["export default function xhrAdapter(config) {", "  return new Promise(function dispatchXhrRequest(resolve, reject) {", "    let request = new XMLHttpRequest();", "    request.open(config.method);", "  });", "}"];
    expect(leftovers("lib/adapters/xhr.js", xhr, withPrint(xhr, 3, "    console.log(request);"))).toEqual([[4, "medium"]]);
    const logs = withPrint(xhr, 4, "    console.log('opened');");
    expect(leftovers("lib/adapters/xhr.js", logs, withPrint(logs, 3, "    console.log(request);"))).toEqual([[4, "low"]]);
    const cli = ["const args = process.argv.slice(2);", ...xhr];
    expect(leftovers("lib/run.js", cli, withPrint(cli, 4, "    console.log(request);"))).toEqual([[5, "low"]]);
  });

  it("a file that exports nothing (JavaScript, TypeScript) or defines nothing (Python) is a script: its output is its purpose (zod f101d8ca's mm.mjs)", () => {
    const measure = [
      'import { build } from "esbuild";',
      'import { gzipSync } from "node:zlib";',
      'for (const f of ["zod-mini-boolean", "zod-mini-string"]) {',
      "  const r = await build({ entryPoints: [f], bundle: true, write: false });",
      "  const n = gzipSync(Buffer.from(r.outputFiles[0].contents)).length;",
      "  console.log(`${f.padEnd(20)} measured=${n}`);",
      "}",
    ];
    expect(leftovers("mm.mjs", null, measure, "")).toEqual([[6, "low"]]);
    expect(leftovers("src/measure.ts", null, measure, "")).toEqual([[6, "low"]]);
    // The same file exporting what it measures is a module others import.
    expect(leftovers("mm.mjs", null, [...measure, "export const ceilings = {};"], "")).toEqual([[6, "medium"]]);
    expect(leftovers("lib/measure.js", null, [...measure, "module.exports = { build };"], "")).toEqual([[6, "medium"]]);
    const report = ["import json", "", "data = json.load(open('results.json'))", "for name, value in data.items():", "    print(name, value)"];
    expect(leftovers("src/report.py", null, report, "")).toEqual([[5, "low"]]);
    expect(leftovers("src/report.py", null, ["import json", "", "def report(data):", "    for name, value in data.items():", "        print(name, value)"], "")).toEqual([[5, "medium"]]);
  });

  it("Go: fmt.Print outside package main is reported only when likely a leftover", () => {
    const lib = ["package render", "", "func (r JSON) Render(w http.ResponseWriter) error {", "\treturn WriteJSON(w, r.Data)", "}"];
    expect(leftovers("render/json.go", lib, withPrint(lib, 3, "\tfmt.Println(r.Data)"))).toEqual([[4, "medium"]]);
    const main = ["package main", ...lib.slice(1)];
    expect(leftovers("tools/gen.go", main, withPrint(main, 3, "\tfmt.Println(r.Data)"))).toEqual([]);
    const printing = withPrint(lib, 4, '\tfmt.Printf("%v", r)');
    expect(leftovers("render/json.go", printing, withPrint(printing, 3, "\tfmt.Println(r.Data)"))).toEqual([]);
  });

  it("Rust: println! in a library crate; not in a file with fn main; dbg! is always medium", () => {
    const lib = ["pub fn parse(input: &str) -> Value {", "    let value = Value::from(input);", "    value", "}"];
    expect(leftovers("src/parse.rs", lib, withPrint(lib, 2, '    println!("{:?}", value);'))).toEqual([[3, "medium"]]);
    const bin = [...lib, "", "fn main() {", "    parse(\"x\");", "}"];
    expect(leftovers("src/parse.rs", bin, withPrint(bin, 2, '    println!("{:?}", value);'))).toEqual([[3, "low"]]);
    expect(leftovers("src/parse.rs", bin, withPrint(bin, 2, "    dbg!(&value);"))).toEqual([[3, "medium"]]);
  });

  it("rebuilds the file at the head from its base and the diff, or gives up when they do not fit", () => {
    const file = diffOf("a.py", ["a", "b", "c", "d"], ["a", "B", "c", "d", "e"]);
    expect(headLinesOf(file, "a\nb\nc\nd\n")).toEqual(["a", "B", "c", "d", "e"]);
    expect(headLinesOf(file, "x\ny\n")).toBeNull();
  });
});
