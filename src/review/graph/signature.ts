/**
 * Whether a call still fits a function's parameters after a change (./broken-callers.ts). A call is
 * stale when it fitted the old parameters and, with the new ones, it misses a required parameter,
 * passes too many positional arguments, passes a keyword that no longer exists, or a positional
 * argument now lands on another parameter (one inserted, removed or moved before it; a parameter
 * renamed in place keeps its position and is not a change for positional callers).
 *
 * Python: positional-only (`/`), keyword-only (after `*` or `*args`), defaults, `*args` and `**kwargs`
 * on both sides (a call passing `*args` fits any positional count, one passing `**kwargs` any
 * keyword). JavaScript/TypeScript: defaults, `?` and rest parameters; a call may leave out any
 * trailing parameter (the language passes `undefined`, and functions commonly check for it), so a
 * JS call is stale when it passes more arguments than the function now takes, or when an argument
 * now lands on another parameter; a function whose body read `arguments` took any call, and an
 * argument it read past its parameters that a new parameter now takes is not moved. Go and Rust
 * ("strict"): every parameter must be passed, no more; a Go variadic `...T` takes any number after
 * the others and a call passing `xs...` fits any count; a Rust `self` (`&self`, `&mut self`,
 * `self: Box<Self>`...) is the receiver of a method call and an argument of a path call
 * (`Type::f(&x, ...)`). A call missing a parameter whose arguments moved (one inserted before the
 * last) is said both ways: the argument that now lands elsewhere, and the parameter not passed.
 */
import type { GraphParam } from "../../codeindex/port.ts";
import type { CallSite } from "./call-site.ts";

type Slot = { name: string; hasDefault: boolean };

export type Shape = {
  language: "python" | "script" | "strict";
  /** Parameters that take a positional argument, in order. */
  positional: Slot[];
  positionalOnly: Set<string>;
  keywordOnly: Slot[];
  varArgs: boolean;
  varKeywords: boolean;
  /** JS: the body reads `arguments`, so any call fits and each argument past the parameters is read by its position. */
  readsArguments?: boolean;
};

/** Go and Rust: calls pass every parameter, in order. */
const STRICT: ReadonlySet<string> = new Set(["go", "rust"]);
const RUST_SELF = /^(&\s*('\w+\s+)?)?(mut\s+)?self\b/;

const bare = (name: string) => name.replace(/^\*{1,2}|^\.\.\./, "").replace(/\s*[:=][\s\S]*$/, "").trim();

/** The parameters as a call sees them; `bound` drops a Python method's `self`/`cls` and a Rust method's `self` (called on an object). */
export function shapeOf(params: readonly GraphParam[], language: string, bound: boolean): Shape {
  if (STRICT.has(language)) return strictShapeOf(params, bound);
  const python = language === "python";
  let list = [...params];
  if (python && bound && list.length > 0 && /^(self|cls)\b/.test(list[0]!.name)) list = list.slice(1);
  const shape: Shape = { language: python ? "python" : "script", positional: [], positionalOnly: new Set(), keywordOnly: [], varArgs: false, varKeywords: false };
  let keywordOnly = false;
  for (const p of list) {
    const name = p.name.trim();
    if (python) {
      if (name === "/") {
        for (const s of shape.positional) shape.positionalOnly.add(s.name);
        continue;
      }
      if (name === "*") {
        keywordOnly = true;
        continue;
      }
      if (name.startsWith("**")) {
        shape.varKeywords = true;
        continue;
      }
      if (name.startsWith("*")) {
        shape.varArgs = true;
        keywordOnly = true;
        continue;
      }
      const slot = { name: bare(name), hasDefault: p.hasDefault };
      (keywordOnly ? shape.keywordOnly : shape.positional).push(slot);
    } else {
      if (name.startsWith("...")) {
        shape.varArgs = true;
        continue;
      }
      if (name === "this" || /^this\s*:/.test(name)) continue; // TypeScript's `this` parameter
      shape.positional.push({ name: bare(name), hasDefault: p.hasDefault || /\?$/.test(bare(name)) });
    }
  }
  return shape;
}

function strictShapeOf(params: readonly GraphParam[], bound: boolean): Shape {
  const shape: Shape = { language: "strict", positional: [], positionalOnly: new Set(), keywordOnly: [], varArgs: false, varKeywords: false };
  params.forEach((p, i) => {
    const name = p.name.trim();
    if (i === 0 && RUST_SELF.test(name)) {
      if (!bound) shape.positional.push({ name: "self", hasDefault: false });
      return;
    }
    if (name.startsWith("...")) shape.varArgs = true;
    else shape.positional.push({ name: bare(name), hasDefault: false });
  });
  return shape;
}

const names = (s: Shape) => new Set([...s.positional, ...s.keywordOnly].map((p) => p.name));

/** Why a call does not fit `shape`, or null when it does. `lenient`: JS calls may leave out trailing parameters. */
export function misfit(shape: Shape, call: CallSite, lenient: ReadonlySet<string> = new Set()): string | null {
  if (!call.splat && call.positional > shape.positional.length && !shape.varArgs) {
    return `passes ${call.positional} positional argument${call.positional === 1 ? "" : "s"}, the function takes ${shape.positional.length}`;
  }
  const bound = new Set(shape.positional.slice(0, call.splat ? shape.positional.length : call.positional).map((p) => p.name));
  if (shape.language === "python") {
    const keywordable = new Set([...shape.positional.filter((p) => !shape.positionalOnly.has(p.name)), ...shape.keywordOnly].map((p) => p.name));
    for (const k of call.keywords) {
      if (keywordable.has(k)) {
        if (bound.has(k) && !call.splat) return `passes \`${k}\` twice`;
        bound.add(k);
      } else if (!shape.varKeywords) return `passes \`${k}=\`, which the function no longer takes`;
    }
  }
  for (const p of shape.positional) {
    if (p.hasDefault || bound.has(p.name) || lenient.has(p.name)) continue;
    if (call.keywordSplat && !shape.positionalOnly.has(p.name)) continue;
    return `does not pass \`${p.name}\``;
  }
  for (const p of shape.keywordOnly) {
    if (p.hasDefault || bound.has(p.name) || call.keywordSplat) continue;
    return `does not pass \`${p.name}\``;
  }
  return null;
}

/**
 * Why `call` is stale after the parameters changed from `before` to `after`; null when it still fits.
 * `undefined` when the call did not fit `before` either: it is evidently not a call of this definition.
 */
export function staleReason(before: Shape, after: Shape, call: CallSite): string | null | undefined {
  // JS: any parameter may be left out (it is `undefined`, and functions commonly check for it).
  const lenientBefore = before.language === "script" ? names(before) : new Set<string>();
  if (misfit(before, call, lenientBefore) !== null) return undefined;
  const lenientAfter = after.language === "script" ? names(after) : new Set<string>();
  const reason = misfit(after, call, lenientAfter);
  const moved = call.splat ? null : movedArgument(before, after, call);
  // A parameter inserted before the last ones: the call's arguments now go one place further, and the last one is missing.
  const missing = reason ? /^does not pass `([^`]+)`$/.exec(reason)?.[1] : undefined;
  if (moved && missing !== undefined) return `${moved}; \`${missing}\` is not passed`;
  return reason ?? moved;
}

/** The first positional argument of `call` that lands on another parameter after the change, said so; null when none does. */
function movedArgument(before: Shape, after: Shape, call: CallSite): string | null {
  const oldNames = names(before);
  const newNames = names(after);
  for (let j = 0; j < call.positional && j < after.positional.length; j++) {
    const was = before.positional[j]?.name;
    const now = after.positional[j]!.name;
    if (was === undefined) {
      // Read from `arguments` before, the argument was read by its position, as the new parameter reads it.
      if (before.varArgs && !before.readsArguments) return `its argument ${j + 1} now goes to \`${now}\` (it went to the rest parameter)`;
      continue;
    }
    if (was === now) continue;
    const renamedInPlace = !newNames.has(was) && !oldNames.has(now);
    if (!renamedInPlace) return `its argument ${j + 1} now goes to \`${now}\` (it went to \`${was}\`)`;
  }
  return null;
}

/** True when the parameter change can break a call that fitted before (so call sites are worth looking up). */
export function canBreakCalls(before: Shape, after: Shape): boolean {
  const key = (s: Shape) =>
    JSON.stringify([s.positional.map((p) => [p.name, p.hasDefault]), [...s.positionalOnly], s.keywordOnly.map((p) => [p.name, p.hasDefault]), s.varArgs, s.varKeywords]);
  if (key(before) === key(after)) return false;
  // Only defaults added or new optional parameters at the end: every call that fitted still fits.
  const grows =
    after.positional.length >= before.positional.length &&
    before.positional.every((p, i) => after.positional[i]!.name === p.name && (after.positional[i]!.hasDefault || !p.hasDefault)) &&
    after.positional.slice(before.positional.length).every((p) => p.hasDefault) &&
    before.keywordOnly.every((p) => after.keywordOnly.some((q) => q.name === p.name && (q.hasDefault || !p.hasDefault))) &&
    after.keywordOnly.every((q) => q.hasDefault || before.keywordOnly.some((p) => p.name === q.name)) &&
    (after.varArgs || !before.varArgs) &&
    (after.varKeywords || !before.varKeywords) &&
    [...after.positionalOnly].every((n) => before.positionalOnly.has(n));
  return !grows;
}
