/**
 * A pasted stack trace or error log and the answer's best place: whether a frame of the trace names its
 * file or its function, and the line the frame points at when it lies in the definition the answer cites.
 * A log of a hundred lines holds far more words than any definition, so the share of the question's
 * words the best place holds says nothing about it; a frame naming it does.
 */
import type { StackFrame } from "../query-analysis.ts";
import { innermostFirst } from "../query/frames/index.ts";
import type { AnswerSpan } from "./spans.ts";

const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** A frame's path and a repository path are one file: same name, one the other's tail by whole folders. */
function samePath(framePath: string, path: string): boolean {
  if (baseName(framePath) !== baseName(path)) return false;
  const [shorter, longer] = framePath.length <= path.length ? [framePath, path] : [path, framePath];
  return longer === shorter || longer.endsWith(`/${shorter}`);
}

/** A frame's function and a span's definition are one: the same qualified name (`Context.Next`). */
function sameFunction(frame: StackFrame, span: AnswerSpan): boolean {
  if (!frame.symbol || !span.name) return false;
  const frameParts = frame.symbol.split(/\.|::/);
  const spanParts = span.name.split(/\.|::/);
  if (frameParts.at(-1) !== spanParts.at(-1)) return false;
  // A bare name (`main`, `run`) names too many things: the type must say the same too.
  return frameParts.length > 1 && spanParts.length > 1 && frameParts.at(-2) === spanParts.at(-2);
}

export type Traced = { frame: StackFrame; line: number | null };

/**
 * The frame of the question's traces (its frames as the search read them: SearchOutcome.frames) that
 * names the span's file or function, innermost first, with the line it points at when that line is
 * inside the span's cited definition; null when none does.
 */
export function tracedFrame(frames: readonly StackFrame[], span: AnswerSpan): Traced | null {
  if (frames.length === 0) return null;
  let named: Traced | null = null;
  for (const frame of innermostFirst(frames)) {
    const inFile = frame.path !== null && samePath(frame.path, span.source.path);
    if (!inFile && !sameFunction(frame, span)) continue;
    const line = inFile && frame.line !== null && frame.line >= span.cited.linestart && frame.line <= span.cited.lineend ? frame.line : null;
    if (line !== null) return { frame, line };
    named ??= { frame, line: null };
  }
  return named;
}
