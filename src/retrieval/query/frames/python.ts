/** Python tracebacks and pytest's short frames. */
import type { FrameMatch } from "../types.ts";
import { framePath, originOf } from "../paths.ts";

export const PY_FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (.+?))?\s*$/;
const PYTEST_FRAME = /^\s*([\w./\\:-]+\.pyx?):(\d+):(?: in ([\w.<>]+)|\s+(?:[A-Z]\w*)?)?\s*$/;

export function pythonFrame(line: string): FrameMatch | null {
  const m = PY_FRAME.exec(line) ?? PYTEST_FRAME.exec(line);
  if (!m) return null;
  const location = m[1] ?? "";
  const path = framePath(location);
  const symbol = m[3] !== undefined && !m[3].startsWith("<") ? m[3].trim() : null;
  return {
    frame: { path, line: Number(m[2]), symbol, origin: originOf(path, location), language: "python" },
    order: "outer-first",
    lines: 1,
  };
}
