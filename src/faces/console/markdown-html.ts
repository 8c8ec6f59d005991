/**
 * The raw HTML the console keeps in markdown from hosts, users and review bots: a few attribute-less
 * elements review bots write on purpose (`<sub>`, `<details><summary>`, `<br>`, `<kbd>` ...), and
 * nothing else. A markdown-it core rule rewrites every `html_block` and `html_inline` token after
 * parsing: an allowed tag is written anew from its name alone (its attributes dropped, so no handler,
 * style or link survives), any other tag is shown as its source text, comments are dropped, and the
 * text between tags is escaped. Tags are balanced within the markdown element they appear in (a
 * paragraph, a list item, a table cell, the whole text): a stray end tag is dropped and whatever is
 * left open is closed there, so no allowed element leaks past its block or out of the rendering.
 */
import type { MarkdownIt, StateCore, Token } from "markdown-it";

/** Elements kept (lower case). `br` is void; `details` may keep its boolean `open`. */
const ALLOWED_HTML = new Set([
  "b", "i", "em", "strong", "s", "del", "ins", "mark", "small", "sub", "sup", "code", "kbd", "samp", "var", "abbr", "u",
  "br", "details", "summary",
]);
const VOID = new Set(["br"]);

const ATTRIBUTE = String.raw`\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^\s"'=<>\x60]+|'[^']*'|"[^"]*"))?`;
const HTML_PIECE = new RegExp(
  String.raw`(<!--[\s\S]*?-->)|<\/([A-Za-z][A-Za-z0-9-]*)\s*>|<([A-Za-z][A-Za-z0-9-]*)((?:${ATTRIBUTE})*)\s*(\/?)>`,
  "g",
);

/** A `details` tag's attributes that keep its boolean `open` (no g flag: `test` keeps no state). */
const OPEN_ATTRIBUTE = /(^|\s)open(\s*=|\s|$)/i;

const escapeSource = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
/** Text of an HTML block: character references stay as written, anything else that could start markup is escaped. */
const escapeText = (s: string) =>
  s.replace(/&(?![A-Za-z][A-Za-z0-9]{1,31};|#[0-9]{1,7};|#[xX][0-9A-Fa-f]{1,6};)/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const closing = (open: string[]) => open.splice(0).reverse().map((name) => `</${name}>`).join("");

/**
 * `html` (a token's raw HTML) with only the allowed elements, attribute-less; `open` is the stack of
 * allowed elements open in the enclosing markdown element, updated in place.
 */
function allowlistedHtml(html: string, open: string[]): string {
  let out = "";
  let last = 0;
  for (const m of html.matchAll(HTML_PIECE)) {
    out += escapeText(html.slice(last, m.index));
    last = m.index + m[0].length;
    const [source, comment, endName, startName, attributes = "", selfClosing] = m;
    if (comment) continue;
    const name = (endName ?? startName ?? "").toLowerCase();
    if (!ALLOWED_HTML.has(name)) {
      out += escapeSource(source);
    } else if (endName) {
      const at = open.lastIndexOf(name);
      if (at >= 0) out += closing(open.splice(at));
    } else if (VOID.has(name)) {
      out += `<${name}>`;
    } else {
      const keepOpen = name === "details" && OPEN_ATTRIBUTE.test(attributes);
      out += `<${name}${keepOpen ? " open" : ""}>`;
      if (selfClosing) out += `</${name}>`;
      else open.push(name);
    }
  }
  return out + escapeText(html.slice(last));
}

type TokenType = StateCore["Token"];

const htmlToken = (Token: TokenType, type: "html_block" | "html_inline", content: string) => {
  const token = new Token(type, "", 0);
  token.content = content;
  token.block = type === "html_block";
  return token;
};

/** Rewrites the HTML tokens of `tokens` (and of their inline children), balancing per markdown element. */
function filterTokens(tokens: Token[], Token: TokenType, type: "html_block" | "html_inline"): Token[] {
  const out: Token[] = [];
  const frames: string[][] = [[]];
  for (const token of tokens) {
    if (token.nesting === -1 && frames.length > 1) {
      const left = closing(frames.pop()!);
      if (left) out.push(htmlToken(Token, type, left));
    }
    if (token.type === "html_block" || token.type === "html_inline") token.content = allowlistedHtml(token.content, frames[frames.length - 1]!);
    if (token.type === "inline" && token.children) token.children = filterTokens(token.children, Token, "html_inline");
    out.push(token);
    if (token.nesting === 1) frames.push([]);
  }
  const left = frames.reverse().map(closing).join("");
  if (left) out.push(htmlToken(Token, type, left));
  return out;
}

/** The markdown-it plugin (for a parser with `html: true`): keep only the allowed elements of the raw HTML. */
export function allowlistHtml(md: MarkdownIt): void {
  md.core.ruler.push("allowlist_html", (state: StateCore) => {
    state.tokens = filterTokens(state.tokens, state.Token, "html_block");
  });
}
