/**
 * Scoring of one offline answer against the definitions that answer its question:
 * - named: some line of the answer names one of them (the name as a whole word, `Class.name` counts)
 *   with a line range that overlaps it, while the file in view is that definition's file: the file is
 *   in view from the line that mentions it (`path`, `path:12-30`) until another source file is mentioned;
 * - file rank: where the first answer's file comes among the distinct files of the answer's sources
 *   (whether the ranking found the file, whatever the answer then says about it);
 * - length: characters before the first code block (the prose a reader reads first), and in all.
 */
export type Expected = { path: string; name: string; linestart: number; lineend: number };

export type Score = { named: boolean; proseChars: number; totalChars: number };

const RANGE = /(\d+)\s*[–—-]\s*(\d+)/g;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function scoreAnswer(answer: string, expected: readonly Expected[], sourcePaths: readonly string[]): Score {
  const fence = answer.indexOf("```");
  const proseChars = fence === -1 ? answer.length : fence;
  // Longest paths first, so `a/b/c.py` wins over `c.py`.
  const paths = [...new Set([...sourcePaths, ...expected.map((e) => e.path)])].sort((a, b) => b.length - a.length);
  let inView: string | null = null;
  let named = false;
  let inFence = false;
  for (const line of answer.split("\n")) {
    if (line.trimStart().startsWith("```")) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const mentioned = paths.find((p) => line.includes(p));
    if (mentioned) inView = mentioned;
    for (const e of expected) {
      if (inView !== e.path) continue;
      if (!new RegExp(`(^|[^\\w$])${escapeRegExp(e.name)}($|[^\\w$])`).test(line)) continue;
      for (const m of line.matchAll(RANGE)) {
        const start = Number(m[1]);
        const end = Number(m[2]);
        if (start <= e.lineend && end >= e.linestart) named = true;
      }
    }
  }
  return { named, proseChars, totalChars: answer.length };
}

/** Rank (from 1) of the first answer's file among the distinct files of an answer's sources, or null when it is not one of them. */
export const fileRankOf = (sources: readonly { filepath: string }[], answers: readonly Expected[]): number | null => {
  const files = [...new Set(sources.map((s) => s.filepath))];
  const at = files.findIndex((f) => answers.some((a) => a.path === f));
  return at === -1 ? null : at + 1;
};

export const median = (xs: readonly number[]): number => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
