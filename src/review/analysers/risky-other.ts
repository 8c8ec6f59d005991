/**
 * Rust `.unwrap()` in non-test code; Java/Kotlin catching Throwable and printStackTrace. Catching
 * Throwable is reported in non-test code only (a test framework's failures are `AssertionError`s, which
 * a test utility must catch), and not when the catch block, as far as the diff shows it, throws again
 * (a clean-up that rethrows or wraps what it caught).
 */
import type { Finding } from "../findings.ts";
import { forEachAddedLine, lineFinding, splitCode, type AnalyserContext, type Analyser } from "./context.ts";

const UNWRAP = /\.unwrap\(\)/;
const TEST_MARKER = /#\[(cfg\(test\)|test|tokio::test)\]|\bmod\s+tests?\b/;

export const rustUnwrapAnalyser: Analyser = (file, ctx) => {
  if (ctx.skip || ctx.language !== "rust" || ctx.isTest || ctx.isScript) return [];
  const out: Finding[] = [];
  for (const hunk of file.hunks) {
    let inTests = TEST_MARKER.test(hunk.section);
    for (const l of hunk.lines) {
      if (l.newLine === null) continue;
      const { code } = splitCode(l.text, "rust");
      if (TEST_MARKER.test(code)) inTests = true;
      if (l.kind !== "add" || inTests) continue;
      if (UNWRAP.test(code)) {
        out.push(lineFinding(ctx, "rust/unwrap", "low", l.newLine, "`.unwrap()` panics on `None`/`Err`. Propagate with `?`, handle the case, or use `.expect(\"why this cannot fail\")`."));
      }
    }
  }
  return out;
};

const CATCH_THROWABLE = /\bcatch\s*\(\s*(final\s+)?(java\.lang\.)?Throwable\b|\bcatch\s*\(\s*\w+\s*:\s*Throwable\s*\)/;
const PRINT_STACK = /\.printStackTrace\s*\(\s*\)/;

/** Lines read after a catch for its block's end. */
const MAX_CATCH_LINES = 60;

/** Whether the catch block opening on `line` throws (its lines at the head, as far as the diff shows them). */
function catchRethrows(ctx: AnalyserContext, line: number, code: string): boolean {
  const at = code.search(CATCH_THROWABLE);
  let depth = 0;
  let opened = false;
  for (let n = line; n < line + MAX_CATCH_LINES; n++) {
    const text = n === line ? code.slice(at) : ctx.newLines.get(n) && splitCode(ctx.newLines.get(n)!.text, ctx.language).code;
    if (text === undefined) return false;
    for (const m of text.matchAll(/[{}]|\bthrow\b/g)) {
      if (m[0] === "{") {
        depth++;
        opened = true;
      } else if (m[0] === "}") {
        depth--;
        if (opened && depth === 0) return false;
      } else if (opened) return true;
    }
  }
  return false;
}

export const javaAnalyser: Analyser = (file, ctx) => {
  if (ctx.skip || (ctx.language !== "java" && ctx.language !== "kotlin")) return [];
  const out: Finding[] = [];
  forEachAddedLine(file, (line, text) => {
    const { code } = splitCode(text, ctx.language);
    if (CATCH_THROWABLE.test(code)) {
      if (ctx.isTest || catchRethrows(ctx, line, code)) return;
      out.push(lineFinding(ctx, "java/catch-throwable", "medium", line, "Catching `Throwable` also swallows `Error`s such as `OutOfMemoryError`; catch `Exception` or the specific exceptions you can handle."));
    } else if (PRINT_STACK.test(code) && !ctx.isTest) {
      out.push(lineFinding(ctx, "java/print-stack-trace", "low", line, "`printStackTrace()` writes to stderr and bypasses logging; log the exception with the project's logger."));
    }
  });
  return out;
};
