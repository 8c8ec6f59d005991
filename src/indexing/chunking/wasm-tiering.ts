import v8 from "node:v8";

/**
 * How soon V8 recompiles a hot wasm function with its optimising compiler (TurboFan).
 *
 * V8 runs wasm code first as baseline (Liftoff) code and charges each function a budget, roughly the
 * size of the code it runs through at each loop iteration; when the budget is spent, the function is
 * compiled again on a background thread. A grammar's lexer is one huge function (bash's is 161 KB of
 * wasm, C's 51 KB), so at V8's default budget (1.8M) it is sent to TurboFan after a dozen characters,
 * and compiling it costs more than any file parses. Measured while indexing CPython's Lib: the lexers
 * of the 1 bash, 2 C and 1 PowerShell files (26 KB of the 38 MB) cost 2.2 s of TurboFan compilation,
 * about 10 % of the job's CPU. With a budget 100 times the default a lexer is recompiled only after a
 * few thousand characters of its language, and the functions every parse runs (tree-sitter's own and
 * the Python grammar's) still are within the first files. The budget is process-wide; a budget given
 * on the command line is left alone.
 */
export const WASM_TIERING_BUDGET = 180_000_000;

const FLAG = "--wasm-tiering-budget";
let tuned = false;

const givenByUser = (): boolean =>
  [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)].some((arg) => arg.startsWith(FLAG) || arg.startsWith("--wasm_tiering_budget"));

/** Sets the process's wasm tiering budget once (call it on the main thread, before grammars load). */
export const tuneWasmTiering = (): void => {
  if (tuned) return;
  tuned = true;
  if (givenByUser()) return;
  try {
    v8.setFlagsFromString(`${FLAG}=${WASM_TIERING_BUDGET}`);
  } catch {
    // A runtime without V8 flags at run time keeps its default.
  }
};
