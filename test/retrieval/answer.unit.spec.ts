import { describe, expect, it } from "vitest";
import type { ChunkDocument } from "../../src/codeindex/port.ts";
import { extractiveAnswer } from "../../src/retrieval/answer/extractive.ts";
import { contextBlock } from "../../src/retrieval/answer/chat.ts";
import { chunkOf, spanCode, type AnswerSource } from "../../src/retrieval/answer/spans.ts";

const classText = [
  "class SecureCookieSessionInterface(SessionInterface):",
  '    """The default session interface that stores sessions in signed cookies."""',
  "",
  '    salt = "cookie-session"',
  "",
  "    def get_signing_serializer(self, app):",
  "        if not app.secret_key:",
  "            return None",
  "        return URLSafeTimedSerializer(app.secret_key, salt=self.salt)",
  "",
  "    def open_session(self, app, request):",
  "        s = self.get_signing_serializer(app)",
  "        if s is None:",
  "            return None",
  "        return self.session_class()",
  "",
].join("\n");

const chunk = (over: Partial<ChunkDocument>): ChunkDocument => ({
  id: "x", orgId: "o", repoId: "r", path: "src/app/sessions.py", blobId: "b", ordinal: 0, language: "python", kind: "class",
  symbol: "SecureCookieSessionInterface", parent: null, signature: null, doc: "The default session interface that stores sessions in signed cookies.",
  startLine: 100, endLine: 115, text: classText, summary: "", fileSummary: "", ...over,
});

const source = (c: ChunkDocument, refs = [{ linestart: c.startLine, lineend: c.endLine, score: 3 }]): AnswerSource => ({
  repoId: "r", branch: "main", path: c.path, linestart: refs[0]!.linestart, lineend: refs[0]!.lineend, summary: "Python module defining sessions.", distance: 0, score: 3,
  references: refs, chunks: [c], reasons: [], repository: "acme/app", remote: "github",
});

/** Lines of a long C function's body, numbered from `from`. */
const evictLines = (from: number, n: number) => Array.from({ length: n }, (_, i) => `    evict_step(${from + i}); /* evict keys until memory is under maxmemory */`);

describe("extractive answers", () => {
  it("names the definition inside the best span that answers the question, with its lines, and quotes its code", () => {
    const answer = extractiveAnswer("Where is the secret key used to sign the session cookie?", [source(chunk({}))]);
    const prose = answer.slice(0, answer.indexOf("```"));
    expect(prose).toContain("Best match: **`SecureCookieSessionInterface`** (class) in `src/app/sessions.py`, lines 100–115");
    expect(prose).toContain("`get_signing_serializer` (lines 105–108)");
    expect(prose.length).toBeLessThan(1500);
    expect(answer).toContain("`src/app/sessions.py:105-108` (`get_signing_serializer`)\n```python\n    def get_signing_serializer(self, app):");
    expect(answer).not.toContain("Nothing in the indexed code matches");
  });

  it("in a run of statements, the definition on its first line is one of its members; a two-capital acronym is a word", () => {
    const getters = [
      "defineGetter(req, 'ip', function ip(){",
      "  var trust = this.app.get('trust proxy fn');",
      "  return proxyaddr(this, trust);",
      "});",
      "",
      "/**",
      " * Return the list of addresses from the trusted proxy.",
      " */",
      "",
      "defineGetter(req, 'ips', function ips() {",
      "  var trust = this.app.get('trust proxy fn');",
      "  var addrs = proxyaddr.all(this, trust);",
      "  // remove the socket address",
      "  return addrs.reverse().slice(1);",
      "});",
    ].join("\n");
    const block = chunk({ path: "lib/request.js", language: "javascript", kind: "block", symbol: null, doc: null, startLine: 340, endLine: 354, text: getters });
    const prose = extractiveAnswer("How does Express work out the client IP address behind a proxy?", [source(block)]).split("```")[0]!;
    expect(prose).toContain("see `ip` (lines 340–343)");
  });

  it("does not name a helper inside the span that holds few of the words the span's own lines hold", () => {
    const configure = [
      "app.defaultConfiguration = function defaultConfiguration() {",
      "  var env = process.env.NODE_ENV || 'development';",
      "  // default settings",
      "  this.enable('x-powered-by');",
      "  this.set('etag', 'weak');",
      "  this.set('env', env);",
      "  this.on('mount', function onmount(parent) {",
      "    if (this.settings[trustProxyDefaultSymbol] === true) {",
      "      delete this.settings['trust proxy'];",
      "    }",
      "    this.request = Object.create(parent.request);",
      "    this.response = Object.create(parent.response);",
      "  });",
      "  this.locals = Object.create(null);",
      "  this.mountpath = '/';",
      "};",
    ].join("\n");
    const method = chunk({ path: "lib/application.js", language: "javascript", kind: "method", symbol: "defaultConfiguration", parent: "app", doc: null, startLine: 90, endLine: 105, text: configure });
    const answer = extractiveAnswer("Where are the default settings such as etag and x-powered-by configured?", [source(method)]);
    const prose = answer.split("```")[0]!;
    expect(prose).toContain("Best match: **`app.defaultConfiguration`** (method) in `lib/application.js`, lines 90–105.");
    expect(prose).not.toContain("onmount");
    // The code quoted is the method's own, where the settings are.
    expect(answer).toContain("`lib/application.js:90-105`\n```javascript\napp.defaultConfiguration = function");
  });

  it("lists one definition written again in each file of a folder once, with how many more, and keeps same-named different code apart", () => {
    const localeOf = (name: string, weekStart: number, months: string) =>
      [
        "const locale = {",
        `  name: '${name}',`,
        `  months: '${months}'.split('_'),`,
        `  weekStart: ${weekStart},`,
        "  formats: { LT: 'HH:mm', L: 'DD/MM/YYYY' },",
        "  ordinal: n => n,",
        "}",
      ].join("\n");
    const locales = ["de", "fr", "it"].map((name, i) =>
      source(chunk({ path: `src/locale/${name}.js`, language: "javascript", kind: "variable", symbol: "locale", doc: null, startLine: 4, endLine: 10, text: localeOf(name, 1, `m${i}_n${i}`) })),
    );
    const week = [
      "function startOfWeek(date, locale) {",
      "  const weekStart = locale.weekStart || 0",
      "  const day = date.getDay()",
      "  const gap = (day < weekStart ? day + 7 : day) - weekStart",
      "  return addDays(date, -gap)",
      "}",
    ].join("\n");
    const start = source(chunk({ path: "src/week.js", language: "javascript", kind: "function", symbol: "startOfWeek", doc: null, startLine: 1, endLine: 6, text: week }));
    // A type of another module named like one listed, written differently.
    const other = [
      "const locale = {",
      "  resolve(tag) { return registry.lookup(normalise(tag)) },",
      "  fallback: defaultTag,",
      "}",
    ].join("\n");
    const registry = source(chunk({ path: "src/locale/registry.js", language: "javascript", kind: "variable", symbol: "locale", doc: null, startLine: 1, endLine: 4, text: other }));
    const answer = extractiveAnswer("Where does the start of a week use the locale's weekStart?", [start, ...locales, registry]);
    const prose = answer.split("```")[0]!;
    expect(prose).toContain("**`locale`** (variable) in `src/locale/de.js`, lines 4–10 (2 more files in `src/locale/` too)");
    expect(prose).not.toContain("src/locale/fr.js");
    expect(prose).not.toContain("src/locale/it.js");
    expect(prose).toContain("`src/locale/registry.js`, lines 1–4");
    expect(prose).not.toContain("registry.js`, lines 1–4 (");
  });

  it("names the method of a class span even when the method is most of the span", () => {
    const impl = [
      "impl MatchDebug {",
      "    /// Whether a value's Debug output equals the pattern, written without allocating.",
      "    fn debug_matches(&self, value: &impl fmt::Debug) -> bool {",
      "        struct Matcher<'a> { pattern: &'a str }",
      "        impl fmt::Write for Matcher<'_> {",
      "            fn write_str(&mut self, s: &str) -> fmt::Result {",
      "                if !self.pattern.starts_with(s) { return Err(fmt::Error); }",
      "                self.pattern = &self.pattern[s.len()..];",
      "                Ok(())",
      "            }",
      "        }",
      "        let mut output = Matcher { pattern: &self.pattern };",
      "        write!(&mut output, \"{:?}\", value).is_ok() && output.pattern.is_empty()",
      "    }",
      "}",
    ].join("\n");
    const span = chunk({ path: "src/filter/field.rs", language: "rust", kind: "class", symbol: "MatchDebug", doc: null, startLine: 354, endLine: 368, text: impl });
    const prose = extractiveAnswer("How does the filter check that a value's Debug output equals a pattern without allocating?", [source(span)]).split("```")[0]!;
    expect(prose).toContain("see `debug_matches` (lines 356–367)");
  });

  it("answers a question about where a name is used with its uses and the lines of each use", () => {
    const server = [
      "def start_server(path):", // 10
      "    if not path:",
      "        path = default_path()",
      "    log('reading', path)",
      "    with open(path) as f:",
      "        text = f.read()", // 15
      "    check(text)",
      "    settings = parse_config(text)", // 17
      "    port = int(settings.get('port', 8080))",
      "    host = settings.get('host', 'localhost')",
      "    log('serving', host, port)", // 20
      "    server = serve(host, port)",
      "    return server", // 22
    ].join("\n");
    const caller = chunk({ path: "app/server.py", kind: "function", symbol: "start_server", doc: null, startLine: 10, endLine: 22, text: server });
    const used = { ...source(caller), reasons: ["uses parse_config"] };
    const answer = extractiveAnswer("Where is parse_config called?", [used]);
    expect(answer.startsWith("`parse_config` is used here (best first):")).toBe(true);
    expect(answer).toContain("- **`start_server`** (function) in `app/server.py`, lines 10–22");
    // The lines around the use (three before, six after), not the whole function from its first line.
    expect(answer).toContain("`app/server.py:14-22` (uses `parse_config`)\n```python\n    with open(path) as f:");
    expect(answer).toContain("    settings = parse_config(text)");
    // Without the search's reason it is an ordinary answer.
    expect(extractiveAnswer("Where is parse_config called?", [source(caller)]).startsWith("`parse_config` is used here")).toBe(false);
  });

  it("lists the windows of one long definition side by side once, with the lines of both", () => {
    const first = ["int performEvictions(void) {", ...evictLines(1, 79)].join("\n");
    const second = [...evictLines(80, 79), "}"].join("\n");
    const head = chunk({ path: "src/evict.c", language: "c", kind: "function", symbol: "performEvictions", doc: "Evicts keys while memory is over the limit.", startLine: 496, endLine: 575, text: first });
    const tail = chunk({ id: "y", path: "src/evict.c", language: "c", kind: "function", symbol: "performEvictions", doc: null, startLine: 576, endLine: 655, text: second });
    const other = chunk({ id: "z", path: "src/evict.c", language: "c", kind: "function", symbol: "evictionPoolPopulate", doc: null, startLine: 117, endLine: 140, text: evictLines(1, 24).join("\n") });
    const src: AnswerSource = { ...source(head), chunks: [head, tail, other], references: [{ linestart: 496, lineend: 575, score: 3 }, { linestart: 117, lineend: 140, score: 2 }, { linestart: 576, lineend: 655, score: 1 }] };
    const prose = extractiveAnswer("How are keys evicted when memory is over maxmemory?", [src]).split("```")[0]!;
    expect(prose).toContain("Best match: **`performEvictions`** (function) in `src/evict.c`, lines 496–655: Evicts keys while memory is over the limit.");
    expect(prose.match(/performEvictions/g)).toHaveLength(1);
    expect(prose).toContain("**`evictionPoolPopulate`** (function) in `src/evict.c`, lines 117–140");
  });

  it("lists windows of one long definition that are not side by side on one line, with the lines of each", () => {
    const part = (id: string, start: number) => chunk({ id, path: "src/evict.c", language: "c", kind: "function", symbol: "performEvictions", doc: null, startLine: start, endLine: start + 79, text: evictLines(start, 80).join("\n") });
    const [a, b, c] = [part("a", 496), part("b", 656), part("c", 816)];
    const other = chunk({ id: "z", path: "src/evict.c", language: "c", kind: "function", symbol: "evictionPoolPopulate", doc: null, startLine: 117, endLine: 140, text: evictLines(1, 24).join("\n") });
    const refs = [a, other, c, b].map((x, i) => ({ linestart: x.startLine, lineend: x.endLine, score: 4 - i }));
    const src: AnswerSource = { ...source(a), chunks: [a, b, c, other], references: refs };
    const prose = extractiveAnswer("How are keys evicted when memory is over maxmemory?", [src]).split("```")[0]!;
    expect(prose).toContain("**`performEvictions`** (function) in `src/evict.c`, lines 496–575, 816–895 and 656–735");
    expect(prose.match(/performEvictions/g)).toHaveLength(1);
    expect(prose).toContain("**`evictionPoolPopulate`** (function) in `src/evict.c`, lines 117–140");
  });

  it("leads with code, not with a file's opening comment (its licence and description)", () => {
    const opening = [
      "// Copyright (c) 2012 The Authors. All rights reserved.",
      "// A bloom filter policy: a small filter made from a set of keys tells",
      "// whether a key may match before the block is read.",
      "",
      "#include \"filter_policy.h\"",
    ].join("\n");
    const policy = [
      "class BloomFilterPolicy : public FilterPolicy {",
      " public:",
      "  bool KeyMayMatch(const Slice& key, const Slice& bloom_filter) const override {",
      "    const size_t bits = bloom_filter.size() * 8;",
      "    return (bloom_filter[bits % 8] & 1) != 0;",
      "  }",
      "};",
    ].join("\n");
    const head = chunk({ path: "util/bloom.cc", language: "cpp", kind: "block", symbol: null, doc: null, startLine: 1, endLine: 5, text: opening });
    const cls = chunk({ id: "y", path: "util/bloom.cc", language: "cpp", kind: "class", symbol: "BloomFilterPolicy", doc: null, startLine: 7, endLine: 13, text: policy });
    const src: AnswerSource = { ...source(head), chunks: [head, cls], references: [{ linestart: 1, lineend: 5, score: 3 }, { linestart: 7, lineend: 13, score: 2 }] };
    const answer = extractiveAnswer("How does the bloom filter decide whether a key may match?", [src]);
    const prose = answer.split("```")[0]!;
    expect(prose).toContain("Best match: **`BloomFilterPolicy`** (class) in `util/bloom.cc`, lines 7–13");
    expect(prose).toContain("- `util/bloom.cc`, lines 1–5");
    expect(answer.indexOf("class BloomFilterPolicy")).toBeLessThan(answer.indexOf("Copyright"));
  });

  it("reads a question's inflected and phrasal verbs as code names them (looked up ~ lookup, parsing ~ parse)", () => {
    const lookup = [
      "struct command *lookupCommand(struct dict *table, const char *name) {",
      "    return dictFetchValue(table, name);",
      "}",
    ].join("\n");
    const fn = chunk({ path: "src/server.c", language: "c", kind: "function", symbol: "lookupCommand", doc: null, startLine: 40, endLine: 42, text: lookup });
    const prose = extractiveAnswer("How is a command looked up in the table by its name?", [source(fn)]).split("```")[0]!;
    expect(prose).toContain("Best match: **`lookupCommand`** (function) in `src/server.c`, lines 40–42");
    const parser = chunk({ path: "src/args.c", language: "c", kind: "function", symbol: "parseArgs", doc: null, startLine: 3, endLine: 5, text: "int parseArgs(int argc, char **argv) {\n    return parse_options(argc, argv);\n}" });
    expect(extractiveAnswer("Where is the parsing of arguments done?", [source(parser)])).toContain("Best match: **`parseArgs`**");
  });

  it("lists at most three places of one file before the next file's best place", () => {
    const fn = (path: string, name: string, line: number, id: string) =>
      chunk({ id, path, language: "go", kind: "function", symbol: name, doc: null, startLine: line, endLine: line + 2, text: `func ${name}(args []string) []string {\n\treturn completeFlags(args)\n}` });
    const many = ["completeFlags", "completeArgs", "completeNames", "completeValues"].map((name, i) => fn("completions.go", name, 10 + 10 * i, `c${i}`));
    const first: AnswerSource = { ...source(many[0]!), chunks: many, references: many.map((c, i) => ({ linestart: c.startLine, lineend: c.endLine, score: 4 - i * 0.1 })) };
    const find = fn("command.go", "findCommand", 700, "f");
    const answer = extractiveAnswer("How are the flags and args completed for a command?", [first, { ...source(find), score: 2 }]);
    const prose = answer.split("```")[0]!;
    // The first file's fourth place comes after the second file's best one (both are listed: five places).
    expect(prose.indexOf("`findCommand`")).toBeGreaterThan(0);
    expect(prose.indexOf("`findCommand`")).toBeLessThan(prose.indexOf("`completeValues`"));
    expect(prose.indexOf("`completeNames`")).toBeLessThan(prose.indexOf("`findCommand`"));
  });

  it("reads the comment right above an inner definition as part of it", () => {
    const plugin = [
      "export default (client) => {",
      "  const attempts = 3",
      "  // Chooses the delay before the next retry.",
      "  const backoff = (attempt) => {",
      "    const base = 100",
      "    return base * 2 ** attempt",
      "  }",
      "  const send = (request) => {",
      "    client.send(request)",
      "    return client.wait()",
      "  }",
      "  const sendAgain = (request, wait) => {",
      "    setTimeout(() => send(request), wait)",
      "    return attempts",
      "  }",
      "  return { send, sendAgain }",
      "}",
    ].join("\n");
    const fn = chunk({ path: "src/plugin/retry/index.js", language: "javascript", kind: "function", symbol: "default", doc: null, startLine: 1, endLine: 17, text: plugin });
    const prose = extractiveAnswer("How is the delay before a retry chosen?", [source(fn)]).split("```")[0]!;
    expect(prose).toContain("see `backoff` (lines 4–7)");
  });

  it("reads a span that windows of one definition cover one after another as one chunk (the code of a whole definition)", () => {
    const part = (id: string, start: number, end: number) => chunk({ id, language: "c", kind: "function", symbol: "run", startLine: start, endLine: end, text: Array.from({ length: end - start + 1 }, (_, i) => `line ${start + i}`).join("\n") });
    const parts = [part("a", 10, 19), part("b", 20, 29), part("c", 31, 35)];
    const joined = chunkOf(parts, 10, 35)!;
    expect(joined).toMatchObject({ startLine: 10, endLine: 35, symbol: "run" });
    expect(spanCode(joined, 18, 32).split("\n")).toEqual(["line 18", "line 19", "line 20", "line 21", "line 22", "line 23", "line 24", "line 25", "line 26", "line 27", "line 28", "line 29", "", "line 31", "line 32"]);
    // A gap of more than one line is not one definition.
    expect(chunkOf([part("a", 10, 19), part("c", 23, 30)], 10, 30)).toBeUndefined();
  });

  it("says plainly when nothing matches the question well", () => {
    const answer = extractiveAnswer("How are quantum flux capacitors calibrated at warp speed?", [source(chunk({}))]);
    expect(answer.startsWith("Nothing in the indexed code matches this question closely.")).toBe(true);
    expect(extractiveAnswer("anything", [])).toContain("I found no indexed code that matches this question");
  });

  it("calls the best span a match when it holds under half of a newcomer's long question's words", () => {
    const fn = chunk({ path: "src/stores/cache.go", language: "go", kind: "function", symbol: "setCacheWithNotFound", doc: null, startLine: 278, endLine: 281, text: "func (c cacheNode) setCacheWithNotFound(key string) error {\n\t// A placeholder is written for keys the database does not have.\n\treturn c.rds.Setex(key, notFoundPlaceholder, c.expiry)\n}" });
    // The span holds 5 of the question's 12 words (database, cache, keys, written, found).
    const answer = extractiveAnswer("How does the database cache layer avoid repeatedly querying the database for keys that do not exist there, and what is written instead when nothing is found?", [source(fn)]);
    expect(answer.startsWith("Best match: **`setCacheWithNotFound`**")).toBe(true);
  });

  it("puts notes first and keeps the prose short with many sources", () => {
    const many = Array.from({ length: 10 }, (_, i) => source(chunk({ path: `src/app/s${i}.py`, doc: "x".repeat(400) })));
    const answer = extractiveAnswer("Where is the session cookie signed with the secret key?", many, ["acme/old is being re-indexed."]);
    expect(answer.startsWith("> **Note:** acme/old is being re-indexed.")).toBe(true);
    expect(answer.indexOf("```")).toBeLessThan(1500);
  });

  it("gives the chat model the spans' code, not file summaries", () => {
    const block = contextBlock("secret key session cookie", [source(chunk({}))]);
    expect(block).toContain("### acme/app src/app/sessions.py:100-115 (class SecureCookieSessionInterface)");
    expect(block).toContain("def get_signing_serializer(self, app):");
    expect(block).not.toContain("Python module defining sessions.");
  });
});
