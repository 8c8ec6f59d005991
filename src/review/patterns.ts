/**
 * Custom context against a change.
 *
 * PATTERN bodies are matched deterministically through "needles" taken from the body:
 *   - inline code spans (`console.log`) are searched as literal, case-sensitive substrings; when a
 *     needle starts/ends with a word character the match must start/end at a word boundary;
 *   - regex literals, bare (/foo\(\d+\)/i, must contain a regex metacharacter so paths like /tmp/
 *     are not mistaken for one) or inside a code span (`/foo\s*bar/`), are compiled with the
 *     linear-time engine in safe-regex.ts; expressions it rejects are reported in `errors`, and
 *     those refused for their cost (more states than MAX_NFA_STATES) also in `costly`;
 *   - code inside fenced blocks is an example, never a needle;
 *   - a body with neither takes code-like names from its prose instead (`os.system`, `print(`,
 *     `legacyFetch`, `get_env_value`, `ValueError`; see PROSE_CODE), with the same cues;
 *   - a code span recommended by the body is not a needle. The cue is the nearest of these words
 *     before the span in the same sentence: "use", "prefer", "with", "call", "in favour of",
 *     "should be" mark the recommended form; "avoid", "instead of", "rather than", "over", "not",
 *     "never", "don't use", "do not use", "ban(ned)", "forbid(den)", "deprecated", "replace",
 *     "remove" mark the unwanted form (longest cue ending nearest the span wins, so "do not use"
 *     beats "use"; a negation just before a recommending verb, as in "never call", flips it). Without a cue before it, a span inherits the classification of the span just
 *     before it when only `,` / `or` / `and` / `/` separate them ("avoid `a`, `b` or `c`"), else a
 *     trailing cue ("`x` is deprecated", "`y` is preferred") decides, else it is a needle.
 * Every added line containing a needle yields one finding per custom context: ruleId
 * "custom-pattern", the context's severity (its `severity`, or `metadata.severity`, default
 * "medium"), a message quoting the pattern body, and `customContextId` (the comment's linkedMemory).
 * A PATTERN with no needles is not matched here; like CUSTOM_INSTRUCTION bodies it goes to the model
 * (see contextForModel), and its creation is answered with a warning (patternWarning).
 * A PATTERN with a regex refused for its cost is refused at creation (patternCostProblem); one that
 * comes from elsewhere (a `.loupe/` rule, a context stored before the limit) is skipped whole: not
 * matched, not given to the model, and named in the review summary (skippedPatterns).
 * Lines are read up to MAX_LINE_CHARS characters, so a regex costs at most MAX_NFA_STATES x
 * MAX_LINE_CHARS steps per line (safe-regex.ts).
 *
 * Only ACTIVE contexts (a missing status counts as ACTIVE) whose scope covers the file apply.
 */
import type { DiffFile } from "./diff.ts";
import { compareFindings, isSeverity, type Finding, type Severity } from "./findings.ts";
import { compileSafeRegex, MAX_LINE_CHARS, SafeRegexCostError, type SafeRegex } from "./safe-regex.ts";
import { scopeApplies, type Scope, type ScopeTarget } from "./scope.ts";

export type CustomContextType = "PATTERN" | "CUSTOM_INSTRUCTION";
export type CustomContextStatus = "ACTIVE" | "INACTIVE" | "SUGGESTED";

export type CustomContextLike = {
  id: string;
  type: CustomContextType;
  body: string;
  status?: CustomContextStatus;
  scopes?: Scope | null;
  metadata?: Record<string, unknown> | null;
  severity?: Severity;
};

export type Needle =
  | { kind: "literal"; text: string; wordStart: boolean; wordEnd: boolean }
  | { kind: "regex"; text: string; regex: SafeRegex };

export const MAX_NEEDLES = 20;
const MAX_MESSAGE_BODY = 300;

type Span = { start: number; end: number; content: string; regex: { source: string; flags: string } | null };

const NEG_CUES = [
  "instead of",
  "rather than",
  "over",
  "avoid",
  "avoid using",
  "never",
  "never use",
  "not",
  "don't",
  "don't use",
  "dont use",
  "do not",
  "do not use",
  "no",
  "no longer use",
  "stop using",
  "ban",
  "banned",
  "forbid",
  "forbidden",
  "disallow",
  "disallowed",
  "deprecated",
  "replace",
  "remove",
];
const POS_CUES = ["use", "prefer", "with", "call", "in favour of", "in favor of", "should be", "instead use", "recommended"];
const TRAILING_POS = /^\s*(instead\b|rather\s+than\b|(is|are)\s+(preferred|recommended))/i;
const NEGATED = /(?<![\w'])(never|not|don't|dont|avoid|stop|no longer)(\s+\w+)?\s*$/;
const REGEX_META = /[\\.*+?[\](){}|^$]/;

function lastCue(leadIn: string): "neg" | "pos" | null {
  const text = ` ${leadIn.toLowerCase().replace(/[’]/g, "'")} `;
  let best: { start: number; end: number; len: number; kind: "neg" | "pos" } | null = null;
  const consider = (cue: string, kind: "neg" | "pos") => {
    const re = new RegExp(`(?<![\\w'])${cue.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+")}(?![\\w'])`, "g");
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const end = m.index + m[0].length;
      if (!best || end > best.end || (end === best.end && m[0].length > best.len)) best = { start: m.index, end, len: m[0].length, kind };
    }
  };
  for (const c of NEG_CUES) consider(c, "neg");
  for (const c of POS_CUES) consider(c, "pos");
  const found = best as { start: number; kind: "neg" | "pos" } | null;
  if (!found) return null;
  // "never call X", "do not ever use X", "avoid calling X": a negation just before a positive verb
  if (found.kind === "pos" && NEGATED.test(text.slice(Math.max(0, found.start - 24), found.start))) return "neg";
  return found.kind;
}

function asRegexLiteral(s: string): { source: string; flags: string } | null {
  const m = /^\/((?:\\.|[^/\\\n])+)\/([a-z]*)$/.exec(s.trim());
  if (!m || m[1]!.startsWith("*") || m[1]!.startsWith(" ")) return null;
  return { source: m[1]!, flags: m[2]! };
}

/**
 * Code-like names in prose (a body without code spans or regexes): dotted or namespaced names
 * (`os.system`, `subprocess.run()`), calls (`print()`, `print(`), snake_case and camelCase or
 * PascalCase names with an inner capital (`get_env_value`, `legacyFetch`, `ValueError`). Words and
 * abbreviations (`e.g.`) are not taken. A call's needle is its name and the opening parenthesis.
 */
const PROSE_CODE =
  /(?<![\w$./-])(?:[A-Za-z_$][\w$]+(?:(?:\.|::|->)[A-Za-z_$][\w$]+)+(?:\(\)?)?|[A-Za-z_$][\w$]*\(\)?|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9]|[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)(?![\w$(])/g;
const FILE_NAME = /\.(ts|tsx|js|jsx|py|go|rs|java|rb|md|json|ya?ml|toml|txt|css|html)$/i;

function proseSpans(text: string): Span[] {
  const spans: Span[] = [];
  PROSE_CODE.lastIndex = 0;
  for (let m = PROSE_CODE.exec(text); m; m = PROSE_CODE.exec(text)) {
    const token = m[0];
    if (FILE_NAME.test(token)) continue;
    spans.push({ start: m.index, end: m.index + token.length, content: token.replace(/\(\)$/, "("), regex: null });
  }
  return spans;
}

function findSpans(text: string): Span[] {
  const spans: Span[] = [];
  const re = /(`+)([\s\S]+?)\1|(?<=^|[\s(])\/((?:\\.|[^/\\\n])+)\/([gimsuy]*)(?=$|[\s).,;:!?])/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[1] !== undefined) {
      const content = m[2]!.trim();
      spans.push({ start: m.index, end: m.index + m[0].length, content, regex: asRegexLiteral(content) });
    } else {
      const source = m[3]!;
      if (!REGEX_META.test(source) || source.startsWith("*") || source.startsWith(" ")) continue;
      spans.push({ start: m.index, end: m.index + m[0].length, content: m[0], regex: { source, flags: m[4]! } });
    }
  }
  return spans.length > 0 ? spans : proseSpans(text);
}

/** A regex of a PATTERN body refused for its cost: the regex as written and why. */
export type CostlyRegex = { regex: string; message: string };

/** Needles of a PATTERN body (see the module comment), plus messages for rejected regexes (`costly`: those refused for their cost). */
export function patternNeedles(body: string): { needles: Needle[]; errors: string[]; costly: CostlyRegex[] } {
  const prose = body.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, ".\n");
  const spans = findSpans(prose);
  const needles: Needle[] = [];
  const errors: string[] = [];
  const costly: CostlyRegex[] = [];
  let prevKind: "neg" | "pos" | null = null;
  let prevEnd = 0;
  for (let k = 0; k < spans.length; k++) {
    const span = spans[k]!;
    const between = prose.slice(prevEnd, span.start);
    const sentenceBreak = /[.!?](\s|$)|\n\s*\n/.test(between);
    const sentenceStart = Math.max(between.lastIndexOf(". "), between.lastIndexOf("\n"), between.lastIndexOf("! "), between.lastIndexOf("? "));
    const leadIn = sentenceStart >= 0 ? between.slice(sentenceStart + 1) : between;
    let kind = lastCue(leadIn);
    if (kind === null && !sentenceBreak && prevKind !== null && /^[\s,/]*((or|and|nor)\s*)?[\s,/]*$/i.test(between)) kind = prevKind;
    if (kind === null) {
      const next = spans[k + 1];
      const after = prose.slice(span.end, next ? next.start : prose.length);
      if (TRAILING_POS.test(after)) kind = "pos";
      else kind = "neg"; // explicit trailing negatives and no cue at all: a needle
    }
    prevKind = kind;
    prevEnd = span.end;
    if (kind === "pos") continue;
    if (span.regex) {
      try {
        const regex = compileSafeRegex(span.regex.source, span.regex.flags);
        needles.push({ kind: "regex", text: `/${span.regex.source}/${span.regex.flags}`, regex });
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        errors.push(`/${span.regex.source}/: ${message}`);
        if (e instanceof SafeRegexCostError) costly.push({ regex: `/${span.regex.source}/${span.regex.flags}`, message });
      }
    } else {
      const t = span.content;
      if (t.replace(/\s/g, "").length < 2) continue;
      needles.push({ kind: "literal", text: t, wordStart: /^\w/.test(t), wordEnd: /\w$/.test(t) });
    }
    if (needles.length >= MAX_NEEDLES) break;
  }
  return { needles: dedupeNeedles(needles), errors, costly };
}

/**
 * Why a PATTERN body cannot be accepted, or null: a regex in it would cost more than the engine's
 * budget per line (safe-regex.ts MAX_NFA_STATES). The creation or edit of a custom context with such a
 * body is refused with it (it names the field, `body`, and the limit).
 */
export function patternCostProblem(type: string, body: string): string | null {
  if (type !== "PATTERN") return null;
  const { costly } = patternNeedles(body);
  return costly.length === 0 ? null : `body: ${costly.map((c) => `${c.regex}: ${c.message}`).join("; ")}`;
}

/** The in-scope PATTERNs skipped whole for a regex over the cost limit (for the review summary): the first such regex of each. */
export function skippedPatterns(contexts: readonly CustomContextLike[], target: ScopeTarget): { context: CustomContextLike; costly: CostlyRegex }[] {
  return contexts.flatMap((c) => {
    if (c.type !== "PATTERN" || !contextApplies(c, target)) return [];
    const costly = patternNeedles(c.body).costly[0];
    return costly ? [{ context: c, costly }] : [];
  });
}

/**
 * Why a custom context can never match a change without a chat model, or null: a PATTERN with no
 * needle (nothing in backticks, no /regex/, no code-like name outside the code it recommends) or
 * with a regex the safe engine refuses. The creation of such a context is answered with it.
 */
export function patternWarning(type: string, body: string): string | null {
  if (type !== "PATTERN") return null;
  const { needles, errors } = patternNeedles(body);
  const parts: string[] = [];
  if (errors.length > 0) parts.push(`Refused regular expression${errors.length > 1 ? "s" : ""}: ${errors.join("; ")}.`);
  if (needles.length === 0) {
    parts.push(
      "This PATTERN can never match a change: it has no code in backticks (like `console.log`), no /regex/ and no code-like name " +
        "(like legacyFetch or os.system) outside the code it recommends. Put the code to flag in backticks. Until then, reviews give it " +
        "to the chat model when one is configured, and otherwise list it in the summary for a human to check.",
    );
  }
  return parts.length > 0 ? parts.join(" ") : null;
}

function dedupeNeedles(needles: Needle[]): Needle[] {
  const seen = new Set<string>();
  return needles.filter((n) => {
    const key = `${n.kind}:${n.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const isWord = (c: string | undefined) => c !== undefined && /\w/.test(c);

export function needleMatches(needle: Needle, line: string): boolean {
  if (needle.kind === "regex") return needle.regex.test(line);
  let from = 0;
  for (;;) {
    const i = line.indexOf(needle.text, from);
    if (i < 0) return false;
    const okStart = !needle.wordStart || !isWord(line[i - 1]);
    const okEnd = !needle.wordEnd || !isWord(line[i + needle.text.length]);
    if (okStart && okEnd) return true;
    from = i + 1;
  }
}

export function isActive(c: CustomContextLike): boolean {
  return c.status === undefined || c.status === "ACTIVE";
}

export function contextApplies(c: CustomContextLike, target: ScopeTarget): boolean {
  return isActive(c) && scopeApplies(c.scopes ?? {}, target);
}

function contextSeverity(c: CustomContextLike): Severity {
  if (c.severity) return c.severity;
  const s = c.metadata?.["severity"];
  return isSeverity(s) ? s : "medium";
}

function quoteBody(body: string): string {
  const oneLine = body.trim();
  const short = oneLine.length > MAX_MESSAGE_BODY ? `${oneLine.slice(0, MAX_MESSAGE_BODY - 1)}…` : oneLine;
  return short
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
}

function displayNeedle(n: Needle): string {
  const t = n.text.length > 60 ? `${n.text.slice(0, 59)}…` : n.text;
  return t.includes("`") ? `\`\` ${t} \`\`` : `\`${t}\``;
}

/** Findings for PATTERN contexts whose needles occur in added lines of `file`, sorted by line. */
export function matchPatterns(file: DiffFile, contexts: readonly CustomContextLike[], target: { repository?: string | null } = {}): Finding[] {
  if (file.binary || file.status === "deleted") return [];
  const findings: Finding[] = [];
  const scopeTarget: ScopeTarget = { repository: target.repository ?? null, filepath: file.path };
  for (const c of contexts) {
    if (c.type !== "PATTERN" || !contextApplies(c, scopeTarget)) continue;
    const { needles, costly } = patternNeedles(c.body);
    if (needles.length === 0 || costly.length > 0) continue;
    const severity = contextSeverity(c);
    for (const h of file.hunks) {
      for (const l of h.lines) {
        if (l.kind !== "add" || l.newLine === null) continue;
        const hit = needles.find((n) => needleMatches(n, l.text.slice(0, MAX_LINE_CHARS)));
        if (!hit) continue;
        findings.push({
          ruleId: "custom-pattern",
          severity,
          path: file.path,
          lineStart: l.newLine,
          lineEnd: l.newLine,
          message: `This line matches the team pattern ${displayNeedle(hit)}:\n\n${quoteBody(c.body)}`,
          customContextId: c.id,
        });
      }
    }
  }
  return findings.sort(compareFindings);
}

/**
 * Context to hand to the model for a file: active CUSTOM_INSTRUCTIONs in scope, plus in-scope
 * PATTERNs that have no deterministic needles (unless `includeUnmatchablePatterns` is false).
 */
export function contextForModel(
  contexts: readonly CustomContextLike[],
  target: ScopeTarget,
  options: { includeUnmatchablePatterns?: boolean } = {},
): CustomContextLike[] {
  const withPatterns = options.includeUnmatchablePatterns !== false;
  return contexts.filter((c) => {
    if (!contextApplies(c, target)) return false;
    if (c.type === "CUSTOM_INSTRUCTION") return true;
    const { needles, costly } = patternNeedles(c.body);
    return withPatterns && needles.length === 0 && costly.length === 0;
  });
}

/** Active CUSTOM_INSTRUCTION contexts whose scope covers the target. */
export function instructionsFor(contexts: readonly CustomContextLike[], target: ScopeTarget): CustomContextLike[] {
  return contextForModel(contexts, target, { includeUnmatchablePatterns: false });
}
