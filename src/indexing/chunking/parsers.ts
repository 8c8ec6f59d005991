/** Tree-sitter grammars and parsers, loaded once per thread (./syntax-chunker.ts). */
import { readFile } from "node:fs/promises";
import { isMainThread } from "node:worker_threads";
import { Language, Parser } from "web-tree-sitter";
import { grammarFilePath, type LanguageInfo } from "./languages.ts";
import { tuneWasmTiering } from "./wasm-tiering.ts";

export class GrammarLoadError extends Error {
  constructor(language: string, cause: unknown) {
    super(`cannot load the ${language} grammar: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "GrammarLoadError";
  }
}

// ---- grammar loading (once per thread) --------------------------------------------------------

let parserReady: Promise<void> | null = null;
const languages = new Map<string, Promise<Language>>();
const parsers = new Map<string, Parser>();

const loadLanguage = (info: LanguageInfo): Promise<Language> => {
  let loading = languages.get(info.id);
  if (!loading) {
    const grammar = info.grammar;
    loading = (async () => {
      if (!grammar) throw new GrammarLoadError(info.id, "no grammar");
      if (isMainThread) tuneWasmTiering(); // a pool's threads: set by the pool (V8 flags are per process)
      parserReady ??= Parser.init();
      await parserReady;
      try {
        return await Language.load(new Uint8Array(await readFile(grammarFilePath(grammar))));
      } catch (error) {
        throw new GrammarLoadError(info.id, error);
      }
    })();
    languages.set(info.id, loading);
  }
  return loading;
};

export const parserFor = async (info: LanguageInfo): Promise<Parser> => {
  const language = await loadLanguage(info);
  let parser = parsers.get(info.id);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(language);
    parsers.set(info.id, parser);
  }
  return parser;
};

// ---- units: top-level statements and definitions ---------------------------------------------
