/** @jsxImportSource hono/jsx */
/**
 * Safe rendering of text that comes from hosts and users: markdown (comment bodies, answers,
 * descriptions) through markdown-it with raw HTML reduced to a few attribute-less elements
 * (markdown-html.ts), images off and only http(s), mailto and relative links, table alignment as
 * classes (the CSP allows no inline style) and each table in its own scrolling box; code through
 * highlight.js, whose output escapes the source. Everything else in the pages goes through JSX, which
 * escapes every value.
 */
import MarkdownIt from "markdown-it";
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import markdown from "highlight.js/lib/languages/markdown";
import php from "highlight.js/lib/languages/php";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import swift from "highlight.js/lib/languages/swift";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { raw } from "hono/html";
import { allowlistHtml } from "./markdown-html.ts";
import { excerptLineNumbers } from "../../retrieval/excerpt.ts";

const LANGUAGES = { bash, c, cpp, csharp, css, go, java, javascript, json, kotlin, markdown, php, python, ruby, rust, sql, swift, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

const BY_EXTENSION: Record<string, string> = {
  sh: "bash", bash: "bash", c: "c", h: "c", cc: "cpp", cpp: "cpp", hpp: "cpp", cs: "csharp", css: "css", go: "go",
  java: "java", js: "javascript", mjs: "javascript", cjs: "javascript", jsx: "javascript", json: "json", kt: "kotlin",
  md: "markdown", php: "php", py: "python", pyi: "python", rb: "ruby", rs: "rust", sql: "sql", swift: "swift",
  ts: "typescript", tsx: "typescript", mts: "typescript", cts: "typescript", html: "xml", xml: "xml", svg: "xml",
  vue: "xml", yml: "yaml", yaml: "yaml",
};

/** The highlight.js language of a file path, or null (shown as plain, escaped text). */
export function languageOf(path: string | null | undefined): string | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path ?? "")?.[1]?.toLowerCase();
  return ext ? (BY_EXTENSION[ext] ?? null) : null;
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** Highlighted HTML of `code` (escaped by highlight.js), or the escaped text. */
export function highlight(code: string, language: string | null): string {
  if (language && hljs.getLanguage(language)) {
    try {
      return hljs.highlight(code, { language, ignoreIllegals: true }).value;
    } catch {
      /* plain below */
    }
  }
  return escapeHtml(code);
}

/**
 * A code block with line numbers from `firstLine`. highlight.js spans can cross lines, so the code is
 * highlighted whole and the gutter is a separate column.
 */
export function CodeBlock(props: { code: string; path?: string | null; firstLine?: number | null; mark?: [number, number] | null }) {
  // An excerpt's marker lines (the lines it leaves out, ../../retrieval/excerpt.ts) take no number.
  const numbers = excerptLineNumbers(props.code, props.firstLine ?? 1);
  const mark = props.mark;
  return (
    <div class="code" data-language={languageOf(props.path) ?? "text"}>
      <pre class="gutter" aria-hidden="true">
        {numbers.map((n) => (n === null ? "⋮\n" : mark && n >= mark[0] && n <= mark[1] ? <b>{n}{"\n"}</b> : `${n}\n`))}
      </pre>
      <pre class="source"><code class="hljs">{raw(highlight(props.code, languageOf(props.path)))}</code></pre>
    </div>
  );
}

const SAFE_LINK = /^(https?:|mailto:|#|\/(?!\/)|\.{0,2}\/|[^:/?#]+([/?#]|$))/i;

// Raw HTML is parsed, then reduced to the allowed elements by allowlistHtml (markdown-html.ts).
const md = new MarkdownIt({ html: true, linkify: false, typographer: false, breaks: false });
md.disable(["image"]);
md.use(allowlistHtml);
// A column's alignment as a class (the CSP refuses markdown-it's `style="text-align:..."`).
md.core.ruler.push("align_classes", (state) => {
  for (const token of state.tokens) {
    if ((token.type !== "th_open" && token.type !== "td_open") || !token.attrs) continue;
    const align = /^text-align:(left|center|right)$/.exec(String(token.attrGet("style") ?? ""))?.[1];
    token.attrs = token.attrs.filter(([name]) => name !== "style");
    if (align) token.attrJoin("class", `align-${align}`);
  }
});
// A wide table scrolls in its own box instead of widening the page.
md.renderer.rules.table_open = (tokens, idx, options, _env, self) => `<div class="table-wrap">${self.renderToken(tokens, idx, options)}`;
md.renderer.rules.table_close = (tokens, idx, options, _env, self) => `${self.renderToken(tokens, idx, options)}</div>\n`;
md.validateLink = (url: string) => SAFE_LINK.test(url.trim());
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet("rel", "nofollow noopener noreferrer");
  return defaultLinkOpen(tokens, idx, options, env, self);
};
md.options.highlight = (code: string, lang: string) => highlight(code, lang && hljs.getLanguage(lang) ? lang : null);
// A ```suggestion block (GitHub's and GitLab's) replaces the commented lines with its code: labelled as
// such, and an empty one (the lines removed) said in words instead of an empty code box.
const defaultFence = md.renderer.rules.fence!;
md.renderer.rules.fence = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  if (token.info.trim().split(/\s+/)[0] !== "suggestion") return defaultFence(tokens, idx, options, env, self);
  if (token.content.trim() === "") return `<p class="suggestion-note">Suggested change: remove the commented line(s).</p>\n`;
  return `<p class="suggestion-note">Suggested change (replaces the commented line(s)):</p>\n${defaultFence(tokens, idx, options, env, self)}`;
};

/** Markdown from a host or a user, rendered with only the allowed HTML elements, no images and only safe links. */
export function Markdown(props: { text: string | null | undefined; class?: string }) {
  return <div class={`markdown ${props.class ?? ""}`.trim()}>{raw(md.render(props.text ?? ""))}</div>;
}
