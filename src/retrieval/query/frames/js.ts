/** Node, Deno and Chromium (V8) stack frames, and Firefox / Safari ones (`fn@file:line:col`). */
import type { FrameMatch } from "../types.ts";
import { framePath, originOf } from "../paths.ts";

const JS_FRAME_WITH_FN = /^\s*at (?:async )?(?:new )?(.+?) \((.+?)\)\s*$/;
const JS_FRAME_BARE = /^\s*at (?:async )?(\S+?)\s*$/;
const FF_FRAME = /^\s*([\w$.<>/]*)@(.+?:\d+:\d+)\s*$/;
const LOCATION = /^(.*?)(?::(\d+))?(?::(\d+))?$/;

export function jsFrame(line: string): FrameMatch | null {
  let fn: string | null = null;
  let location: string | null = null;
  let m = JS_FRAME_WITH_FN.exec(line);
  if (m) {
    fn = m[1] ?? null;
    location = m[2] ?? null;
  } else if ((m = JS_FRAME_BARE.exec(line)) && /:\d+(?::\d+)?$/.test(m[1] ?? "")) {
    location = m[1] ?? null;
  } else if ((m = FF_FRAME.exec(line))) {
    fn = m[1] || null;
    location = m[2] ?? null;
  }
  if (location === null) return null;
  // "at Array.map (<anonymous>)", "at async Promise.all (index 0)": location without a file
  const loc = LOCATION.exec(location.trim());
  const file = loc?.[1] ?? location;
  // Node before v16 printed its own modules without the `node:` scheme (`internal/process/task_queues.js`).
  const path = /^internal\//.test(file) ? null : framePath(file);
  return {
    frame: {
      path,
      line: loc?.[2] !== undefined ? Number(loc[2]) : null,
      symbol: fn !== null ? cleanJsFunction(fn) : null,
      origin: originOf(path, file),
      language: "javascript",
    },
    order: "inner-first",
    lines: 1,
  };
}

function cleanJsFunction(fn: string): string | null {
  const s = fn
    .replace(/\s*\[as [^\]]+\]$/, "")
    .replace(/^async /, "")
    .replace(/^new /, "")
    .replace(/\.<anonymous>$/, "")
    .replace(/^<anonymous>$/, "")
    .trim();
  if (s === "" || s.includes("<") || s === "eval") return null;
  return s;
}
