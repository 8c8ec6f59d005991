/**
 * Learns candidate patterns from human review comments: points that reviewers made on at least
 * `minPullRequests` (default 2) different pull requests.
 *
 * Each comment becomes a set of content words (lower-cased, code fences/URLs/mentions removed,
 * stop words dropped, light suffix stemming; inline code kept as a token). Comments with fewer than
 * 3 content words ("LGTM", "nit") are ignored. Comments are taken in (prNumber, id) order and each
 * joins the existing group with the highest average Jaccard similarity to the group's members when
 * that average is >= `threshold` (default 0.5), else starts a new group. Groups spanning enough
 * distinct pull requests are returned with a representative sentence (from the member most similar
 * to the others). A comment never joins a group holding opposite advice ("return None instead of
 * raising ValueError" and "raise ValueError instead of returning None"; see adviceOf). Fully
 * deterministic for a given input set, whatever its order.
 */

export type HumanComment = { id: string; prNumber: number; body: string; path?: string | null };

export type LearnedPattern = {
  /** A clean representative sentence. */
  body: string;
  /** Number of distinct pull requests with such a comment. */
  evidenceCount: number;
  commentIds: string[];
  prNumbers: number[];
  /** Distinct file paths the comments were made on. */
  paths: string[];
};

export const MAX_LEARNING_COMMENTS = 2000;

const STOP = new Set(
  (
    "a an the and or but if then else of to in on at by for with from as is are was were be been being it its this that these those " +
    "i we you he she they me us our your my their them there here do does did done can could should would will shall may might must " +
    "not no yes so than too very just also please pls maybe perhaps think thought use using used make made get got here's let's " +
    "what which who when where why how all any some each more most other such only own same into over under again further once " +
    "about above below up down out off have has had having like one two nit lgtm thanks thank"
  ).split(" "),
);

function stem(w: string): string {
  for (const suffix of ["ing", "ed", "es", "s"]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) return w.slice(0, -suffix.length);
  }
  return w;
}

/**
 * The lines of `lines` with each fenced block (``` or ~~~, closed by a line starting with the same
 * marker) made one " "; an unclosed fence stays text and the lines after it are read again. One pass
 * per marker at most: a pattern that looked for each fence's close from every fence line was quadratic
 * on a comment of unclosed fences.
 */
function withoutFences(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = /^(```|~~~)/.exec(lines[i]!)?.[1];
    let close = -1;
    if (marker !== undefined) {
      for (let j = i + 1; j < lines.length; j++) {
        if (lines[j]!.startsWith(marker)) {
          close = j;
          break;
        }
      }
    }
    if (close < 0) {
      out.push(lines[i]!);
      continue;
    }
    out.push(" ");
    i = close;
  }
  return out;
}

/** A comment's prose: fenced code, links' targets, URLs, mentions and tags taken out (a link's text, its target and a tag are read up to a bound, so no pattern is quadratic on a comment of `[` or `<`). */
function stripMarkup(body: string): string {
  return withoutFences(body.split("\n"))
    .join("\n")
    .replace(/!?\[([^\]]{0,500})\]\([^)]{0,2000}\)/g, "$1")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/(^|\s)@[\w-]+/g, " ")
    .replace(/<[^>]{1,500}>/g, " ");
}

export function contentWords(body: string): Set<string> {
  const words = new Set<string>();
  const text = stripMarkup(body);
  for (const m of text.matchAll(/`([^`\n]{1,60})`/g)) words.add(`\`${m[1]!.trim().toLowerCase()}`);
  for (const raw of text.replace(/`[^`\n]{1,60}`/g, " ").toLowerCase().match(/[a-z0-9_]+/g) ?? []) {
    if (raw.length < 2 || STOP.has(raw) || /^\d+$/.test(raw)) continue;
    words.add(stem(raw));
  }
  return words;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  return inter / (a.size + b.size - inter);
}

/** First sentence of the comment, markup removed, capitalised, ending with punctuation. */
export function representativeSentence(body: string): string {
  const text = stripMarkup(body)
    .replace(/^[>*\-+#\s]+/gm, "")
    .replace(/\s+/g, " ")
    .trim();
  const first = /^(.+?[.!?])(\s|$)/.exec(text)?.[1] ?? text;
  let s = contentWords(first).size >= 3 ? first : text;
  if (s.length > 200) s = `${s.slice(0, 199).trimEnd()}…`;
  s = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?…]$/.test(s) ? s : `${s}.`;
}

/** A word's root for comparing advice: stemmed, a final "e" dropped (raise / raising -> rais). */
const root = (w: string) => w.replace(/e$/, "");

const INSTEAD = /\b(instead of|rather than|in place of)\b/i;
const AGAINST = /\b(avoid|avoiding|don't|do not|dont|never|stop|no longer)\b/i;

/**
 * What a comment recommends and what it advises against, as word roots: "X instead of Y" and "X
 * rather than Y" recommend X over Y; "avoid Y", "don't Y", "never Y" advise against Y.
 */
export function adviceOf(body: string): { preferred: Set<string>; unwanted: Set<string> } {
  const text = stripMarkup(body).split(/(?<=[.!?])\s/)[0] ?? "";
  const roots = (part: string) => new Set([...contentWords(part)].map(root));
  const instead = INSTEAD.exec(text);
  if (instead) return { preferred: roots(text.slice(0, instead.index)), unwanted: roots(text.slice(instead.index + instead[0].length)) };
  const against = AGAINST.exec(text);
  if (against) return { preferred: new Set(), unwanted: roots(text.slice(against.index + against[0].length)) };
  return { preferred: roots(text), unwanted: new Set() };
}

const shared = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].filter((w) => b.has(w)).length;

/**
 * Two comments give opposite advice when each advises against some of what the other recommends, and
 * these crossings outnumber what they agree on (topic words may sit on either side of "instead of";
 * "... to avoid partial writes" names an outcome, not a rival).
 */
export function opposite(a: ReturnType<typeof adviceOf>, b: ReturnType<typeof adviceOf>): boolean {
  const forward = shared(a.preferred, b.unwanted);
  const backward = shared(a.unwanted, b.preferred);
  const same = shared(a.preferred, b.preferred) + shared(a.unwanted, b.unwanted);
  return forward > 0 && backward > 0 && forward + backward > same;
}

type Member = { c: HumanComment; words: Set<string>; advice: ReturnType<typeof adviceOf> };
type Group = { members: Member[] };

export function learnPatterns(comments: readonly HumanComment[], options: { threshold?: number; minPullRequests?: number } = {}): LearnedPattern[] {
  const threshold = options.threshold ?? 0.5;
  const minPrs = options.minPullRequests ?? 2;
  const items = [...comments]
    .sort((a, b) => a.prNumber - b.prNumber || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((c) => ({ c, words: contentWords(c.body), advice: adviceOf(c.body) }))
    .filter((x) => x.words.size >= 3)
    .slice(0, MAX_LEARNING_COMMENTS);
  const groups: Group[] = [];
  for (const item of items) {
    let best: Group | null = null;
    let bestScore = threshold;
    for (const g of groups) {
      if (g.members.some((m) => opposite(item.advice, m.advice))) continue; // opposite advice never merges
      let sum = 0;
      for (const m of g.members) sum += jaccard(item.words, m.words);
      const avg = sum / g.members.length;
      if (avg >= bestScore && (best === null || avg > bestScore)) {
        best = g;
        bestScore = avg;
      }
    }
    if (best) best.members.push(item);
    else groups.push({ members: [item] });
  }
  const out: LearnedPattern[] = [];
  for (const g of groups) {
    const prs = [...new Set(g.members.map((m) => m.c.prNumber))].sort((a, b) => a - b);
    if (prs.length < minPrs) continue;
    let rep = g.members[0]!;
    let repScore = -1;
    for (const m of g.members) {
      let sum = 0;
      for (const o of g.members) if (o !== m) sum += jaccard(m.words, o.words);
      const body = representativeSentence(m.c.body);
      const better = sum > repScore + 1e-9 || (Math.abs(sum - repScore) <= 1e-9 && body.length < representativeSentence(rep.c.body).length);
      if (better) {
        rep = m;
        repScore = sum;
      }
    }
    out.push({
      body: representativeSentence(rep.c.body),
      evidenceCount: prs.length,
      commentIds: g.members.map((m) => m.c.id),
      prNumbers: prs,
      paths: [...new Set(g.members.map((m) => m.c.path).filter((p): p is string => typeof p === "string" && p !== ""))].sort(),
    });
  }
  return out.sort((a, b) => b.evidenceCount - a.evidenceCount || b.commentIds.length - a.commentIds.length || (a.body < b.body ? -1 : a.body > b.body ? 1 : 0));
}
