/** The markdown structure of a report: prose, fenced code, stack frames (../query-analysis.ts). */

type Zone = "prose" | "code" | "frame" | "skip";
export type Line = { text: string; zone: Zone; fenceLang: string | null };

export function splitLines(text: string): { lines: Line[]; fenceLangs: string[] } {
  const raw = text
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  const lines: Line[] = [];
  const fenceLangs: string[] = [];
  let fence: { char: string; len: number; lang: string } | null = null;
  for (const t of raw) {
    const f = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/.exec(t);
    if (fence === null && f) {
      const marks = f[1] ?? "```";
      fence = { char: marks[0] ?? "`", len: marks.length, lang: (f[2] ?? "").toLowerCase() };
      if (fence.lang !== "") fenceLangs.push(fence.lang);
      lines.push({ text: "", zone: "skip", fenceLang: null });
      continue;
    }
    if (fence !== null) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(t);
      if (close && close[1]?.[0] === fence.char && (close[1]?.length ?? 0) >= fence.len) {
        fence = null;
        lines.push({ text: "", zone: "skip", fenceLang: null });
        continue;
      }
      lines.push({ text: t, zone: "code", fenceLang: fence.lang });
      continue;
    }
    lines.push({ text: t, zone: /^(?: {4}|\t)\S/.test(t) && !/^\s*[-*+]\s/.test(t) ? "code" : "prose", fenceLang: null });
  }
  return { lines, fenceLangs };
}

// ---------------------------------------------------------------------------------------------
// The analysis.
