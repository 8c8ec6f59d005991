/** Rust `.unwrap()` in non-test code; Java/Kotlin catching Throwable and printStackTrace. */
import type { Finding } from "../findings.ts";
import { forEachAddedLine, lineFinding, splitCode, type Analyser } from "./context.ts";

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

export const javaAnalyser: Analyser = (file, ctx) => {
  if (ctx.skip || (ctx.language !== "java" && ctx.language !== "kotlin")) return [];
  const out: Finding[] = [];
  forEachAddedLine(file, (line, text) => {
    const { code } = splitCode(text, ctx.language);
    if (CATCH_THROWABLE.test(code)) {
      out.push(lineFinding(ctx, "java/catch-throwable", "medium", line, "Catching `Throwable` also swallows `Error`s such as `OutOfMemoryError`; catch `Exception` or the specific exceptions you can handle."));
    } else if (PRINT_STACK.test(code) && !ctx.isTest) {
      out.push(lineFinding(ctx, "java/print-stack-trace", "low", line, "`printStackTrace()` writes to stderr and bypasses logging; log the exception with the project's logger."));
    }
  });
  return out;
};
