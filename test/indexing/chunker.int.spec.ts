import { describe, expect, it } from "vitest";
import type { Chunk, ChunkedFile } from "../../src/indexing/chunk.ts";
import { CHUNKER_VERSION, createChunker } from "../../src/indexing/chunking/chunker.ts";
import { blankDeclarationMacros, blankForGrammar } from "../../src/indexing/chunking/c-preprocessor.ts";
import {
  BLOCK_MAX_LINES,
  FUNCTION_WINDOW,
  MAX_DEFINITION_LINES,
} from "../../src/indexing/chunking/chunk-bounds.ts";
import { CHUNK_SUMMARY_MAX, FILE_SUMMARY_MAX } from "../../src/indexing/summary.ts";

const chunker = createChunker();

const chunkOf = (file: ChunkedFile, symbol: string): Chunk => {
  const found = file.chunks.find((c) => c.symbol === symbol);
  if (!found) throw new Error(`no chunk for ${symbol}; have ${file.chunks.map((c) => c.symbol).join(", ")}`);
  return found;
};

const symbolOf = (file: ChunkedFile, name: string) => {
  const found = file.symbols.find((s) => s.name === name);
  if (!found) throw new Error(`no symbol ${name}; have ${file.symbols.map((s) => s.name).join(", ")}`);
  return found;
};

/** Invariants every chunked file must satisfy. */
const expectWellFormed = (file: ChunkedFile, content: string): void => {
  const lines = content.split("\n");
  const covered = new Set<number>();
  let previousStart = 0;
  for (const chunk of file.chunks) {
    expect(chunk.startLine).toBeGreaterThanOrEqual(1);
    expect(chunk.endLine).toBeGreaterThanOrEqual(chunk.startLine);
    expect(chunk.endLine).toBeLessThanOrEqual(lines.length);
    expect(chunk.startLine).toBeGreaterThanOrEqual(previousStart);
    previousStart = chunk.startLine;
    expect(chunk.text).toBe(lines.slice(chunk.startLine - 1, chunk.endLine).join("\n"));
    expect(chunk.summary.length).toBeGreaterThan(0);
    expect(chunk.summary.length).toBeLessThanOrEqual(CHUNK_SUMMARY_MAX);
    for (let line = chunk.startLine; line <= chunk.endLine; line++) covered.add(line);
  }
  lines.forEach((line, i) => {
    if (line.trim()) expect(covered.has(i + 1), `line ${i + 1} ${JSON.stringify(line)} is in no chunk`).toBe(true);
  });
  expect(file.summary.length).toBeLessThanOrEqual(FILE_SUMMARY_MAX);
};

const chunk = async (path: string, content: string): Promise<ChunkedFile> => {
  const file = await chunker.chunkFile(path, content);
  expectWellFormed(file, content);
  return file;
};

describe("syntax chunking per language", () => {
  it("TypeScript: functions, interfaces, types, enums, decorated classes and arrow constants", async () => {
    const src = `import { readFile } from "node:fs/promises";
import type { Config } from "./config.ts";

export const DEFAULT_PORT = 8080;

/**
 * Loads the configuration file.
 * @param path where the file lives
 */
export async function loadConfig(path: string): Promise<Config> {
  const text = await readFile(path, "utf8");
  return JSON.parse(text) as Config;
}

/** A user repository. */
export interface Repository {
  id: string;
  name: string;
  find(id: string): Promise<unknown>;
}

export type Handler = (req: Request) => Promise<Response>;

export enum Color {
  Red,
  Green,
}

/** Serves HTTP. */
@Injectable()
export class Server extends Base {
  private port = 0;

  constructor(private readonly config: Config) {
    super();
  }

  /** Starts listening. */
  @Log()
  async start(port: number): Promise<void> {
    this.port = port;
    console.log("listening");
  }
}

export const handler: Handler = async (req) => {
  return new Response("ok");
};
`;
    const file = await chunk("src/server.ts", src);
    expect(file.language).toBe("typescript");
    expect(file.parseError).toBeUndefined();

    const head = file.chunks[0]!;
    expect(head).toMatchObject({ kind: "block", startLine: 1, endLine: 4, symbol: null });
    expect(head.summary).toContain("node:fs/promises");
    expect(head.summary).toContain("DEFAULT_PORT");

    const load = chunkOf(file, "loadConfig");
    expect(load).toMatchObject({ kind: "function", startLine: 6, endLine: 13, parent: null });
    expect(load.signature).toBe("export async function loadConfig(path: string): Promise<Config>");
    expect(load.doc).toContain("Loads the configuration file.");
    expect(load.summary).toBe("Function `loadConfig(path: string): Promise<Config>`: Loads the configuration file.");

    expect(chunkOf(file, "Repository")).toMatchObject({ kind: "interface", startLine: 15, endLine: 20, doc: "A user repository." });
    expect(symbolOf(file, "find")).toMatchObject({ kind: "method", parent: "Repository" });
    expect(symbolOf(file, "Handler")).toMatchObject({ kind: "type", startLine: 22, endLine: 22 });
    expect(chunkOf(file, "Color")).toMatchObject({ kind: "enum", startLine: 24, endLine: 27 });

    // The class range starts at its doc comment and includes the decorator.
    const server = chunkOf(file, "Server");
    expect(server).toMatchObject({ kind: "class", startLine: 29, endLine: 44, doc: "Serves HTTP." });
    expect(server.signature).toBe("export class Server extends Base");
    expect(server.text).toContain("@Injectable()");
    // The method's range includes its decorator and JSDoc (siblings in the class body).
    expect(symbolOf(file, "start")).toMatchObject({ kind: "method", parent: "Server", startLine: 38, endLine: 43 });
    expect(symbolOf(file, "constructor")).toMatchObject({ kind: "method", parent: "Server" });

    expect(chunkOf(file, "handler")).toMatchObject({ kind: "function", startLine: 46, endLine: 48 });
    expect(file.summary).toContain("TypeScript source file defining");
    expect(file.summary).toMatch(/class Server/);
    expect(file.summary).toMatch(/functions loadConfig, handler/);
  });

  it("TSX and JSX components", async () => {
    const tsx = await chunk(
      "ui/Card.tsx",
      `import React from "react";

type Props = { title: string; children?: React.ReactNode };

/** A card with a title. */
export function Card({ title, children }: Props) {
  return (
    <div className="card">
      <h2>{title}</h2>
      {children}
    </div>
  );
}
`,
    );
    expect(tsx.language).toBe("tsx");
    expect(chunkOf(tsx, "Card")).toMatchObject({ kind: "function", startLine: 5, endLine: 13, doc: "A card with a title." });
    expect(chunkOf(tsx, "Card").signature).toBe("export function Card({ title, children }: Props)");

    const jsx = await chunk(
      "ui/Button.jsx",
      `import React from "react";

/** Shows a button. */
export default function Button({ label }) {
  const text = label.toUpperCase();
  return <button>{text}</button>;
}
`,
    );
    expect(jsx.language).toBe("javascript");
    expect(chunkOf(jsx, "Button")).toMatchObject({ kind: "function", startLine: 3, endLine: 7, doc: "Shows a button." });
  });

  it("JavaScript (CommonJS): classes with private fields, generators, module.exports", async () => {
    const file = await chunk(
      "lib/queue.cjs",
      `"use strict";
const { EventEmitter } = require("node:events");

/** A FIFO queue that emits "drain". */
class Queue extends EventEmitter {
  #items = [];

  /** Adds an item. */
  push(item) {
    this.#items.push(item);
    return this;
  }

  static of(...items) {
    const q = new Queue();
    for (const item of items) q.push(item);
    return q;
  }
}

function* drain(queue) {
  while (queue.size) {
    yield queue.shift();
  }
}

module.exports = { Queue, drain };
`,
    );
    expect(file.language).toBe("javascript");
    expect(chunkOf(file, "Queue")).toMatchObject({ kind: "class", startLine: 4, endLine: 19, doc: 'A FIFO queue that emits "drain".' });
    expect(symbolOf(file, "push")).toMatchObject({ kind: "method", parent: "Queue", startLine: 8, endLine: 12 });
    expect(symbolOf(file, "of")).toMatchObject({ kind: "method", parent: "Queue" });
    expect(chunkOf(file, "drain")).toMatchObject({ kind: "function", startLine: 21, endLine: 25, signature: "function* drain(queue)" });
    expect(file.chunks[0]!.summary).toContain("node:events");
  });

  it("JavaScript and TypeScript: a long class's fields holding functions are its methods (they were read as loose lines)", async () => {
    const body = Array.from({ length: 70 }, (_, i) => `    total += ${i};`).join("\n");
    const source = (typed: boolean) => `export class Store {
  count${typed ? ": number" : ""} = 0;

  ${typed ? "private readonly " : ""}handle = async (event${typed ? ": Event" : ""}) => {
${body}
    return total;
  };

  ${typed ? "public " : ""}onChange = function (value${typed ? ": string" : ""}) {
${body}
    return value;
  };

  save(event${typed ? ": Event" : ""}) {
${body}
    return event;
  }
}
`;
    for (const path of ["src/store.js", "src/store.ts"]) {
      const file = await chunk(path, source(path.endsWith(".ts")));
      expect(chunkOf(file, "handle")).toMatchObject({ kind: "method", parent: "Store", startLine: 4, endLine: 76 });
      expect(chunkOf(file, "onChange")).toMatchObject({ kind: "method", parent: "Store", startLine: 78, endLine: 150 });
      expect(chunkOf(file, "save")).toMatchObject({ kind: "method", parent: "Store" });
      expect(file.symbols.some((s) => s.name === "count")).toBe(false);
    }
  });

  it("Go, Rust and C++: a function literal bound to a name is a function of that name (it was a variable, or no definition at all)", async () => {
    const body = (line: (i: number) => string) => Array.from({ length: 6 }, (_, i) => line(i)).join("\n");
    const go = await chunk("server/routes.go", `package server

var handler = func(w Writer, r *Request) error {
${body((i) => `\tw.Write(${i})`)}
\treturn nil
}

var (
\tparse = func(text string) int {
${body((i) => `\t\ttext += "${i}"`)}
\t\treturn len(text)
\t}
)
`);
    expect(chunkOf(go, "handler")).toMatchObject({ kind: "function", startLine: 3, endLine: 11 });
    expect(chunkOf(go, "parse")).toMatchObject({ kind: "function", startLine: 13, endLine: 23 });
    const rs = await chunk("src/hooks.rs", `static HANDLER: fn(i32) -> i32 = |x| {
    let mut y = x;
${body((i) => `    y += ${i};`)}
    y
};
`);
    expect(chunkOf(rs, "HANDLER")).toMatchObject({ kind: "function", startLine: 1, endLine: 10 });
    const cpp = await chunk("src/text.cpp", `#include <string>

namespace text {
auto trim = [](const std::string& s) {
    int from = 0;
${body((i) => `    from += ${i};`)}
    return s.substr(from);
};

int limit(int x) {
${body((i) => `    x += ${i};`)}
    return x;
}
}
`);
    expect(chunkOf(cpp, "trim")).toMatchObject({ kind: "function", parent: "text", startLine: 4, endLine: 13 });
    expect(chunkOf(cpp, "limit")).toMatchObject({ kind: "function", parent: "text" });
  });

  it("Java: a long class's field holding a lambda is a method of the class (it was part of the class's header)", async () => {
    const body = Array.from({ length: 70 }, (_, i) => `        total += ${i};`).join("\n");
    const file = await chunk("src/main/java/x/Sizes.java", `package x;

class Sizes {
    private int count = 0;

    static final Comparator<String> BY_LENGTH = (a, b) -> {
        int total = 0;
${body}
        return a.length() - b.length();
    };

    int size(String s) {
        int total = 0;
${body}
        return total;
    }
}
`);
    expect(chunkOf(file, "BY_LENGTH")).toMatchObject({ kind: "method", parent: "Sizes", startLine: 6, endLine: 79 });
    expect(chunkOf(file, "size")).toMatchObject({ kind: "method", parent: "Sizes" });
    expect(file.symbols.some((s) => s.name === "count")).toBe(false);
  });

  it("JavaScript: functions assigned to properties are methods of their object", async () => {
    const src = [
      "'use strict';",
      "var res = Object.create(http.ServerResponse.prototype);",
      "",
      "/**",
      " * Set cookie `name` to `value`.",
      " */",
      "res.cookie = function (name, value, options) {",
      "  var opts = { ...options };",
      "  if (opts.signed) value = sign(value, this.req.secret);",
      "  return this.append('Set-Cookie', value);",
      "};",
      "",
      "View.prototype.lookup = function lookup(name) {",
      "  return resolve(this.root, name);",
      "};",
      "",
      "exports.compileTrust = (val) => val;",
      "",
      "module.exports = function createApplication() {",
      "  return app;",
      "};",
      "",
    ].join("\n");
    const file = await chunker.chunkFile("lib/response.js", src);
    expectWellFormed(file, src);
    expect(symbolOf(file, "cookie")).toMatchObject({ kind: "method", parent: "res", startLine: 4, endLine: 11 });
    expect(symbolOf(file, "lookup")).toMatchObject({ kind: "method", parent: "View", startLine: 13, endLine: 15 });
    expect(symbolOf(file, "compileTrust")).toMatchObject({ kind: "function", parent: null });
    expect(symbolOf(file, "createApplication")).toMatchObject({ kind: "function", startLine: 19, endLine: 21 });
  });

  it("JavaScript: an object literal with methods is a container of its methods, however long", async () => {
    // A CommonJS module exporting one object of accessors and methods (Koa's request and response):
    // it was cut into 80-line windows and none of its methods was a definition.
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `    this.state.step${i} = this.state.step${i} || ${i}`).join("\n");
    const src = [
      "'use strict'",
      "",
      "module.exports = {",
      "  /**",
      "   * Set the response body and, from it, the default content type.",
      "   */",
      "  set body (val) {",
      "    this._body = val",
      filler(70),
      "    this.type = typeof val === 'string' ? 'text' : 'json'",
      "  },",
      "",
      "  get body () {",
      "    return this._body",
      "  },",
      "",
      "  redirect: function (url) {",
      filler(70),
      "    this.set('Location', url)",
      "  },",
      "",
      "  'attachment': (filename) => {",
      filler(30),
      "    return filename",
      "  },",
      "",
      "  /**",
      "   * Return the client's address.",
      "   */",
      "",
      "  get ip () {",
      "    return this.socket.remoteAddress",
      "  },",
      "",
      "  // Section: limits",
      "",
      "  get max () {",
      "    return 10",
      "  },",
      "",
      "  limit: 3",
      "}",
      "",
      "View.prototype = {",
      "  render (options) {",
      filler(50),
      "    return options",
      "  }",
      "}",
      "",
      "export default {",
      "  install (app) {",
      filler(50),
      "    return app",
      "  }",
      "}",
      "",
      "// Data, and data that carries a helper, are no container.",
      "const LIMITS = { small: 1, large: 2 }",
      "const locale = { name: 'en', months: 'January_February'.split('_'), weekStart: 1, ordinal: (n) => `${n}th` }",
      "",
    ].join("\n");
    const file = await chunker.chunkFile("lib/response.js", src);
    expectWellFormed(file, src);
    expect(symbolOf(file, "module.exports")).toMatchObject({ kind: "class", startLine: 3 });
    const setter = file.symbols.find((s) => s.name === "body" && s.startLine === 4);
    expect(setter).toMatchObject({ kind: "method", parent: "module.exports", endLine: 80 });
    // A long object's methods are chunks of their own, the setter with its doc comment.
    expect(file.chunks.find((c) => c.symbol === "body" && c.startLine === 4)).toMatchObject({ kind: "method", parent: "module.exports", doc: "Set the response body and, from it, the default content type." });
    expect(chunkOf(file, "redirect")).toMatchObject({ kind: "method", parent: "module.exports", startLine: 86, endLine: 89 + 69 });
    expect(symbolOf(file, "attachment")).toMatchObject({ kind: "method", parent: "module.exports" });
    // A doc block documents the member after it across a blank line (JSDoc's reading); a line comment does not.
    expect(symbolOf(file, "ip")).toMatchObject({ kind: "method", startLine: 194, endLine: 200 });
    expect(symbolOf(file, "max")).toMatchObject({ kind: "method", startLine: 204 });
    expect(symbolOf(file, "render")).toMatchObject({ kind: "method", parent: "View" });
    expect(symbolOf(file, "install")).toMatchObject({ kind: "method", parent: "default" });
    expect(file.symbols.find((s) => s.name === "LIMITS")?.kind).not.toBe("class");
    expect(file.symbols.find((s) => s.name === "locale")?.kind).not.toBe("class");
    expect(file.symbols.map((s) => s.name)).not.toContain("ordinal");
    expect(file.symbols.map((s) => s.name)).not.toContain("limit");
  });

  it("Python: docstrings, decorators, methods, module docstring", async () => {
    const src = `"""Tiny expression parser."""
import re
from dataclasses import dataclass

TOKEN = re.compile(r"\\s*(\\d+|.)")


@dataclass
class Node:
    """A parse tree node."""

    kind: str
    value: str


class Parser:
    """Recursive-descent parser.

    Longer description here.
    """

    def __init__(self, text: str) -> None:
        self.tokens = TOKEN.findall(text)
        self.pos = 0

    @property
    def done(self) -> bool:
        """True at the end of input."""
        return self.pos >= len(self.tokens)

    def parse(self, text: str) -> Node:
        """Parse text into a Node. Raises on bad input."""
        if not text:
            raise ValueError("empty")
        return Node("num", text)


async def fetch(url: str, *, timeout: float = 1.0) -> bytes:
    # Comment before the body is not part of the signature.
    return b""
`;
    const file = await chunk("pkg/parser.py", src);
    expect(file.language).toBe("python");
    const node = chunkOf(file, "Node");
    expect(node).toMatchObject({ kind: "class", startLine: 8, endLine: 13, doc: "A parse tree node." });
    expect(node.text.startsWith("@dataclass")).toBe(true);
    expect(node.signature).toBe("class Node:");

    const parser = chunkOf(file, "Parser");
    expect(parser).toMatchObject({ kind: "class", startLine: 16, endLine: 35 });
    expect(parser.doc).toBe("Recursive-descent parser.\n\nLonger description here.");

    expect(symbolOf(file, "__init__")).toMatchObject({ kind: "method", parent: "Parser", startLine: 22, endLine: 24 });
    expect(symbolOf(file, "done")).toMatchObject({ kind: "method", parent: "Parser", startLine: 26, endLine: 29 });
    expect(symbolOf(file, "parse")).toMatchObject({ kind: "method", parent: "Parser", startLine: 31, endLine: 35 });

    const fetch = chunkOf(file, "fetch");
    expect(fetch).toMatchObject({ kind: "function", startLine: 38, endLine: 40, parent: null });
    expect(fetch.signature).toBe("async def fetch(url: str, *, timeout: float = 1.0) -> bytes:");
    expect(fetch.summary).toBe("Function `fetch(url: str, *, timeout: float = 1.0) -> bytes`");

    expect(file.summary).toBe("Python module defining classes Node, Parser; function fetch; constant/variable TOKEN; 3 methods. Tiny expression parser.");
  });

  it("Go: package comment, receivers as parents, doc comments, struct types", async () => {
    const src = `// Package store keeps things.
package store

import (
	"errors"
	"fmt"
)

// ErrNotFound is returned when nothing matches.
var ErrNotFound = errors.New("not found")

// Store holds items.
type Store struct {
	items map[string]string
}

// Get returns the item with the given key.
// It fails with ErrNotFound.
func (s *Store) Get(key string) (string, error) {
	v, ok := s.items[key]
	if !ok {
		return "", fmt.Errorf("get %q: %w", key, ErrNotFound)
	}
	return v, nil
}

// New makes a store.
func New() *Store {
	return &Store{items: map[string]string{}}
}
`;
    const file = await chunk("store/store.go", src);
    expect(file.chunks[0]!.summary).toContain("imports errors, fmt");
    expect(chunkOf(file, "Store")).toMatchObject({ kind: "class", startLine: 12, endLine: 15, doc: "Store holds items." });
    expect(chunkOf(file, "Store").summary).toBe("Struct `Store`: Store holds items.");
    const get = chunkOf(file, "Get");
    expect(get).toMatchObject({ kind: "method", parent: "Store", startLine: 17, endLine: 25 });
    expect(get.signature).toBe("func (s *Store) Get(key string) (string, error)");
    expect(get.doc).toBe("Get returns the item with the given key.\nIt fails with ErrNotFound.");
    expect(chunkOf(file, "New")).toMatchObject({ kind: "function", parent: null, signature: "func New() *Store" });
    expect(symbolOf(file, "ErrNotFound")).toMatchObject({ kind: "variable", startLine: 9, endLine: 10 });
    expect(file.summary).toMatch(/^Go source file defining struct Store; function New; .*Package store keeps things\.$/);
  });

  it("C: a conditional inside an initializer or a parameter list does not turn the file into one error; a macro-shaped return type stays a type", async () => {
    // Without reading these directives as blank, the grammar reads the whole file as one error and it is
    // cut into line windows that name no function.
    const file = await chunk(
      "src/unix/core.c",
      `#include <unistd.h>

int uv_os_tmpdir(char* buffer, size_t* size) {
  const char* buf = getenv("TMPDIR");
  if (buf == NULL)
    buf = "/tmp";
  return copy_out(buf, buffer, size);
}

unsigned int uv_available_parallelism(void) {
  long rc = -1;
  int nprocs;
  size_t len = sizeof(nprocs);
  static int mib[][2] = {
# ifdef HW_NCPUONLINE
    { CTL_HW, HW_NCPUONLINE },
# endif
    { CTL_HW, HW_NCPU }
  };

  if (0 == sysctl(mib[0], 2, &nprocs, &len, NULL, 0))
    rc = nprocs;
  return rc < 1 ? 1 : (unsigned) rc;
}

static int open_cloexec(const char* path,
#if defined(O_CLOEXEC)
                        int extra_flags,
#endif
                        int mode) {
  return open(path, mode);
}

int uv_os_homedir(char* buffer, size_t* size) {
  return uv_os_getenv("HOME", buffer, size);
}

/* A return type written like a macro stays a type (GNU style puts a space before the parenthesis). */
YY_BUFFER_STATE yy_create_buffer (FILE* file, int size) {
  return yy_new_buffer(file, size);
}

static YY_BUFFER_STATE yy_copy_buffer (YY_BUFFER_STATE from) {
  return yy_new_buffer(from->file, from->size);
}
`,
    );
    expect(file.chunks.map((c) => c.kind)).not.toContain("lines");
    expect(symbolOf(file, "uv_os_tmpdir")).toMatchObject({ kind: "function", startLine: 3, endLine: 8 });
    expect(symbolOf(file, "uv_available_parallelism")).toMatchObject({ kind: "function", startLine: 10, endLine: 24 });
    expect(symbolOf(file, "open_cloexec")).toMatchObject({ kind: "function", startLine: 26, endLine: 32 });
    expect(symbolOf(file, "uv_os_homedir")).toMatchObject({ kind: "function", startLine: 34, endLine: 36 });
    expect(symbolOf(file, "yy_create_buffer")).toMatchObject({ kind: "function", startLine: 38, endLine: 41 });
    expect(symbolOf(file, "yy_copy_buffer")).toMatchObject({ kind: "function", startLine: 43, endLine: 45 });
    // The chunks keep the file's own text.
    expect(file.chunks.some((c) => c.text.includes("# ifdef HW_NCPUONLINE"))).toBe(true);
  });

  it("C: a conditional the grammar cannot place (a function's header split by #ifdef, autoconf's alloca lines) leaves the functions it wraps in an error definitions (jq src/main.c, src/util.c)", async () => {
    // The grammar reads everything after such a conditional as one error, inside which it still parses
    // each function whole; before, most of the file being an error, it was cut into line windows.
    const body = Array.from({ length: 40 }, (_, i) => `  if (argc > ${i}) total += parse_option(argv[${i}], ${i});`).join("\n");
    const content = `#include <stdio.h>
#ifdef HAVE_ALLOCA_H
# include <alloca.h>
#elif !defined alloca
# ifdef __GNUC__
#  define alloca __builtin_alloca
# elif !defined HAVE_ALLOCA
#  ifdef  __cplusplus
extern "C"
#  endif
void *alloca (size_t);
# endif
#endif

static int parse_option(const char *text, int at) {
  return text[0] == '-' ? at : 0;
}

#ifdef WIN32
int umain(int argc, char* argv[]);

int wmain(int argc, wchar_t* wargv[]) {
  char **argv = alloca(argc * sizeof(wchar_t*));
  return umain(argc, argv);
}

int umain(int argc, char* argv[]) {
#else /*}*/
int main(int argc, char* argv[]) {
#endif
  int total = 0;
${body}
  return total;
}
`;
    const file = await chunk("src/main.c", content);
    expect(file.parseError ?? null).toBeNull();
    expect(file.chunks.map((c) => c.kind)).not.toContain("lines");
    expect(symbolOf(file, "parse_option")).toMatchObject({ kind: "function", startLine: 15, endLine: 17 });
    expect(symbolOf(file, "wmain")).toMatchObject({ kind: "function", startLine: 22, endLine: 25 });
    const main = symbolOf(file, "main");
    expect(main).toMatchObject({ kind: "function", startLine: 29 });
    expect(main.endLine).toBe(content.split("\n").length - 1);
    // The chunks keep the file's own text, the directives included.
    expect(file.chunks.some((c) => c.text.includes("#else /*}*/"))).toBe(true);
  });

  it("C++: a conditional opening a constructor's member initializer list leaves the class whole (leveldb util/env_windows.cc)", async () => {
    // Without reading these directives as blank, the grammar lost the constructor (and in the whole file
    // read Limiter and the rest of the namespace as the return type of the function after them).
    const file = await chunk(
      "util/env_windows.cc",
      `namespace {

class Limiter {
 public:
  Limiter(int max_acquires)
      :
#if !defined(NDEBUG)
        max_acquires_(max_acquires),
#endif  // !defined(NDEBUG)
        acquires_allowed_(max_acquires) {
    assert(max_acquires >= 0);
  }

  bool Acquire() { return acquires_allowed_-- > 0; }

 private:
  int acquires_allowed_;
};

class Other {
 public:
  Other(int n) : n_(n) {}
  int n_;
};

}  // namespace

void EnvWindowsTestHelper::SetReadOnlyMMapLimit(int limit) {
  g_mmap_limit = limit;
}
`,
    );
    expect(symbolOf(file, "Limiter")).toMatchObject({ kind: "class", startLine: 3, endLine: 18 });
    // The constructor, its initializer list's conditional read as blank.
    expect(file.symbols.find((s) => s.name === "Limiter" && s.parent === "Limiter")).toMatchObject({ startLine: 5, endLine: 12 });
    expect(symbolOf(file, "Acquire")).toMatchObject({ parent: "Limiter", startLine: 14 });
    expect(symbolOf(file, "Other")).toMatchObject({ kind: "class", startLine: 20, endLine: 24 });
    expect(symbolOf(file, "SetReadOnlyMMapLimit")).toMatchObject({ startLine: 28, endLine: 30 });
  });

  it("C and C++: a macro alone on a line does not swallow what follows", async () => {
    // A library's namespace opened by a macro on its own line, then a namespace: the grammar reads the
    // macro as a return type and the rest of the file as one function named `namespace detail`.
    const header = await chunk(
      "include/lib/detail/escape.hpp",
      `#pragma once

#include <string>

LIB_NAMESPACE_BEGIN
namespace detail
{

// Escapes a string's quotes and backslashes.
inline std::string escape(const std::string& s)
{
    std::string out;
    for (char c : s)
    {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

LIB_HEDLEY_NON_NULL(1)
inline int hex_value(const char* p)
{
    int v = 0;
    for (; *p; ++p) v = v * 16 + (*p & 15);
    return v;
}

enum class token_state
{
    start,
    escaped,
    STATE_MAX
};

}  // namespace detail
LIB_NAMESPACE_END
`,
    );
    expect(header.chunks.map((c) => c.symbol)).not.toContain("namespace detail");
    expect(chunkOf(header, "escape")).toMatchObject({ kind: "function", startLine: 9, endLine: 19, doc: "Escapes a string's quotes and backslashes." });
    expect(chunkOf(header, "hex_value")).toMatchObject({ kind: "function", endLine: 27 });
    // A lone capitalised name that ends a list is code: the enum keeps its last constant.
    expect(symbolOf(header, "token_state")).toMatchObject({ startLine: 29, endLine: 34 });
  });

  it("C++: an access specifier written as a macro, and a macro opening a block, keep the class whole", async () => {
    // `LIB_PRIVATE_UNLESS_TESTED:` read as a bit-field swallowed the method after it and closed the class
    // early; `LIB_TRY` then `{` right after a block's `{` was read as an initializer's entry.
    const header = await chunk(
      "include/lib/printer.hpp",
      `#pragma once

namespace lib
{
class printer
{
  public:
    explicit printer(int width) : width_(width) {}

    void print(const char* s)
    {
        if (s != nullptr)
        {
            LIB_TRY
            {
                write_escaped(s);
            }
            LIB_CATCH (...)
            {
                width_ = 0;
            }
        }
    }

  LIB_PRIVATE_UNLESS_TESTED:
    // Escapes quotes and backslashes.
    void write_escaped(const char* s)
    {
        for (; *s; ++s)
        {
            if (*s == '"' || *s == '\\\\') put('\\\\');
            put(*s);
        }
    }

  private:
    void put(char c) { last_ = c; }

    int width_;
    char last_ = 0;
};
}  // namespace lib
`,
    );
    expect(symbolOf(header, "printer")).toMatchObject({ kind: "class", startLine: 5, endLine: 41 });
    expect(symbolOf(header, "print")).toMatchObject({ kind: "method", endLine: 23 });
    expect(symbolOf(header, "write_escaped")).toMatchObject({ kind: "method", endLine: 34 });
    expect(symbolOf(header, "put")).toMatchObject({ kind: "method", startLine: 37, endLine: 37 });
    // Qt's access specifiers read the same way; a ternary's branch ending a line stays code.
    expect(blankForGrammar("public slots:\n  Q_SIGNALS:\nint x = a ?\n    LIB_ONE:\n    LIB_TWO;")).toBe("public      :\n            \nint x = a ?\n    LIB_ONE:\n    LIB_TWO;");
  });

  it("C++: a template's parameters keep their capitalised names while the macros after them read as blank", () => {
    const line = "template <int N = LIB_MAX_SIZE, bool IS_SIGNED> LIB_CONSTEXPR int capacity_of(int used) {";
    expect(blankDeclarationMacros(line)).toBe("template <int N = LIB_MAX_SIZE, bool IS_SIGNED> " + " ".repeat("LIB_CONSTEXPR".length) + " int capacity_of(int used) {");
    // Same length: every offset and row of the file stays.
    expect(blankDeclarationMacros(line)).toHaveLength(line.length);
  });

  it("C and C++: export and inline macros in a declaration's line do not hide the class or the method's owner", async () => {
    // `class LIB_API logger` reads as a function named `logger` whose body is the class, and
    // `void LIB_INLINE pool::post(...)` as a method of `LIB_INLINEpool`, unless the macros are read as blank.
    const header = await chunk(
      "include/lib/logger.hpp",
      `#pragma once

namespace lib {

class LIB_API logger final : public sink {
public:
    // Writes one message.
    void log(const char* msg) {
        write(msg);
        flush();
    }

    int level() const {
        return level_;
    }

private:
    int level_ = 0;
};

LIB_INLINE pool::pool(int threads) {
    start(threads);
}

LIB_INLINE pool::~pool() {
    stop();
}

void LIB_INLINE pool::post(int item) {
    queue_.push(item);
    notify();
}

LIB_NODISCARD LIB_CONSTEXPR int pool_size(int threads) {
    return threads * 2;
}

// A type written in capitals keeps its place: the declaration stays whole only with it.
static LIB_COUNT_T counter;

}  // namespace lib
`,
    );
    expect(chunkOf(header, "logger")).toMatchObject({ kind: "class", startLine: 5, endLine: 19 });
    expect(symbolOf(header, "log")).toMatchObject({ kind: "method", parent: "logger", startLine: 7, endLine: 11 });
    expect(symbolOf(header, "~pool")).toMatchObject({ kind: "method", parent: "pool", startLine: 25, endLine: 27 });
    expect(chunkOf(header, "post")).toMatchObject({ kind: "method", parent: "pool", startLine: 29, endLine: 32 });
    expect(symbolOf(header, "pool_size")).toMatchObject({ kind: "function", parent: "lib", startLine: 34, endLine: 36 });
    expect(header.chunks.map((c) => c.parent)).not.toContain("LIB_INLINEpool");
    // The chunks keep the file's own text.
    expect(chunkOf(header, "post").text).toContain("void LIB_INLINE pool::post(int item) {");
  });

  it("Java: annotations, Javadoc, constructors and methods", async () => {
    const file = await chunk(
      "src/main/java/com/example/AccountService.java",
      `package com.example;

import java.util.List;

/**
 * Keeps accounts.
 */
@Service
public class AccountService {
    private final List<String> accounts;

    /** Creates the service. */
    public AccountService(List<String> accounts) {
        this.accounts = accounts;
    }

    /**
     * Counts accounts.
     * @return the count
     */
    @Override
    public int count() {
        return accounts.size();
    }
}
`,
    );
    const service = chunkOf(file, "AccountService");
    expect(service).toMatchObject({ kind: "class", startLine: 5, endLine: 25, doc: "Keeps accounts.", signature: "public class AccountService" });
    expect(file.symbols.filter((s) => s.parent === "AccountService").map((s) => [s.name, s.kind, s.startLine, s.endLine])).toEqual([
      ["AccountService", "method", 12, 15],
      ["count", "method", 17, 24],
    ]);
  });

  it("Java: an enum's methods after its constants are its members", async () => {
    const constants = Array.from({ length: 30 }, (_, i) => `    /** Policy number ${i}. */\n    POLICY_${i} {\n        @Override public String translate(String name) {\n            return name + "${i}";\n        }\n    },`).join("\n");
    const file = await chunk(
      "src/main/java/com/example/NamingPolicy.java",
      `package com.example;

/** How field names become JSON names. */
public enum NamingPolicy {
${constants}
    ;

    /** Splits camelCase words with a separator. */
    static String separateCamelCase(String name, char separator) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isUpperCase(c) && out.length() != 0) out.append(separator);
            out.append(c);
        }
        return out.toString();
    }
}
`,
    );
    expect(chunkOf(file, "separateCamelCase")).toMatchObject({ kind: "method", parent: "NamingPolicy", startLine: 187, endLine: 197, doc: "Splits camelCase words with a separator." });
  });

  it("Rust: doc comments, attributes, impl blocks as parents, traits", async () => {
    const file = await chunk(
      "src/geo.rs",
      `//! Geometry helpers.
use std::fmt;

/// A point in the plane.
#[derive(Debug, Clone)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    /// Distance to the origin.
    pub fn norm(&self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// Shapes have an area.
pub trait Shape {
    fn area(&self) -> f64;
}
`,
    );
    const point = file.chunks.find((c) => c.symbol === "Point" && c.signature === "pub struct Point")!;
    expect(point).toMatchObject({ kind: "class", startLine: 4, endLine: 9, doc: "A point in the plane." });
    expect(point.text).toContain("#[derive(Debug, Clone)]");
    expect(symbolOf(file, "norm")).toMatchObject({ kind: "method", parent: "Point", startLine: 12, endLine: 15 });
    expect(file.chunks.find((c) => c.signature === "impl fmt::Display for Point")?.summary).toBe("Impl fmt::Display for `Point`");
    expect(chunkOf(file, "Shape")).toMatchObject({ kind: "interface", doc: "Shapes have an area." });
    expect(symbolOf(file, "area")).toMatchObject({ kind: "method", parent: "Shape" });
    expect(file.summary).toContain("Geometry helpers.");
  });

  it("C and C++: declarators, structs, typedefs, namespaces, classes", async () => {
    const c = await chunk(
      "src/add.c",
      `#include <stdio.h>

/* Adds two numbers. */
static int add(int a, int b) {
    return a + b;
}

struct point {
    int x;
    int y;
};

typedef struct point point_t;
`,
    );
    expect(chunkOf(c, "add")).toMatchObject({ kind: "function", startLine: 3, endLine: 6, signature: "static int add(int a, int b)", doc: "Adds two numbers." });
    expect(chunkOf(c, "point")).toMatchObject({ kind: "class", startLine: 8, endLine: 11 });
    expect(symbolOf(c, "point_t")).toMatchObject({ kind: "type", startLine: 13 });

    const cpp = await chunk(
      "src/circle.cpp",
      `#include <string>

namespace geo {

/// A circle.
class Circle : public Shape {
 public:
  explicit Circle(double r) : r_(r) {}
  double area() const override {
    return 3.14159 * r_ * r_;
  }
 private:
  double r_;
};

// Computes the perimeter.
double perimeter(const Circle& c) {
  return 2 * 3.14159 * c.radius();
}

int Circle::sides() const { return 0; }

}  // namespace geo
`,
    );
    expect(symbolOf(cpp, "geo")).toMatchObject({ kind: "module" });
    expect(symbolOf(cpp, "Circle")).toMatchObject({ kind: "class", parent: "geo", startLine: 5, endLine: 14 });
    expect(symbolOf(cpp, "area")).toMatchObject({ kind: "method", parent: "Circle", startLine: 9, endLine: 11 });
    expect(symbolOf(cpp, "perimeter")).toMatchObject({ kind: "function", parent: "geo", startLine: 16, endLine: 19 });
    expect(symbolOf(cpp, "sides")).toMatchObject({ kind: "method", parent: "Circle" });
  });

  it("C++: a function returning a reference, a conversion operator and a friend function defined in a class are named definitions (nlohmann/json json_pointer.hpp)", async () => {
    const body = Array.from({ length: 50 }, (_, i) => `        result += ${i};`).join("\n");
    const cpp = await chunk(
      "include/pointer.hpp",
      `class json_pointer {
  public:
    /// @brief the path as a string
    std::string to_string() const
    {
${body}
        return result;
    }

    /// @brief appends a token
    friend json_pointer operator/(const json_pointer& lhs, std::string token)
    {
${body}
        return json_pointer(lhs) /= token;
    }

  private:
    /*!
    @brief create and return a reference to the pointed to value
    */
    template<typename BasicJsonType>
    BasicJsonType& get_and_create(BasicJsonType& j) const
    {
${body}
        return j;
    }

    std::string&& take(std::string&& s)
    {
${body}
        return std::move(s);
    }

    explicit operator bool() const
    {
${body}
        return result != 0;
    }
};

const json_pointer& root_pointer()
{
${body}
    return root;
}
`,
    );
    expect(chunkOf(cpp, "get_and_create")).toMatchObject({ kind: "method", parent: "json_pointer" });
    expect(chunkOf(cpp, "get_and_create").text).toMatch(/^ {4}\/\*!\n {4}@brief create and return/);
    expect(chunkOf(cpp, "take")).toMatchObject({ kind: "method", parent: "json_pointer" });
    expect(chunkOf(cpp, "operator/")).toMatchObject({ kind: "method", parent: "json_pointer", startLine: 59 });
    expect(chunkOf(cpp, "root_pointer")).toMatchObject({ kind: "function" });
    expect(chunkOf(cpp, "operator bool")).toMatchObject({ kind: "method", parent: "json_pointer" });
    expect(cpp.chunks.filter((c) => c.kind === "block" && /get_and_create|take\(|root_pointer|operator\//.test(c.text))).toEqual([]);
  });

  it("C and C++ headers: definitions inside an include guard or #ifdef, a .h written in C++, template classes' out-of-class methods", async () => {
    const header = `#ifndef UTIL_QUEUE_H
#define UTIL_QUEUE_H

#include <stddef.h>

/* Pushes a value. */
static inline int queue_push(struct queue *q, int v) {
    q->items[q->len++] = v;
    return 0;
}

#ifdef QUEUE_DEBUG
static void queue_dump(const struct queue *q) {
    for (size_t i = 0; i < q->len; i++)
        printf("%d\\n", q->items[i]);
}
#endif

#endif
`;
    const c = await chunk("util/queue.h", header);
    expect(c.language).toBe("c");
    expect(chunkOf(c, "queue_push")).toMatchObject({ kind: "function", startLine: 6, endLine: 10, doc: "Pushes a value." });
    // The conditional's directive lines go with the function they govern; the include guard's stay apart.
    expect(chunkOf(c, "queue_dump")).toMatchObject({ kind: "function", startLine: 12, endLine: 17 });
    expect(c.chunks.find((k) => k.startLine === 19)).toMatchObject({ kind: "block", text: "#endif" });

    const cpp = await chunk(
      "db/skiplist.h",
      `#ifndef DB_SKIPLIST_H_
#define DB_SKIPLIST_H_

namespace store {

template <typename Key, class Comparator>
class SkipList {
 public:
  void Insert(const Key& key);

 private:
  int RandomHeight();
};

template <typename Key, class Comparator>
int SkipList<Key, Comparator>::RandomHeight() {
  int height = 1;
  while (height < 12 && rnd_.OneIn(4)) height++;
  return height;
}

template <typename Key, class Comparator>
void SkipList<Key, Comparator>::Insert(const Key& key) {
  int height = RandomHeight();
  Link(key, height);
}

}  // namespace store

#endif  // DB_SKIPLIST_H_
`,
    );
    expect(cpp.language).toBe("cpp");
    expect(symbolOf(cpp, "SkipList")).toMatchObject({ kind: "class", parent: "store" });
    expect(symbolOf(cpp, "RandomHeight")).toMatchObject({ kind: "method", parent: "SkipList", startLine: 15, endLine: 20 });
    expect(symbolOf(cpp, "Insert")).toMatchObject({ kind: "method", parent: "SkipList", startLine: 22, endLine: 26 });
  });

  it("C and C++: a conditional's directive lines join the definition they touch, not a chunk of their own (spdlog logger.h)", async () => {
    const c = await chunk(
      "src/poll.c",
      `#include <stdio.h>

#ifdef _WIN32
int open_thing(const char *path)
{
    return win_open(path);
}
#else
int open_thing(const char *path)
{
    return open(path, 0);
}
#endif

#if defined(HAVE_EPOLL)
static int poll_once(int fd)
{
    return epoll_wait(fd);
}
#endif /* HAVE_EPOLL */

int main(void)
{
    return poll_once(open_thing("x"));
}
`,
    );
    expect(c.chunks.filter((k) => k.symbol === "open_thing").map((k) => [k.startLine, k.endLine])).toEqual([[3, 7], [8, 13]]);
    expect(chunkOf(c, "poll_once")).toMatchObject({ startLine: 15, endLine: 20 });
    expect(chunkOf(c, "main")).toMatchObject({ startLine: 22, endLine: 25 });
    expect(c.chunks.some((k) => /^#/.test(k.text))).toBe(c.chunks.some((k) => k.text.startsWith("#include")));

    // A method of a class cut into its members: the \`#ifdef\` line before it was a one-line chunk that a
    // report naming the macro found first.
    const methods = Array.from({ length: 30 }, (_, i) => `    void step${i}(int n)\n    {\n        total_ += n * ${i};\n        count_++;\n        last_ = n;\n    }\n`).join("\n");
    const cpp = await chunk(
      "include/lib/logger.h",
      `namespace lib {
class logger
{
public:
${methods}
#ifdef LIB_WCHAR_SUPPORT
    template<typename... Args>
    void log_wide(const wchar_t *fmt, Args &&... args)
    {
        wbuf_.clear();
        convert(fmt, wbuf_);
        write(wbuf_, args...);
    }
#endif // LIB_WCHAR_SUPPORT

private:
    int total_ = 0;
    int count_ = 0;
    int last_ = 0;
};
} // namespace lib
`,
    );
    const wide = chunkOf(cpp, "log_wide");
    expect(wide.text.split("\n")[0]).toBe("#ifdef LIB_WCHAR_SUPPORT");
    expect(wide.text.split("\n").at(-1)).toBe("#endif // LIB_WCHAR_SUPPORT");
    expect(cpp.chunks.filter((k) => k.text.trim().startsWith("#"))).toEqual([wide]);
  });

  it("C++: a class, struct, union or enum defined inside a class is a definition, its methods its members (nlohmann/json's iterator_wrapper)", async () => {
    const methods = Array.from({ length: 30 }, (_, i) => `    int m${i}(int n) const\n    {\n        int a = n + ${i};\n        return a * x_;\n    }\n`).join("\n");
    const helpers = Array.from({ length: 35 }, (_, i) => `        int h${i}() const\n        {\n            return v_ + ${i};\n        }\n`).join("\n");
    const content = `namespace lib {
template<typename T>
class outer
{
  public:
    /*!
    @brief wraps an iterator
    */
    class wrapper
    {
      public:
${helpers}
      private:
        int v_;
    };

    struct node
    {
        int a;
        int b;
    };

    union slot
    {
        int i;
        double d;
    };

    enum class mode { fast, slow };

    struct { int x; } anonymous_field;

${methods}
  private:
    int x_;
};
}
`;
    const file = await chunk("include/lib/outer.hpp", content);
    expect(symbolOf(file, "wrapper")).toMatchObject({ kind: "class", parent: "outer" });
    const nodeLine = content.split("\n").indexOf("    struct node") + 1;
    expect(symbolOf(file, "node")).toMatchObject({ kind: "class", parent: "outer", startLine: nodeLine, endLine: nodeLine + 4 });
    expect(symbolOf(file, "slot")).toMatchObject({ kind: "class", parent: "outer" });
    expect(symbolOf(file, "mode")).toMatchObject({ kind: "enum", parent: "outer" });
    // The nested class is long: its header (with its doc) and its methods are chunks of their own.
    expect(chunkOf(file, "wrapper")).toMatchObject({ startLine: 6, doc: expect.stringContaining("wraps an iterator") });
    expect(chunkOf(file, "h12")).toMatchObject({ kind: "method", parent: "wrapper" });
    expect(chunkOf(file, "m3")).toMatchObject({ kind: "method", parent: "outer" });
    expect(file.symbols.some((s) => s.name === "anonymous_field")).toBe(false);
  });

  it("C++: a namespace around the whole file is its scope (its functions are chunks), a small one among other code stays one unit", async () => {
    // A small file wrapped in its library's namespace, with an anonymous namespace around most of it.
    const wrapped = await chunk(
      "util/hash.cc",
      `#include "util/hash.h"

namespace store {
namespace {

// Mixes the bits of a 32-bit word.
uint32_t Mix(uint32_t h) {
  h ^= h >> 16;
  return h * 0x85ebca6b;
}

// Rotates a word left by r bits.
uint32_t Rotate(uint32_t x, int r) {
  return (x << r) | (x >> (32 - r));
}

}  // namespace

// Hashes n bytes of data with a seed.
uint32_t Hash(const char* data, size_t n, uint32_t seed) {
  uint32_t h = seed ^ n;
  for (size_t i = 0; i < n; i++) h = Mix(h + data[i]);
  return h;
}

}  // namespace store
`,
    );
    expect(wrapped.chunks.some((c) => c.kind === "module" && c.symbol === "store" && c.endLine >= 20)).toBe(false);
    expect(chunkOf(wrapped, "Mix")).toMatchObject({ kind: "function", startLine: 6, endLine: 10, doc: "Mixes the bits of a 32-bit word." });
    expect(chunkOf(wrapped, "Rotate")).toMatchObject({ kind: "function", startLine: 12, endLine: 15 });
    expect(chunkOf(wrapped, "Hash")).toMatchObject({ kind: "function", parent: "store", startLine: 19 });

    // A small namespace that groups a few helpers of a larger file stays one unit named after it.
    const helpers = Array.from({ length: 8 }, (_, i) => `int Format${i}(int v) {\n  int out = v * ${i + 2};\n  out += Offset(v);\n  return out;\n}\n`).join("\n");
    const grouped = await chunk(
      "include/fmt/format.h",
      `#include <string>

namespace detail {
inline int Twice(int v) { return v * 2; }
inline int Half(int v) { return v / 2; }
}  // namespace detail

${helpers}`,
    );
    expect(chunkOf(grouped, "detail")).toMatchObject({ kind: "module", startLine: 3, endLine: 6 });
  });

  it("C#: namespaces, XML doc comments, attributes", async () => {
    const file = await chunk(
      "Orders/OrderService.cs",
      `using System;

namespace Shop.Orders
{
    /// <summary>Places orders.</summary>
    public class OrderService : IOrderService
    {
        private readonly IClock clock;

        /// <summary>Places an order now.</summary>
        [HttpPost]
        public async Task<Order> PlaceAsync(Cart cart)
        {
            var order = new Order(cart, clock.Now);
            return order;
        }
    }
}
`,
    );
    expect(symbolOf(file, "OrderService")).toMatchObject({ kind: "class", parent: "Shop.Orders", startLine: 5, endLine: 17 });
    expect(symbolOf(file, "PlaceAsync")).toMatchObject({ kind: "method", parent: "OrderService", startLine: 10, endLine: 16 });
    expect(file.summary).toContain("namespace Shop.Orders");
  });

  it("Ruby and PHP", async () => {
    const rb = await chunk(
      "lib/docs/parser.rb",
      `require "json"

# Parses documents.
module Docs
  # A JSON parser.
  class Parser < Base
    # Parses text.
    def parse(text)
      JSON.parse(text)
    end

    def self.default
      new
    end
  end
end
`,
    );
    expect(chunkOf(rb, "Docs")).toMatchObject({ kind: "module", startLine: 3, endLine: 16, doc: "Parses documents." });
    expect(symbolOf(rb, "Parser")).toMatchObject({ kind: "class", parent: "Docs" });
    expect(symbolOf(rb, "parse")).toMatchObject({ kind: "method", parent: "Parser", startLine: 7, endLine: 10 });
    expect(symbolOf(rb, "default")).toMatchObject({ kind: "method", parent: "Parser" });

    const php = await chunk(
      "app/Http/UserController.php",
      `<?php
namespace App\\Http;

use App\\Models\\User;

/**
 * Handles users.
 */
class UserController extends Controller
{
    /** Shows a user. */
    public function show(int $id): User
    {
        return User::find($id);
    }
}

function helper($x) {
    return $x * 2;
}
`,
    );
    expect(chunkOf(php, "UserController")).toMatchObject({ kind: "class", startLine: 6, endLine: 16, doc: "Handles users." });
    expect(symbolOf(php, "show")).toMatchObject({ kind: "method", parent: "UserController", startLine: 11, endLine: 15 });
    expect(chunkOf(php, "helper")).toMatchObject({ kind: "function", signature: "function helper($x)" });
  });

  it("Kotlin, Swift, Scala, Bash (and Lua by blocks)", async () => {
    const kt = await chunk(
      "app/Greeter.kt",
      `package app

/** Greets people. */
class Greeter(private val name: String) {
    /** Says hello. */
    fun greet(): String {
        return "Hello, $name"
    }
}
`,
    );
    expect(chunkOf(kt, "Greeter")).toMatchObject({ kind: "class", startLine: 3, endLine: 9, doc: "Greets people." });
    expect(symbolOf(kt, "greet")).toMatchObject({ kind: "method", parent: "Greeter" });
    // An extension function is named after its receiver's dot and belongs to the type it extends.
    const ext = await chunk(
      "app/Names.kt",
      `package app

private fun <T> List<TypeName>.toVariableNames(): String {
    return joinToString { it.toVariableName() }
}

fun TypeName?.toVariableName(): String = "x"

fun plain(x: Int) = x
`,
    );
    expect(symbolOf(ext, "toVariableNames")).toMatchObject({ kind: "method", parent: "List", startLine: 3, endLine: 5 });
    expect(symbolOf(ext, "toVariableName")).toMatchObject({ kind: "method", parent: "TypeName" });
    expect(symbolOf(ext, "plain")).toMatchObject({ kind: "function", parent: null });
    expect(ext.symbols.map((s) => s.name)).not.toContain("TypeName");

    const swift = await chunk(
      "Sources/JobQueue.swift",
      `import Foundation

/// A queue of jobs.
struct JobQueue {
    var jobs: [String] = []

    /// Adds a job.
    mutating func push(_ job: String) {
        jobs.append(job)
    }
}
`,
    );
    expect(chunkOf(swift, "JobQueue")).toMatchObject({ kind: "class", doc: "A queue of jobs." });
    expect(chunkOf(swift, "JobQueue").summary).toBe("Struct `JobQueue`: A queue of jobs.");
    expect(symbolOf(swift, "push")).toMatchObject({ kind: "method", parent: "JobQueue" });

    const scala = await chunk("src/Stack.scala", `package app\n\n/** A stack. */\nclass Stack[A] {\n  private var items: List[A] = Nil\n  /** Pushes an item. */\n  def push(a: A): Unit = {\n    items = a :: items\n  }\n}\n`);
    expect(chunkOf(scala, "Stack")).toMatchObject({ kind: "class", doc: "A stack." });
    expect(symbolOf(scala, "push")).toMatchObject({ kind: "method", parent: "Stack" });

    const sh = await chunk("bin/run.sh", `#!/bin/bash\nset -euo pipefail\n\n# Prints usage.\nusage() {\n  echo "usage: x"\n  exit 1\n}\n`);
    expect(chunkOf(sh, "usage")).toMatchObject({ kind: "function", startLine: 4, endLine: 8, doc: "Prints usage." });

    // Lua has no sound grammar here (see languages.ts): chunked by blocks, definitions named.
    const lua = await chunk("lua/m.lua", `local M = {}\n\n-- Adds numbers.\nfunction M.add(a, b)\n  return a + b\nend\n\nreturn M\n`);
    expect(lua.language).toBe("lua");
    expect(lua.parseError).toBeUndefined();
    expect(lua.chunks).toMatchObject([
      { kind: "lines", startLine: 1, endLine: 1 },
      { kind: "function", symbol: "add", parent: "M", startLine: 3, endLine: 6, signature: "function M.add(a, b)" },
      { kind: "lines", startLine: 8, endLine: 8 },
    ]);
  });
});

describe("size bounds", () => {
  const pyMethod = (i: number): string =>
    [
      `    def method_${i}(self, value: int) -> int:`,
      `        """Method number ${i}."""`,
      ...Array.from({ length: 12 }, (_, j) => `        value = value + ${j} * ${i}`),
      `        return value`,
      ``,
    ].join("\n");

  it("splits a large class into a header chunk and its methods", async () => {
    const src = [`class Big:`, `    """A big class."""`, ``, `    LIMIT = 10`, ``, ...Array.from({ length: 40 }, (_, i) => pyMethod(i)), `def after():`, `    return 1`, ``].join("\n");
    const file = await chunk("big.py", src);
    const lines = src.split("\n").length;
    expect(lines).toBeGreaterThan(600);

    const header = file.chunks[0]!;
    expect(header).toMatchObject({ kind: "class", symbol: "Big", startLine: 1, doc: "A big class.", signature: "class Big:" });
    expect(header.endLine).toBeLessThan(6);
    expect(header.text).toContain("LIMIT = 10");

    const methods = file.chunks.filter((c) => c.kind === "method");
    expect(methods).toHaveLength(40);
    methods.forEach((m, i) => {
      expect(m).toMatchObject({ symbol: `method_${i}`, parent: "Big", doc: `Method number ${i}.` });
      expect(m.summary).toBe(`Method \`method_${i}(self, value: int) -> int\` in class \`Big\`: Method number ${i}.`);
    });
    for (const c of file.chunks) expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(MAX_DEFINITION_LINES);
    expect(chunkOf(file, "after")).toMatchObject({ kind: "function", parent: null });
    expect(symbolOf(file, "Big")).toMatchObject({ startLine: 1, endLine: methods[39]!.endLine });
  });

  it("cuts a huge function into line windows that keep its symbol", async () => {
    const body = Array.from({ length: 400 }, (_, i) => `  total += compute(${i}, input);`).join("\n");
    const src = `/** Sums everything. */\nexport function huge(input: number): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
    const file = await chunk("huge.ts", src);
    const parts = file.chunks.filter((c) => c.symbol === "huge");
    expect(parts.length).toBe(Math.ceil(405 / FUNCTION_WINDOW.maxLines));
    expect(file.chunks).toHaveLength(parts.length);
    parts.forEach((p, i) => {
      expect(p.kind).toBe("function");
      expect(p.signature).toBe("export function huge(input: number): number");
      expect(p.endLine - p.startLine + 1).toBeLessThanOrEqual(FUNCTION_WINDOW.maxLines);
      if (i > 0) expect(p.startLine).toBe(parts[i - 1]!.endLine + 1);
      expect(p.summary).toContain(`part ${i + 1}/${parts.length}`);
    });
    expect(parts[0]!.doc).toBe("Sums everything.");
    expect(parts[1]!.doc).toBeNull();
    expect(parts[0]!.startLine).toBe(1);
    expect(parts.at(-1)!.endLine).toBe(405);
  });

  it("merges small top-level siblings into bounded blocks", async () => {
    const src = [
      `import os`,
      `import sys`,
      ``,
      ...Array.from({ length: 10 }, (_, i) => `CONST_${i} = ${i}`),
      ``,
      ...Array.from({ length: 6 }, (_, i) => `def tiny_${i}(x):\n    return x + ${i}\n`),
      `def real_function(a, b):`,
      `    """Does real work."""`,
      `    c = a + b`,
      `    d = c * 2`,
      `    return d`,
      ``,
    ].join("\n");
    const file = await chunk("small.py", src);
    expect(file.chunks).toHaveLength(2);
    const block = file.chunks[0]!;
    expect(block).toMatchObject({ kind: "block", symbol: null, startLine: 1 });
    expect(block.summary).toContain("imports os, sys");
    expect(block.summary).toContain("CONST_0");
    expect(block.text).toContain("def tiny_5(x):");
    expect(block.endLine - block.startLine + 1).toBeLessThanOrEqual(BLOCK_MAX_LINES);
    expect(file.chunks[1]).toMatchObject({ kind: "function", symbol: "real_function" });
    // Merged definitions are still listed as symbols.
    expect(file.symbols.map((s) => s.name)).toContain("tiny_3");
  });

  it("keeps blocks bounded when there are many small statements", async () => {
    const src = Array.from({ length: 500 }, (_, i) => `VALUE_${i} = ${i}`).join("\n") + "\n";
    const file = await chunk("consts.py", src);
    expect(file.chunks.length).toBeGreaterThanOrEqual(Math.ceil(500 / BLOCK_MAX_LINES));
    for (const c of file.chunks) {
      expect(c.kind).toBe("block");
      expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(BLOCK_MAX_LINES);
    }
  });
});

describe("parse failures fall back to line windows", () => {
  it("when syntax errors dominate the file", async () => {
    const junk = Array.from({ length: 50 }, (_, i) => `)))) ${i} ((( }}} ::: @@@ ->`).join("\n");
    const file = await chunk("broken.py", junk);
    expect(file.parseError).toMatch(/syntax errors cover \d+% of the file/);
    expect(file.chunks.every((c) => c.kind === "lines")).toBe(true);
    expect(file.summary).toContain("Chunked by lines");
  });

  it("when parsing exceeds the timeout", async () => {
    const impatient = createChunker({ parseTimeoutMs: 0 });
    const src = Array.from({ length: 3000 }, (_, i) => `def f${i}(x):\n    return x * ${i}\n`).join("\n");
    const file = await impatient.chunkFile("slow.py", src);
    expectWellFormed(file, src);
    expect(file.parseError).toMatch(/timed out/);
    expect(file.chunks[0]).toMatchObject({ kind: "lines", startLine: 1 });
    // The parser recovers for the next file.
    const next = await chunker.chunkFile("ok.py", "def ok():\n    return 1\n");
    expect(next.parseError).toBeUndefined();
  });

  it("keeps syntax chunking for files with a few errors", async () => {
    const src = `def good(a):\n    return a\n\n\ndef broken(:\n    pass\n\n\ndef also_good(b):\n    return b\n`;
    const file = await chunk("partial.py", src);
    expect(file.parseError).toBeUndefined();
    expect(file.symbols.map((s) => s.name)).toEqual(expect.arrayContaining(["good", "also_good"]));
  });
});

describe("text chunking", () => {
  it("markdown by headings, with parent sections and code fences ignored", async () => {
    const src = `---
title: Guide
---
# Loupe

Self-hosted code search.

## Install

Run the installer.

\`\`\`sh
# not a heading
npm i loupe
\`\`\`

## Usage

### CLI

Use \`loupe index\`.

Setext title
------------

Body.
`;
    const file = await chunk("docs/README.md", src);
    expect(file.language).toBe("markdown");
    const titles = file.chunks.map((c) => [c.symbol, c.parent, c.startLine, c.endLine]);
    expect(titles).toEqual([
      [null, null, 1, 3],
      ["Loupe", null, 4, 6],
      ["Install", "Loupe", 8, 15],
      ["CLI", "Usage", 17, 21],
      ["Setext title", "Loupe", 23, 26],
    ]);
    expect(file.chunks.every((c) => c.kind === "section" || c.symbol === null)).toBe(true);
    expect(file.chunks[2]!.summary).toBe('Section "Install" under "Loupe": Run the installer.');
    expect(file.summary).toContain('titled "Loupe"');
    expect(file.summary).toContain("Install");
  });

  it("other text by overlapping line windows", async () => {
    const src = Array.from({ length: 150 }, (_, i) => `key_${i}: value ${i}`).join("\n") + "\n";
    const file = await chunk("config/app.yaml", src);
    expect(file.language).toBe("yaml");
    expect(file.chunks.length).toBeGreaterThanOrEqual(3);
    const [a, b] = file.chunks;
    expect(a).toMatchObject({ kind: "lines", startLine: 1 });
    expect(b!.startLine).toBeLessThanOrEqual(a!.endLine); // overlap
    expect(b!.startLine).toBeGreaterThan(a!.endLine - 10);
    expect(file.summary).toContain("top-level keys: key_0");
  });

  it("unknown extensions are chunked as plain text", async () => {
    const file = await chunk("notes/thing.unknownext", "hello\nworld\n");
    expect(file.language).toBe("text");
    expect(file.chunks).toHaveLength(1);
  });
});

it("exports a chunker version", () => {
  expect(CHUNKER_VERSION).toMatch(/^\d+/);
});
