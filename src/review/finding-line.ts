/**
 * A finding as one line of the review summary's Findings list: a complete sentence in valid Markdown,
 * whatever the finding's message looks like.
 *   - A lead-in ending with a colon says what follows: a list gives its first item and how many more
 *     ("…still call it the old way: `tests/test_cli.py:224` (its argument 1 now goes to `module_name`)
 *     and 3 more."), a quote is quoted inline ("…the team pattern `os.path.isdir`: Do not call …").
 *   - Whitespace is collapsed, inside code spans too (`( self, ctx: AppContext )` -> `(self, ctx: AppContext)`).
 *   - A line too long is cut at a word, or inside a code span that is then closed, never leaving a
 *     backtick open.
 */

/** Characters a summary line keeps of a finding's message. */
export const MAX_FINDING_LINE = 400;

/** A code span is not shortened below this. */
const MIN_SPAN = 48;

type Piece = { code: false; text: string } | { code: true; fence: string; text: string };

/** Text and code spans (a run of n backticks up to the next run of exactly n); an unclosed run is text. */
function piecesOf(line: string): Piece[] {
  const out: Piece[] = [];
  let text = "";
  let i = 0;
  while (i < line.length) {
    if (line[i] !== "`") {
      text += line[i++];
      continue;
    }
    let n = 0;
    while (line[i + n] === "`") n++;
    const fence = "`".repeat(n);
    let close = -1;
    for (let j = i + n; j < line.length; ) {
      if (line[j] !== "`") {
        j++;
        continue;
      }
      let m = 0;
      while (line[j + m] === "`") m++;
      if (m === n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close < 0) {
      text += fence;
      i += n;
      continue;
    }
    if (text) out.push({ code: false, text });
    text = "";
    out.push({ code: true, fence, text: line.slice(i + n, close) });
    i = close + n;
  }
  if (text) out.push({ code: false, text });
  return out;
}

const tidyCode = (text: string) => text.replace(/\s+/g, " ").replace(/([([{]) /g, "$1").replace(/ ([)\]}])/g, "$1").replace(/,([)\]}])/g, "$1");

const render = (p: Piece) => {
  if (!p.code) return p.text;
  const pad = p.text.startsWith("`") || p.text.endsWith("`") ? " " : "";
  return `${p.fence}${pad}${p.text}${pad}${p.fence}`;
};

/** Whitespace collapsed, in code spans too; the spans' own padding dropped. */
function tidy(line: string): Piece[] {
  return piecesOf(line.replace(/\s+/g, " ").trim()).map((p) => (p.code ? { ...p, text: tidyCode(p.text.trim()) } : p));
}

/** At most `max` characters of valid Markdown: cut at a word, or inside a code span that is then closed. */
export function cutMarkdown(line: string, max = MAX_FINDING_LINE): string {
  const pieces = tidy(line);
  const length = () => pieces.reduce((n, p) => n + render(p).length, 0);
  // Long code spans (signatures) give way first, each kept closed, so the sentence's end still shows.
  for (let longest = pieces.reduce((m, p) => (p.code ? Math.max(m, p.text.length) : m), 0); length() > max && longest > MIN_SPAN; longest = Math.max(MIN_SPAN, Math.floor(longest * 0.8))) {
    for (const p of pieces) if (p.code && p.text.length > longest) p.text = `${p.text.slice(0, longest - 1).trimEnd()}…`;
  }
  const whole = pieces.map(render).join("");
  if (whole.length <= max) return whole;
  let out = "";
  for (const p of pieces) {
    const rendered = render(p);
    if (out.length + rendered.length <= max - 1) {
      out += rendered;
      continue;
    }
    const room = max - 1 - out.length;
    if (p.code) {
      const overhead = 2 * p.fence.length + 2;
      if (room - overhead >= 12) out += `${p.fence}${p.text.slice(0, room - overhead - 1).trimEnd()}…${p.fence}`;
      else out = `${out.trimEnd()}…`;
      return out;
    }
    const cut = p.text.slice(0, Math.max(0, room));
    const word = cut.lastIndexOf(" ");
    out += word > room / 2 ? cut.slice(0, word) : cut;
    return `${out.trimEnd()}…`;
  }
  return out;
}

/** A list item's `path:line`: reason as `path:line` (reason). */
function itemSentence(item: string): string {
  const pieces = piecesOf(item);
  let head = "";
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    const at = p.code ? -1 : p.text.indexOf(": ");
    if (at < 0) {
      head += render(p);
      continue;
    }
    const rest = p.text.slice(at + 2) + pieces.slice(i + 1).map(render).join("");
    return `${head}${p.text.slice(0, at)} (${rest.trim()})`;
  }
  return head;
}

/** The finding's message as one summary line (see the file's comment). */
export function findingLine(message: string, max = MAX_FINDING_LINE): string {
  const lines = message.split("\n");
  const first = lines.findIndex((l) => l.trim() !== "");
  if (first < 0) return "";
  // The first line, and the next ones while a code span runs over them (a signature written over lines).
  let last = first;
  const open = (text: string) => piecesOf(text).some((p) => !p.code && p.text.includes("`"));
  while (last + 1 < lines.length && lines[last + 1]!.trim() !== "" && open(lines.slice(first, last + 1).join(" "))) last++;
  let lead = lines.slice(first, last + 1).map((l) => l.trim()).join(" ");
  if (lead.endsWith(":")) {
    const rest = lines.slice(last + 1);
    const start = rest.findIndex((l) => l.trim() !== "");
    const body = start < 0 ? [] : rest.slice(start);
    lead = lead.slice(0, -1).trimEnd();
    if (body[0] !== undefined && /^\s*[-*] /.test(body[0])) {
      // The list up to its first blank line: its first item, and the rest counted ("- and 5 more" as 5).
      const end = body.findIndex((l) => !/^\s*[-*] /.test(l));
      const items = (end < 0 ? body : body.slice(0, end)).map((l) => l.replace(/^\s*[-*] /, "").trim());
      const more = items.slice(1).reduce((n, item) => n + Number(/^…?and (\d+) more$/.exec(item)?.[1] ?? 1), 0);
      lead = `${lead}: ${itemSentence(items[0]!)}${more > 0 ? ` and ${more} more` : ""}`;
    } else if (body[0] !== undefined && /^\s*>/.test(body[0])) {
      const end = body.findIndex((l) => !/^\s*>/.test(l));
      const quote = (end < 0 ? body : body.slice(0, end)).map((l) => l.replace(/^\s*>\s?/, "")).join(" ").trim();
      lead = quote ? `${lead}: ${quote}` : lead;
    }
  }
  if (!/[.!?…]$/.test(lead)) lead = `${lead}.`;
  return cutMarkdown(lead, max);
}
