import type { ChunkedFile } from "../chunk.ts";
import { detectLanguageOf, type LanguageInfo } from "./languages.ts";
import { createSyntaxChunker, type SyntaxChunkerOptions } from "./syntax-chunker.ts";
import { chunkScript } from "./script-chunker.ts";
import { chunkText } from "./text-chunker.ts";

/**
 * Version of the chunker's output (chunks and the code graph made from the same parse). Bump it
 * whenever chunk boundaries, fields, summaries or the graph change, so stored chunks and graphs made by
 * an older version are recomputed, and a repository indexed by an older version is re-indexed when
 * submitted again even at the same commit. 2: the code graph. 4: code in languages with no grammar here
 * (script chunking, ./script-chunker.ts). 6: C and C++ definitions inside preprocessor conditionals (an
 * include guard holds a whole header) are definitions; a `.h` header written in C++ is read as C++. 9: a
 * namespace that is most of its file is its scope: its members are chunks at any size (7 and 8 were
 * namespace readings measured and not kept). 11: C and C++ read with lone macro lines as blank
 * (./c-preprocessor.ts); a Java enum's methods are its members (10 also read conditionals' first branches
 * only: measured and not kept). 13: a JavaScript/TypeScript object literal whose members are functions at least half
 * (`module.exports = { ... }`, `Foo.prototype = { ... }`, `const api = { ... }`, `export default { ... }`)
 * is a container of its methods (12 took any object with a function member: a locale's data with its
 * `ordinal` helper became a class; measured and not kept). 14: a doc block (opened with slash-star-star) documents the
 * definition after it across one or two blank lines. 15: C and C++ export and inline macros in a
 * declaration's line are read as blank (`class LIB_API logger`, `void LIB_INLINE pool::post(`). 16: a C or
 * C++ conditional inside a list (an initializer's entries, a parameter list) reads as blank (17 also
 * read a conditional of alternative function headers as one branch: measured and not kept). 18: a
 * template's parameter list keeps its capitalised names (`template <bool IS_SIGNED>`). 19: a conditional
 * opening a constructor's member initializer list (after its colon) reads as blank too. 20: an object of
 * methods given through chained assignments (`const proto = module.exports = { ... }`) is a container
 * too, and its `key: name` members (`assert: httpAssert`) are definitions of their keys. 21: a C or C++
 * conditional's directive line joins the definition it touches (`#ifdef X` the one after it, `#endif` the
 * one before it) instead of standing alone, and a class, struct, union or enum defined inside a class is
 * a definition (its members chunks of their own when it is long). 22: C and C++ files are read through
 * their syntax errors: the definitions the grammar parsed whole inside an error are definitions, and only
 * the error's rows no well-read node holds count towards the share that sends a file to line windows.
 * 23: a C++ function returning a reference (`T& at()`, `T&& take()`) is named through its reference
 * declarator (it was an anonymous block), and a friend function defined in a class body is a definition.
 * 24: also a C function returning a function pointer (through its parenthesised declarator), and a
 * JavaScript/TypeScript class field holding a function (`handle = async (e) => { ... }`) is a method.
 * 25: a name bound to a function literal is a function in Go, Python, Rust, C++ and Java too (`var h =
 * func(...)`, `f = lambda ...`, `static H: fn() = || ...`, `auto f = [](...) {...}`, a field holding a
 * lambda; ../bound-functions.ts): it was a variable, a C++ namespace's loose lines or a Java class's header.
 * 26: a C++ access specifier written as a macro (`JSON_PRIVATE_UNLESS_TESTED:`, Qt's `signals:`, `public
 * slots:`) reads as blank, and a lone macro whose next line opens a block (`JSON_TRY` then `{`) does too
 * after a block's `{` (./c-preprocessor.ts): the first closed its class early, the second read as an entry.
 * 27: a Kotlin extension function (`fun TypeName.toVariableName()`) is named after its receiver's dot and is
 * a method of the type it extends; it was named by its receiver (`TypeName`), its own name lost.
 */
export const CHUNKER_VERSION = "27";

const PLAIN_TEXT: LanguageInfo = { id: "text", name: "Text", chunking: "text" };

export type Chunker = { chunkFile(path: string, content: string): Promise<ChunkedFile> };

export type ChunkerOptions = SyntaxChunkerOptions;

/** Chunks a file along its syntax tree when a grammar exists for its language, otherwise as text. */
export const createChunker = (options: ChunkerOptions = {}): Chunker => {
  const syntax = createSyntaxChunker(options);
  return {
    async chunkFile(path, content) {
      const language = detectLanguageOf(path, content) ?? PLAIN_TEXT;
      if (language.chunking === "syntax") return syntax.chunk(path, content, language);
      return language.chunking === "script" ? chunkScript(path, content, language) : chunkText(path, content, language);
    },
  };
};
