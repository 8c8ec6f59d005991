import { createRequire } from "node:module";
import path from "node:path";

/**
 * Which language a file is written in, and how to chunk it.
 *
 * Syntax languages carry the wasm grammar to load. Grammars come from @vscode/tree-sitter-wasm when
 * it has the language (newer grammars, e.g. TypeScript `accessor` fields), otherwise from
 * tree-sitter-wasms 0.1.13 (elm, ql and yaml from that package do not load with web-tree-sitter 0.25,
 * so they are not used; its Lua grammar gives order-dependent wrong trees, so Lua is chunked as text).
 */
export type GrammarPackage = "@vscode/tree-sitter-wasm" | "tree-sitter-wasms";

export type GrammarRef = { package: GrammarPackage; file: string };

export type LanguageInfo = {
  /** Stable id stored with chunks, e.g. "typescript", "python", "markdown". */
  id: string;
  /** Display name used in summaries, e.g. "TypeScript". */
  name: string;
  /** syntax: along a tree-sitter parse; script: code with no grammar here, by blocks; text: prose, config, data. */
  chunking: "syntax" | "script" | "text";
  /** Grammar to load (syntax languages only). */
  grammar?: GrammarRef;
};

const vscode = (file: string): GrammarRef => ({ package: "@vscode/tree-sitter-wasm", file });
const wasms = (file: string): GrammarRef => ({ package: "tree-sitter-wasms", file });

type LanguageEntry = LanguageInfo & { extensions: readonly string[]; fileNames?: readonly string[] };

const syntax = (
  id: string,
  name: string,
  grammar: GrammarRef,
  extensions: readonly string[],
  fileNames: readonly string[] = [],
): LanguageEntry => ({ id, name, chunking: "syntax", grammar, extensions, fileNames });

/** A language chunked without a grammar: "text" (prose, config, data) or "script" (code, by blocks). */
const grammarless =
  (chunking: "text" | "script") =>
  (id: string, name: string, extensions: readonly string[], fileNames: readonly string[] = []): LanguageEntry => ({ id, name, chunking, extensions, fileNames });

const text = grammarless("text");

/** Code in a language with no grammar here: chunked by blocks (./script-chunker.ts) and ranked as source. */
const script = grammarless("script");

const ENTRIES: readonly LanguageEntry[] = [
  syntax("typescript", "TypeScript", vscode("tree-sitter-typescript.wasm"), [".ts", ".mts", ".cts"]),
  syntax("tsx", "TSX", vscode("tree-sitter-tsx.wasm"), [".tsx"]),
  // The JavaScript grammar parses JSX too.
  syntax("javascript", "JavaScript", vscode("tree-sitter-javascript.wasm"), [".js", ".jsx", ".mjs", ".cjs"]),
  syntax("python", "Python", vscode("tree-sitter-python.wasm"), [".py", ".pyi", ".pyw"], ["SConstruct", "SConscript"]),
  syntax("go", "Go", vscode("tree-sitter-go.wasm"), [".go"]),
  syntax("java", "Java", vscode("tree-sitter-java.wasm"), [".java"]),
  syntax("rust", "Rust", vscode("tree-sitter-rust.wasm"), [".rs"]),
  syntax("c", "C", wasms("tree-sitter-c.wasm"), [".c", ".h"]),
  syntax("cpp", "C++", vscode("tree-sitter-cpp.wasm"), [".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".inl"]),
  syntax("csharp", "C#", vscode("tree-sitter-c-sharp.wasm"), [".cs", ".csx"]),
  syntax("ruby", "Ruby", vscode("tree-sitter-ruby.wasm"), [".rb", ".rake", ".gemspec", ".ru"], [
    "Rakefile",
    "Gemfile",
    "Guardfile",
    "Vagrantfile",
    "Podfile",
    "Fastfile",
  ]),
  syntax("php", "PHP", vscode("tree-sitter-php.wasm"), [".php", ".phtml"]),
  syntax("bash", "Shell", vscode("tree-sitter-bash.wasm"), [".sh", ".bash", ".zsh", ".ksh"], [".bashrc", ".bash_profile", ".zshrc", ".profile"]),
  syntax("powershell", "PowerShell", vscode("tree-sitter-powershell.wasm"), [".ps1", ".psm1", ".psd1"]),
  syntax("kotlin", "Kotlin", wasms("tree-sitter-kotlin.wasm"), [".kt", ".kts"]),
  syntax("scala", "Scala", wasms("tree-sitter-scala.wasm"), [".scala", ".sc", ".sbt"]),
  syntax("swift", "Swift", wasms("tree-sitter-swift.wasm"), [".swift"]),
  syntax("dart", "Dart", wasms("tree-sitter-dart.wasm"), [".dart"]),
  syntax("elixir", "Elixir", wasms("tree-sitter-elixir.wasm"), [".ex", ".exs"]),
  syntax("ocaml", "OCaml", wasms("tree-sitter-ocaml.wasm"), [".ml"]),
  syntax("zig", "Zig", wasms("tree-sitter-zig.wasm"), [".zig"]),
  syntax("solidity", "Solidity", wasms("tree-sitter-solidity.wasm"), [".sol"]),
  syntax("objc", "Objective-C", wasms("tree-sitter-objc.wasm"), [".m", ".mm"]),
  syntax("elisp", "Emacs Lisp", wasms("tree-sitter-elisp.wasm"), [".el"]),

  // tree-sitter-wasms' Lua grammar mis-parses once another grammar has parsed in the same thread
  // (order-dependent ERROR trees), so Lua is chunked as text until a sound grammar is available.
  script("lua", "Lua", [".lua"]),
  // Programming languages without a grammar here: searchable as code all the same.
  script("perl", "Perl", [".pl", ".pm"]),
  script("r", "R", [".r"]),
  script("julia", "Julia", [".jl"]),
  script("haskell", "Haskell", [".hs", ".lhs"]),
  script("clojure", "Clojure", [".clj", ".cljs", ".cljc"]),
  script("erlang", "Erlang", [".erl", ".hrl"]),
  script("fsharp", "F#", [".fs", ".fsi", ".fsx"]),
  script("vb", "Visual Basic", [".vb", ".bas"]),
  script("groovy", "Groovy", [".groovy", ".gradle"]),
  script("nim", "Nim", [".nim"]),
  script("crystal", "Crystal", [".cr"]),
  script("fortran", "Fortran", [".f90", ".f95", ".f03", ".f08", ".for"]),
  script("pascal", "Pascal", [".pas"]),
  script("ada", "Ada", [".adb", ".ads"]),
  script("tcl", "Tcl", [".tcl"]),
  script("vim", "Vim script", [".vim"], [".vimrc"]),
  script("awk", "AWK", [".awk"]),
  script("fish", "Fish", [".fish"]),
  script("scheme", "Scheme", [".scm", ".ss", ".rkt"]),
  script("lisp", "Common Lisp", [".lisp", ".lsp", ".cl"]),
  script("jq", "jq", [".jq"]),
  script("nix", "Nix", [".nix"]),
  script("starlark", "Starlark", [".bzl", ".star"], ["BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel"]),
  script("meson", "Meson", [], ["meson.build"]),
  script("jsonnet", "Jsonnet", [".jsonnet", ".libsonnet"]),
  script("assembly", "Assembly", [".s", ".asm"]),
  script("cuda", "CUDA", [".cu", ".cuh"]),
  script("shader", "Shader", [".glsl", ".vert", ".frag", ".hlsl", ".wgsl", ".metal"]),
  script("verilog", "Verilog", [".v", ".sv", ".svh", ".vh"]),
  script("vhdl", "VHDL", [".vhd", ".vhdl"]),
  script("haxe", "Haxe", [".hx"]),
  script("elm", "Elm", [".elm"]),
  script("purescript", "PureScript", [".purs"]),
  script("coffeescript", "CoffeeScript", [".coffee"]),
  script("smalltalk", "Smalltalk", [".st"]),
  script("raku", "Raku", [".raku", ".rakumod"]),
  script("gleam", "Gleam", [".gleam"]),
  script("odin", "Odin", [".odin"]),
  script("lean", "Lean", [".lean"]),
  script("idris", "Idris", [".idr"]),
  script("batch", "Batch", [".bat", ".cmd"]),
  script("puppet", "Puppet", [".pp"]),
  // Grammar and scanner sources: the generated parser is skipped (../file-filter.ts), the grammar is the code.
  script("grammar", "Grammar", [".y", ".yy", ".l", ".ll", ".g4", ".peg", ".pest", ".lalrpop", ".jison", ".ne"]),
  script("thrift", "Thrift", [".thrift", ".capnp"]),
  text("markdown", "Markdown", [".md", ".markdown", ".mdx", ".mdown"]),
  text("rst", "reStructuredText", [".rst"]),
  text("text", "Text", [".txt", ".text", ".adoc", ".asciidoc", ".org"], [
    "README",
    "LICENSE",
    "LICENCE",
    "COPYING",
    "NOTICE",
    "AUTHORS",
    "CONTRIBUTORS",
    "CHANGELOG",
    "CHANGES",
    "HISTORY",
    "TODO",
  ]),
  text("json", "JSON", [".json", ".jsonc", ".json5", ".geojson", ".webmanifest"]),
  text("yaml", "YAML", [".yaml", ".yml"]),
  text("toml", "TOML", [".toml"]),
  text("ini", "INI", [".ini", ".cfg", ".conf", ".properties", ".editorconfig"], [".editorconfig", ".gitconfig", "setup.cfg"]),
  text("xml", "XML", [".xml", ".xsd", ".xsl", ".plist", ".csproj", ".fsproj", ".vbproj", ".props", ".targets", ".svg"]),
  text("html", "HTML", [".html", ".htm", ".xhtml", ".vue", ".svelte", ".astro", ".hbs", ".handlebars", ".mustache", ".ejs", ".erb", ".jinja", ".j2"]),
  text("css", "CSS", [".css", ".scss", ".sass", ".less", ".styl"]),
  text("sql", "SQL", [".sql", ".psql", ".ddl"]),
  text("graphql", "GraphQL", [".graphql", ".gql"]),
  text("protobuf", "Protocol Buffers", [".proto"]),
  text("terraform", "Terraform", [".tf", ".tfvars", ".hcl"]),
  text("dockerfile", "Dockerfile", [".dockerfile"], ["Dockerfile", "Containerfile"]),
  text("makefile", "Makefile", [".mk", ".mak"], ["Makefile", "makefile", "GNUmakefile"]),
  text("cmake", "CMake", [".cmake"], ["CMakeLists.txt"]),
  text("csv", "CSV", [".csv", ".tsv"]),
  text("dotenv", "Environment file", [".env.example", ".env.sample"], [".env.example", ".env.sample"]),
  text("ignore", "Ignore file", [], [".gitignore", ".dockerignore", ".npmignore", ".gitattributes", ".prettierignore", ".eslintignore"]),
];

const byExtension = new Map<string, LanguageEntry>();
const byFileName = new Map<string, LanguageEntry>();
for (const entry of ENTRIES) {
  for (const ext of entry.extensions) byExtension.set(ext, entry);
  for (const name of entry.fileNames ?? []) byFileName.set(name, entry);
}

const toInfo = (entry: LanguageEntry): LanguageInfo =>
  entry.grammar
    ? { id: entry.id, name: entry.name, chunking: entry.chunking, grammar: entry.grammar }
    : { id: entry.id, name: entry.name, chunking: entry.chunking };

/** Every known language (one entry per id). */
export const LANGUAGES: readonly LanguageInfo[] = ENTRIES.map(toInfo);

const infoById = new Map(LANGUAGES.map((info) => [info.id, info]));

export const languageById = (id: string): LanguageInfo | undefined => infoById.get(id);

/**
 * The language of a file, from its name (Dockerfile, Makefile, ...) or extension; null when unknown.
 * Extension matching is case-insensitive and tries the longest dotted suffix first (".env.example").
 */
export const detectLanguage = (filePath: string): LanguageInfo | null => {
  const base = filePath.slice(filePath.lastIndexOf("/") + 1);
  const named = byFileName.get(base);
  if (named) return toInfo(named);
  if (/^(Dockerfile|Containerfile)[.-]/.test(base)) return toInfo(byFileName.get("Dockerfile")!);
  const lower = base.toLowerCase();
  for (let dot = lower.indexOf("."); dot !== -1; dot = lower.indexOf(".", dot + 1)) {
    const entry = byExtension.get(lower.slice(dot));
    if (entry) return toInfo(entry);
  }
  return null;
};

/**
 * Lines only C++ has: a namespace or template, a class with a body or a base, a struct with a base, an
 * access label, `using`. A `.h` header is shared by C and C++; the C grammar reads `namespace x {` as a
 * function and a template as errors, so a header with one of these lines is C++.
 */
const CPP_ONLY =
  /^[ \t]*(?:(?:inline[ \t]+)?namespace(?:[ \t]+[\w:]+)?[ \t]*\{|template[ \t]*<|class[ \t]+\w+(?:[ \t]+final)?[ \t]*(?::[ \t]*(?:public|private|protected)\b|\{[ \t]*$)|struct[ \t]+\w+(?:[ \t]+final)?[ \t]*:[ \t]*(?:public|private|protected)\b|(?:public|private|protected)[ \t]*:[ \t]*$|using[ \t]+(?:namespace[ \t]+)?\w+(?:::\w+)*[ \t]*[;=])/m;

/** The language of a file given its text too: as `detectLanguage`, except that a `.h` header written in C++ is C++. */
export const detectLanguageOf = (filePath: string, content: string): LanguageInfo | null => {
  const language = detectLanguage(filePath);
  if (language?.id === "c" && /\.h$/i.test(filePath) && CPP_ONLY.test(content)) return languageById("cpp") ?? language;
  return language;
};

const require = createRequire(import.meta.url);
const packageDirs = new Map<GrammarPackage, string>();

const grammarDir = (pkg: GrammarPackage): string => {
  let dir = packageDirs.get(pkg);
  if (!dir) {
    dir =
      pkg === "@vscode/tree-sitter-wasm"
        ? path.dirname(require.resolve("@vscode/tree-sitter-wasm")) // main is wasm/tree-sitter.js
        : path.join(path.dirname(require.resolve("tree-sitter-wasms/package.json")), "out");
    packageDirs.set(pkg, dir);
  }
  return dir;
};

/** Absolute path of a grammar's .wasm file. */
export const grammarFilePath = (grammar: GrammarRef): string => path.join(grammarDir(grammar.package), grammar.file);
