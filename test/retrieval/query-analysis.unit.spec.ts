import { describe, expect, it } from "vitest";
import { analyzeQuery, type QueryAnalysis, type QueryTermKind } from "../../src/retrieval/query-analysis.ts";

const PYTHON_TRACEBACK_REPORT = "get_total_irradiance fails with ValueError when dni_extra is a Series\n\nI'm calling `pvlib.irradiance.get_total_irradiance` with `model='haydavies'` and it blows up:\n\n```python\nimport pandas as pd\nfrom pvlib import irradiance, location\nfrom pvlib.location import Location\n\nsite = Location(32.2, -110.9, tz='US/Arizona')\ntimes = pd.date_range('2020-06-01', periods=3, freq='h', tz=site.tz)\ncs = site.get_clearsky(times)\npoa = irradiance.get_total_irradiance(30, 180, solar_zenith, solar_azimuth,\n                                      cs['dni'], cs['ghi'], cs['dhi'], dni_extra=dni_extra,\n                                      model='haydavies')\n```\n\n```\nTraceback (most recent call last):\n  File \"/home/ana/projects/solar/run_model.py\", line 14, in <module>\n    poa = irradiance.get_total_irradiance(30, 180, solar_zenith, solar_azimuth,\n  File \"/home/ana/.venv/lib/python3.11/site-packages/pvlib/irradiance.py\", line 366, in get_total_irradiance\n    diffuse = get_sky_diffuse(\n              ^^^^^^^^^^^^^^^^\n  File \"/home/ana/.venv/lib/python3.11/site-packages/pvlib/irradiance.py\", line 469, in get_sky_diffuse\n    sky = haydavies(surface_tilt, surface_azimuth, dhi, dni, dni_extra,\n  File \"/home/ana/.venv/lib/python3.11/site-packages/pvlib/irradiance.py\", line 802, in haydavies\n    AI = dni / dni_extra\n  File \"/home/ana/.venv/lib/python3.11/site-packages/pandas/core/ops/common.py\", line 76, in new_method\n    return method(self, other)\n  File \"/usr/lib/python3.11/functools.py\", line 909, in wrapper\n    return dispatch(args[0].__class__)(*args, **kw)\nValueError: operands could not be broadcast together with shapes (3,) (8760,)\n```\n\n**Expected behavior**\nA Series of POA irradiance. Versions: pvlib 0.10.1, pandas 2.1.0, Python 3.11.\n";

const JS_STACK_REPORT = "Indexer crashes on repositories with submodules\n\nWhen I index a repo that has git submodules the worker dies:\n\nTypeError: Cannot read properties of undefined (reading 'oid')\n    at resolveTreeEntry (/srv/loupe/src/indexing/git-mirror.ts:212:31)\n    at walkTree (/srv/loupe/src/indexing/file-walk.ts:88:22)\n    at async Promise.all (index 3)\n    at async indexRepository (/srv/loupe/src/indexing/index-repository.ts:41:5)\n    at async Object.handle (/srv/loupe/node_modules/piscina/dist/worker.js:156:19)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n\nIt happens for every repository with a `.gitmodules` file. Loupe 0.1.0 on Node 20.11, Linux.\n";

const GITHUB_ISSUE = "### Describe the bug\n\n`DataFrame.to_parquet` with `partition_cols` raises when a partition column is categorical. The error comes from `pyarrow` but I think `pandas.io.parquet._write_partitioned` should convert categoricals first (see https://github.com/pandas-dev/pandas/blob/main/pandas/io/parquet.py#L190).\n\n### Reproducible example\n\n```py\n>>> import pandas as pd\n>>> df = pd.DataFrame({\"region\": pd.Categorical([\"eu\", \"us\"]), \"value\": [1, 2]})\n>>> df.to_parquet(\"out\", partition_cols=[\"region\"], engine=\"pyarrow\")\n```\n\n```pytb\npandas/io/parquet.py:190: in write\n    self.api.parquet.write_to_dataset(\nE   pyarrow.lib.ArrowInvalid: Could not convert 'eu' with type str: tried to convert to int32\n```\n\n### Expected behavior\n\nThe partitions `region=eu/` and `region=us/` are written, like with `fastparquet`.\n\n<!-- Please include the output of pd.show_versions() -->\n\n### Installed versions\n\npandas 2.2.0, pyarrow 15.0.0\n";

function weight(a: QueryAnalysis, text: string, kind?: QueryTermKind): number {
  const t = a.terms.find((x) => x.text === text && (kind === undefined || x.kind === kind));
  if (!t) throw new Error(`no term ${kind ?? ""} ${text} in ${a.terms.map((x) => `${x.kind}:${x.text}`).join(", ")}`);
  return t.weight;
}
const has = (a: QueryAnalysis, text: string) => a.terms.some((t) => t.text === text);

function wellFormed(a: QueryAnalysis): void {
  const texts = a.terms.map((t) => t.text);
  expect(new Set(texts).size).toBe(texts.length);
  const weights = a.terms.map((t) => t.weight);
  expect([...weights].sort((x, y) => y - x)).toEqual(weights);
  expect(a.terms.every((t) => t.weight > 0)).toBe(true);
  expect(a.paths).toEqual(a.terms.filter((t) => t.kind === "path").map((t) => t.text));
}

describe("analyzeQuery: Python traceback in a bug report", () => {
  const a = analyzeQuery(PYTHON_TRACEBACK_REPORT);

  it("is a long Python report with well-formed terms", () => {
    expect(a.isLongReport).toBe(true);
    expect(a.language).toBe("python");
    wellFormed(a);
  });

  it("reads every frame, classifying project, library and runtime code", () => {
    expect(a.frames.map((f) => [f.path, f.line, f.symbol, f.origin])).toEqual([
      ["/home/ana/projects/solar/run_model.py", 14, null, "project"],
      ["pvlib/irradiance.py", 366, "get_total_irradiance", "library"],
      ["pvlib/irradiance.py", 469, "get_sky_diffuse", "library"],
      ["pvlib/irradiance.py", 802, "haydavies", "library"],
      ["pandas/core/ops/common.py", 76, "new_method", "library"],
      ["/usr/lib/python3.11/functools.py", 909, "wrapper", "runtime"],
    ]);
  });

  it("weighs project frames over library frames over the standard library", () => {
    expect(a.paths[0]).toBe("/home/ana/projects/solar/run_model.py");
    expect(weight(a, "pandas/core/ops/common.py", "path")).toBeLessThan(weight(a, "/home/ana/projects/solar/run_model.py"));
    expect(weight(a, "/usr/lib/python3.11/functools.py")).toBeLessThan(weight(a, "pandas/core/ops/common.py"));
    expect(weight(a, "wrapper", "symbolFromTrace")).toBeLessThan(weight(a, "new_method", "symbolFromTrace"));
    expect(a.paths).toContain("pvlib/irradiance.py");
    expect(a.paths.some((p) => p.includes("site-packages"))).toBe(false);
  });

  it("extracts the exception class and message", () => {
    expect(a.errors).toEqual([
      { type: "ValueError", message: "operands could not be broadcast together with shapes (3,) (8760,)" },
    ]);
    expect(weight(a, "ValueError", "error")).toBeGreaterThan(1);
    expect(has(a, "operands could not be broadcast together with shapes (3,) (8760,)")).toBe(true);
    expect(a.symbols).not.toContain("ValueError"); // built-in, not defined in the project
  });

  it("takes the dotted name apart and proposes its module path", () => {
    expect(weight(a, "pvlib.irradiance.get_total_irradiance", "dotted")).toBeGreaterThan(2);
    expect(a.symbols.slice(0, 5)).toContain("get_total_irradiance");
    expect(a.symbols).toEqual(expect.arrayContaining(["get_sky_diffuse", "haydavies", "dni_extra", "Location"]));
    expect(has(a, "pvlib.location.Location")).toBe(true);
  });

  it("keeps plain words, without stop-words or template noise", () => {
    expect(has(a, "series")).toBe(true);
    expect(has(a, "broadcast")).toBe(true);
    for (const noise of ["the", "with", "when", "expected", "behavior", "versions", "im"]) expect(has(a, noise)).toBe(false);
    expect(a.terms.some((t) => t.text === "<module>" || t.text === "module")).toBe(false);
  });
});

describe("analyzeQuery: Node stack trace", () => {
  const a = analyzeQuery(JS_STACK_REPORT);

  it("reads the frames and the innermost project frame weighs most", () => {
    wellFormed(a);
    expect(a.language).toBe("javascript");
    expect(a.frames.filter((f) => f.origin === "project").map((f) => f.symbol)).toEqual([
      "resolveTreeEntry",
      "walkTree",
      "indexRepository",
    ]);
    expect(a.paths.slice(0, 3)).toEqual([
      "/srv/loupe/src/indexing/git-mirror.ts",
      "/srv/loupe/src/indexing/file-walk.ts",
      "/srv/loupe/src/indexing/index-repository.ts",
    ]);
    expect(weight(a, "resolveTreeEntry", "symbolFromTrace")).toBeGreaterThan(weight(a, "walkTree", "symbolFromTrace"));
    expect(a.symbols[0]).toBe("resolveTreeEntry");
  });

  it("cuts node_modules paths to the package, weighs them less, and drops runtime internals", () => {
    expect(weight(a, "piscina/dist/worker.js", "path")).toBeLessThan(weight(a, "/srv/loupe/src/indexing/file-walk.ts"));
    expect(a.paths.some((p) => p.startsWith("node:") || p.includes("node_modules"))).toBe(false);
    expect(has(a, "processTicksAndRejections")).toBe(false);
    expect(has(a, "Object")).toBe(false);
  });

  it("extracts the error, its message and the property it names", () => {
    expect(a.errors).toEqual([{ type: "TypeError", message: "Cannot read properties of undefined (reading 'oid')" }]);
    expect(weight(a, "oid", "identifier")).toBeGreaterThanOrEqual(2);
    expect(a.paths).toContain(".gitmodules");
  });
});

describe("analyzeQuery: short questions", () => {
  it("keeps the content words of a plain question, equally weighted", () => {
    const a = analyzeQuery("where is the retry policy configured?");
    expect(a.terms).toEqual([
      { text: "retry", weight: 1, kind: "word" },
      { text: "policy", weight: 1, kind: "word" },
      { text: "configured", weight: 1, kind: "word" },
    ]);
    expect(a).toMatchObject({ paths: [], symbols: [], errors: [], frames: [], locations: [], isLongReport: false });
  });

  it("recognises identifiers, dotted names and paths in a short question", () => {
    const a = analyzeQuery(
      "How does `createOpenAiEmbedder` handle a 429 from src/models/http.ts:42, and what calls pvlib.irradiance.get_total_irradiance() or parse_retry_after?",
    );
    wellFormed(a);
    expect(a.isLongReport).toBe(false);
    expect(weight(a, "createOpenAiEmbedder", "identifier")).toBeGreaterThan(weight(a, "handle", "word"));
    expect(weight(a, "parse_retry_after", "identifier")).toBeGreaterThan(1);
    expect(a.paths).toEqual(expect.arrayContaining(["src/models/http.ts", "pvlib/irradiance.py"]));
    expect(weight(a, "src/models/http.ts")).toBeGreaterThan(weight(a, "pvlib/irradiance.py"));
    expect(a.symbols).toEqual(expect.arrayContaining(["createOpenAiEmbedder", "get_total_irradiance", "parse_retry_after"]));
    expect(has(a, "does")).toBe(false);
  });

  it("reads a name qualified with `::` in prose as a dotted name (a code span's as code, as before); `std::` as the standard library", () => {
    const a = analyzeQuery("tracing_subscriber::Layer::downcast_raw not called when filtered");
    wellFormed(a);
    expect(weight(a, "tracing_subscriber.Layer.downcast_raw", "dotted")).toBeGreaterThan(weight(a, "called", "word"));
    expect(weight(a, "downcast_raw", "identifier")).toBeGreaterThan(weight(a, "Layer", "identifier"));
    expect(has(a, "raw") || has(a, "downcast")).toBe(false);
    expect(a.paths).toEqual([]); // no module path guessed: `::` is no Python or JavaScript module
    const span = analyzeQuery("`tracing_subscriber::Layer::downcast_raw()` not called when filtered");
    expect(weight(span, "downcast_raw", "identifier")).toBeGreaterThan(1);
    const generic = analyzeQuery("Vec<T>::with_capacity panics on overflow");
    expect(weight(generic, "with_capacity", "identifier")).toBeGreaterThan(1);
    // A member as documentation writes it (`Class#member`) and through a C pointer (`ctx->flags`); an issue number is none.
    const members = analyzeQuery("JsonPointer#last returns the wrong segment after ctx->flags is reset, see #123");
    expect(weight(members, "JsonPointer.last", "dotted")).toBeGreaterThan(1);
    expect(weight(members, "flags", "identifier")).toBeGreaterThan(1);
    expect(has(members, "123")).toBe(false);
    const std = analyzeQuery("Where is the unit suffix chosen when printing a std::chrono duration?");
    expect(weight(std, "chrono", "identifier")).toBeLessThan(weight(std, "duration", "word"));
  });

  it("reads a code name's possessive as the name, and keeps an English word's form", () => {
    const a = analyzeQuery("Fix stdout_sink_base::log's flush and parse_config's result for BulkDataURI's");
    wellFormed(a);
    expect(weight(a, "stdout_sink_base.log", "dotted")).toBeGreaterThan(1);
    expect(weight(a, "parse_config", "identifier")).toBeGreaterThan(1);
    expect(weight(a, "BulkDataURI", "identifier")).toBeGreaterThan(1);
    expect(has(a, "logs") || has(a, "configs")).toBe(false);
    expect(has(analyzeQuery("let a schema's error map cover its checks"), "schemas")).toBe(true);
  });

  it("reads a Conventional Commits head as its type word and its scope, not as a call", () => {
    const a = analyzeQuery("fix(res.send): add Content-Length only without Transfer-Encoding\n\n* build(router): keep the order");
    expect(a.terms.filter((t) => t.kind !== "word").map((t) => t.text)).not.toEqual(expect.arrayContaining(["fix"]));
    expect(has(a, "build") && a.terms.find((t) => t.text === "build")!.kind).toBe("word");
    expect(weight(a, "res.send", "dotted")).toBeGreaterThan(1);
    expect(weight(a, "router", "word")).toBeGreaterThan(0);
    expect(weight(analyzeQuery("parse(x): returns the wrong value"), "parse", "identifier")).toBeGreaterThan(1);
  });

  it("does not mistake prose punctuation, products and URLs for code", () => {
    const a = analyzeQuery("Works on Node.js 20 and macOS, e.g. with GitHub; see https://example.com/docs for details.");
    expect(a.paths).toEqual([]);
    expect(a.terms.filter((t) => t.kind !== "word")).toEqual([]);
    expect(has(a, "e.g")).toBe(false);
  });
});

describe("analyzeQuery: GitHub issue with code blocks", () => {
  const a = analyzeQuery(GITHUB_ISSUE);

  it("reads the pytest frame and the module-qualified exception without an Error suffix", () => {
    wellFormed(a);
    expect(a.frames).toEqual([
      { path: "pandas/io/parquet.py", line: 190, symbol: "write", origin: "project", language: "python" },
    ]);
    expect(a.errors).toEqual([
      { type: "ArrowInvalid", message: "Could not convert 'eu' with type str: tried to convert to int32" },
    ]);
    expect(a.symbols).toContain("ArrowInvalid");
    expect(has(a, "pyarrow.lib.ArrowInvalid")).toBe(true);
    expect(has(a, "Could")).toBe(false); // the message is not read as code
  });

  it("takes paths from GitHub links and names from code spans and REPL code", () => {
    expect(a.paths[0]).toBe("pandas/io/parquet.py");
    expect(weight(a, "pandas.io.parquet._write_partitioned", "dotted")).toBeGreaterThan(2);
    expect(weight(a, "partition_cols", "identifier")).toBeGreaterThan(2);
    expect(has(a, "DataFrame.to_parquet")).toBe(true);
    expect(a.symbols).toEqual(expect.arrayContaining(["to_parquet", "_write_partitioned", "write_to_dataset"]));
    // library aliases weigh little
    expect(weight(a, "pd.DataFrame", "dotted")).toBeLessThan(1);
  });

  it("ignores HTML comments and issue-template noise", () => {
    expect(has(a, "show_versions")).toBe(false);
    for (const noise of ["describe", "bug", "reproducible", "expected", "behavior", "installed", "versions"]) {
      expect(has(a, noise)).toBe(false);
    }
    expect(has(a, "categorical")).toBe(true);
  });
});

describe("analyzeQuery: more trace formats", () => {
  it("reads Windows tracebacks, chained exceptions and custom exceptions", () => {
    const a = analyzeQuery(
      [
        "Traceback (most recent call last):",
        '  File "C:\\Users\\dev\\loupe_py\\loupe\\config.py", line 88, in load_settings',
        "    data = tomllib.loads(text)",
        '  File "C:\\Python311\\Lib\\tomllib\\_parser.py", line 102, in loads',
        "    raise suffixed_err(src, pos, \"Invalid statement\")",
        "tomllib.TOMLDecodeError: Invalid statement (at line 3, column 1)",
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "Traceback (most recent call last):",
        '  File "C:\\Users\\dev\\loupe_py\\loupe\\cli.py", line 12, in main',
        "    settings = load_settings(path)",
        "loupe.errors.ConfigError: could not read 'loupe.toml'",
      ].join("\n"),
    );
    wellFormed(a);
    expect(a.frames.map((f) => [f.path, f.origin])).toEqual([
      ["C:/Users/dev/loupe_py/loupe/config.py", "project"],
      ["C:/Python311/Lib/tomllib/_parser.py", "runtime"],
      ["C:/Users/dev/loupe_py/loupe/cli.py", "project"],
    ]);
    expect(a.errors.map((e) => e.type)).toEqual(["TOMLDecodeError", "ConfigError"]);
    expect(a.symbols).toEqual(expect.arrayContaining(["load_settings", "main", "ConfigError", "TOMLDecodeError"]));
    expect(a.paths).toContain("loupe.toml");
    expect(weight(a, "load_settings")).toBeGreaterThan(weight(a, "loads"));
  });

  it("reads browser (Firefox) frames and webpack paths", () => {
    const a = analyzeQuery(
      "RangeError: Maximum call stack size exceeded\nrenderTree@webpack:///./src/ui/tree.tsx:40:12\nupdate@https://cdn.example.com/vendor/react-dom.js:1:9000",
    );
    expect(a.frames.map((f) => [f.path, f.symbol, f.origin])).toEqual([
      ["src/ui/tree.tsx", "renderTree", "project"],
      ["vendor/react-dom.js", "update", "library"],
    ]);
    expect(a.errors).toEqual([{ type: "RangeError", message: "Maximum call stack size exceeded" }]);
  });

  it("copes with a very long input quickly", () => {
    const text = `${GITHUB_ISSUE}\n${"x".repeat(50_000)} ${"a.".repeat(20_000)}\n${JS_STACK_REPORT.repeat(50)}`;
    const started = performance.now();
    const a = analyzeQuery(text);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(a.terms.length).toBeLessThanOrEqual(120);
    expect(a.paths).toContain("/srv/loupe/src/indexing/git-mirror.ts");
  });
});

describe("analyzeQuery: the lines a writer points at", () => {
  it("takes `path:line` from the text and its code spans, and the line of a blob link", () => {
    const a = analyzeQuery(
      "The width is lost in src/format/pad.c:221 (see https://github.com/acme/fmt/blob/2.15/include/fmt/core.h#L314-L317), and again at `lib/x.py:12:5`.",
    );
    // A line's code spans are read before its words.
    expect(a.locations).toEqual([
      { path: "lib/x.py", line: 12 },
      { path: "src/format/pad.c", line: 221 },
      // A link to a range: its first and last lines.
      { path: "include/fmt/core.h", line: 314 },
      { path: "include/fmt/core.h", line: 317 },
    ]);
    expect(a.paths).toEqual(expect.arrayContaining(["src/format/pad.c", "include/fmt/core.h", "lib/x.py"]));
  });

  it("takes a line written in words after or before its file", () => {
    const at = (text: string) => analyzeQuery(text).locations;
    expect(at("The problem is in `jsonrep.py` at line 227. I plan on submitting a pull-request today.")).toEqual([{ path: "jsonrep.py", line: 227 }]);
    expect(at("The method is private due to private inheritance (fmt/format.h - line 4055.")).toEqual([{ path: "fmt/format.h", line: 4055 }]);
    expect(at('Assertion failed: (0 && "Invalid value"), function jv_dump_term, file jv_print.c, line 221.')).toEqual([{ path: "jv_print.c", line: 221 }]);
    expect(at("See line 42 of src/util/cache.cc where the handle is freed twice.")).toEqual([{ path: "src/util/cache.cc", line: 42 }]);
    // No file: a line of output, a version's "line".
    expect(at("Output lines 2 and 3 show the problem; the 3.9 line 5 is fine, and so is line 7 of the output.")).toEqual([]);
  });

  it("keeps a stack's frames in `frames`, not in `locations`", () => {
    const a = analyzeQuery(["Traceback (most recent call last):", '  File "/srv/app/src/pkg/mod.py", line 42, in run', "    go()", "ValueError: bad"].join("\n"));
    expect(a.frames.map((f) => f.line)).toEqual([42]);
    expect(a.locations).toEqual([]);
  });

  it("reads GitLab's range (#L10-20) like GitHub's, and a range of one line once", () => {
    expect(analyzeQuery("See https://gitlab.com/acme/fmt/-/blob/main/src/pad.c#L10-20 for it").locations).toEqual([
      { path: "src/pad.c", line: 10 },
      { path: "src/pad.c", line: 20 },
    ]);
    expect(analyzeQuery("See https://github.com/acme/fmt/blob/main/src/pad.c#L10-L10 for it").locations).toEqual([{ path: "src/pad.c", line: 10 }]);
  });

  it("a path without a line and a link without #L point at no line", () => {
    const a = analyzeQuery("Compare src/format/pad.c with https://github.com/acme/fmt/blob/main/include/fmt/core.h please");
    expect(a.locations).toEqual([]);
  });
});
