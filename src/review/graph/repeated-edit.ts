/**
 * A mechanical edit: a change that makes the same edit to several functions, such as a local alias
 * inlined everywhere (`var self = this` gone and `self` read as `this`), a helper replaced by another
 * in each of its callers (`this.lazyrouter(); this._router` -> `this.router`), or a parameter nobody
 * passed dropped from every signature and call (`**kwargs`). The functions it touches keep their own
 * behaviour (the change's point lies elsewhere), so the "untested change" note does not list them.
 *
 * Read from each changed function's tokens (comments, whitespace and annotations aside,
 * ./similarity.ts `tokensWithoutAnnotations`, and in Python, JavaScript and TypeScript a string's
 * quote marks): how many more or fewer times each token occurs after the change. A function's edit is
 * mechanical when
 *   - every token whose count changed is a name (its own name aside) or plain punctuation
 *     (`( ) [ ] { } , ; . : * =`): no literal, no operator, no control-flow keyword came or went, and
 *     at least one name did;
 *   - a name it removes belongs to the change: a local or parameter of the function (`var self`,
 *     `**kwargs`) or a definition the change removes (`lazyrouter`). A call to one existing function
 *     swapped for another (`int(x)` -> `round(x)`) is a new behaviour, not a mechanical edit;
 *   - and another changed function of the same change moved every one of those tokens the same way
 *     (more, or fewer). Two functions swapping two names in opposite directions are not one edit.
 */
import { languageOf } from "../analysers/context.ts";
import { tokensWithoutAnnotations } from "./similarity.ts";

/** One changed function: an id of the caller's choosing, its file, its name and both versions' text. */
export type ChangedFunction = { id: string; path: string; name: string; before: string; after: string };

const NAME = /^[A-Za-z_$][\w$]*$/;
const PUNCTUATION = new Set(["(", ")", "[", "]", "{", "}", ",", ";", ".", ":", "*", "="]);
/** Words that change what a function does when they come or go (control flow, operators spelled as words, values). */
const BEHAVIOUR_WORDS = new Set(
  (
    "and assert async await break case catch continue default del delete do elif else except finally for if in instanceof is " +
    "lambda match new not null None nil or raise return switch throw true false True False try typeof undefined void while with yield"
  ).split(" "),
);

/** Declaration words that come and go with the names they declare (not shown as the edit's names). */
const DECLARATIONS = new Set(["var", "let", "const", "def", "function", "fn", "func"]);

/** Languages where a string in single quotes is the same string in double quotes. */
const EITHER_QUOTE = new Set(["python", "javascript", "typescript"]);

/** A string literal in single quotes written in double quotes, where that is the same string (`'a'` -> `"a"`). */
const doubleQuoted = (token: string): string => (/^'[^'"\\]*'$/.test(token) ? `"${token.slice(1, -1)}"` : token);

/** A version's tokens; in Python, JavaScript and TypeScript a string's quotes do not count (`'a'` is `"a"`). */
function tokensOf(text: string, path: string): string[] {
  const tokens = tokensWithoutAnnotations(text, path);
  return EITHER_QUOTE.has(languageOf(path) ?? "") ? tokens.map(doubleQuoted) : tokens;
}

/** Token -> (count after) - (count before), zero counts left out; the function's own name is not counted. */
function tokenDelta(before: readonly string[], after: readonly string[], name: string): Map<string, number> {
  const delta = new Map<string, number>();
  for (const t of before) delta.set(t, (delta.get(t) ?? 0) - 1);
  for (const t of after) delta.set(t, (delta.get(t) ?? 0) + 1);
  delta.delete(name);
  for (const [t, n] of delta) if (n === 0) delta.delete(t);
  return delta;
}

const RECEIVERS: ReadonlySet<string> = new Set(["self", "cls"]);
const NO_NAMES: ReadonlySet<string> = new Set();
const INTRODUCERS = new Set(["def", "function", "fn", "func"]);

/**
 * Names the code binds: after `var`/`let`/`const`, before a lone `=` (an assignment or a parameter's
 * default), after `*` (`*args`, `**kwargs`), and the parameters of every function header in it.
 */
export function boundNames(tokens: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (!NAME.test(t) || tokens[i - 1] === ".") continue;
    const prev = tokens[i - 1] ?? "";
    const assigned = tokens[i + 1] === "=" && tokens[i + 2] !== "=" && tokens[i + 2] !== ">";
    if (DECLARATIONS.has(prev) || prev === "*" || assigned) out.add(t);
    if (!INTRODUCERS.has(t)) continue;
    // A header: the introducer, an optional name, then the parameters up to the matching `)`.
    let k = i + 1;
    if (NAME.test(tokens[k] ?? "")) k++;
    if (tokens[k] !== "(") continue;
    for (let depth = 0; k < tokens.length; k++) {
      const x = tokens[k]!;
      if (x === "(" || x === "[" || x === "{") depth++;
      else if (x === ")" || x === "]" || x === "}") {
        if (--depth === 0) break;
      } else if (depth === 1 && NAME.test(x) && [",", ")", ":", "="].includes(tokens[k + 1] ?? "")) out.add(x);
    }
  }
  return out;
}

/** Names and punctuation only, with at least one name. */
function isStructural(delta: ReadonlyMap<string, number>): boolean {
  let names = 0;
  for (const t of delta.keys()) {
    if (PUNCTUATION.has(t)) continue;
    if (!NAME.test(t) || BEHAVIOUR_WORDS.has(t)) return false;
    names += 1;
  }
  return names > 0;
}

/** Whether `other` moves every token of `edit` the same way (more, or fewer). */
const sameWay = (edit: ReadonlyMap<string, number>, other: ReadonlyMap<string, number>): boolean =>
  [...edit].every(([t, n]) => Math.sign(other.get(t) ?? 0) === Math.sign(n));

/** Names a function's mechanical edit removes and adds. */
export type EditNames = { removed: string[]; added: string[] };

/** The functions whose edit another changed function repeats, by id, with the names each edit removes and adds. */
export type RepeatedEdit = Map<string, EditNames>;

/**
 * The changed functions whose edit another changed function repeats (see above); `removedDefinitions`:
 * the names of the definitions the change removes.
 */
export function repeatedEdits(changes: readonly ChangedFunction[], removedDefinitions: ReadonlySet<string>): RepeatedEdit {
  const deltas = changes.map((c) => {
    const before = tokensOf(c.before, c.path);
    return {
      id: c.id,
      delta: tokenDelta(before, tokensOf(c.after, c.path), c.name),
      bound: boundNames(before),
      // Python's receiver is a parameter of every method: not the change's own (JavaScript's `var self = this` is).
      receivers: languageOf(c.path) === "python" ? RECEIVERS : NO_NAMES,
    };
  });
  const out: RepeatedEdit = new Map();
  for (const f of deltas) {
    if (!isStructural(f.delta)) continue;
    const owned = [...f.delta].some(([t, n]) => n < 0 && NAME.test(t) && !DECLARATIONS.has(t) && !f.receivers.has(t) && (f.bound.has(t) || removedDefinitions.has(t)));
    if (!owned) continue;
    if (!deltas.some((g) => g !== f && sameWay(f.delta, g.delta))) continue;
    const names = [...f.delta].filter(([t]) => NAME.test(t) && !DECLARATIONS.has(t));
    out.set(f.id, { removed: names.filter(([, n]) => n < 0).map(([t]) => t), added: names.filter(([, n]) => n > 0).map(([t]) => t) });
  }
  return out;
}

/** The names a set of mechanical edits removes and adds, a few of each (for the summary). */
export function namesOf(edits: readonly EditNames[], limit = 4): EditNames {
  const removed = [...new Set(edits.flatMap((e) => e.removed))];
  const added = [...new Set(edits.flatMap((e) => e.added))];
  return { removed: removed.slice(0, limit), added: added.slice(0, limit) };
}
