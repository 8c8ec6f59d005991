import { describe, expect, it } from "vitest";
import { CodeBlock, Markdown, highlight, languageOf } from "../../src/faces/console/render.tsx";
import { excerptOf } from "../../src/retrieval/excerpt.ts";
import { createSessionStore, sameToken } from "../../src/faces/console/session.ts";
import { renderSummary } from "../../src/review/summary.ts";
import { added } from "../review/helpers.ts";

const html = (node: unknown) => String(node);

describe("markdown from hosts and users", () => {
  it("keeps other raw HTML as text, drops images and unsafe links, keeps safe links", () => {
    const out = html(
      Markdown({
        text: [
          '<img src=x onerror="alert(1)"> <script>alert(2)</script>',
          "[a](javascript:alert(3)) [b](JaVaScRiPt:alert(4)) [c](data:text/html,<b>) [d](vbscript:x) [e](&#106;avascript:alert(5))",
          "[ok](https://example.com/x) [rel](docs/readme.md) [mail](mailto:a@b.c)",
          "![img](https://example.com/a.png)",
        ].join("\n\n"),
      }),
    );
    expect(out).not.toMatch(/<img|<script/i);
    expect(out).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(out).not.toMatch(/href="(javascript|vbscript|data):/i);
    expect(out).not.toMatch(/href="[^"]*&#106;/i);
    expect(out).toContain('<a href="https://example.com/x" rel="nofollow noopener noreferrer">ok</a>');
    expect(out).toContain('href="docs/readme.md"');
    expect(out).toContain('href="mailto:a@b.c"');
  });

  it("renders the HTML of a review summary: <sub>, <details><summary>, numeric columns aligned by class", () => {
    const summary = renderSummary({ files: [added("src/a.ts", ["x", "y"])], findings: [], strictness: 3, skipped: [{ path: "big.bin", reason: "binary" }] });
    const out = html(Markdown({ text: summary }));
    expect(out).toContain("<p><sub>Strictness 3: showing medium and above.</sub></p>");
    expect(out).toMatch(/<details><summary>1 file not reviewed<\/summary>\s*<ul>\s*<li><code>big.bin<\/code>: binary<\/li>\s*<\/ul>\s*<\/details>/);
    expect(out).not.toContain("&lt;");
    expect(out).not.toContain("style=");
    expect(out).toContain('<div class="table-wrap"><table>');
    expect(out).toContain('<th class="align-right">+</th>');
    expect(out).toContain('<td class="align-right">2</td>');
  });

  it("keeps only the allowed elements, with no attribute but details' open, and escapes every other tag", () => {
    const out = html(
      Markdown({
        text: [
          '<details open ontoggle="alert(1)" class=x><summary style="color:red">More</summary>',
          "",
          "Press <kbd>Ctrl</kbd>+<KBD>C</KBD>, H<sub>2</sub>O, x<sup>2</sup>, <b onmouseover=alert(2)>bold</b>, <i>it</i>, <code>a<b</code><br/>next<br>",
          "",
          "</details>",
          "",
          '<a href="javascript:alert(3)">x</a> <span style="x">y</span> <svg onload=alert(4)></svg> <iframe src=//evil></iframe> <sub/>z',
          "",
          "<style>body{display:none}</style>",
        ].join("\n"),
      }),
    );
    expect(out).toContain("<details open><summary>More</summary>");
    expect(out).toContain("Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, H<sub>2</sub>O, x<sup>2</sup>, <b>bold</b>, <i>it</i>, <code>a&lt;b</code><br>next<br>");
    expect(out).toContain("&lt;a href=&quot;javascript:alert(3)&quot;&gt;x&lt;/a&gt; &lt;span style=&quot;x&quot;&gt;y&lt;/span&gt;");
    expect(out).toContain("&lt;svg onload=alert(4)&gt;&lt;/svg&gt; &lt;iframe src=//evil&gt;&lt;/iframe&gt; <sub></sub>z");
    expect(out).toContain("&lt;style&gt;body{display:none}&lt;/style&gt;");
    // No tag but the allowed ones, and none with an attribute (details may say open).
    const tags = [...out.matchAll(/<\/?([a-z0-9]+)([^>]*)>/gi)];
    const markdownTags = new Set(["div", "p", "ul", "li", "table", "thead", "tbody", "tr", "th", "td"]);
    for (const [tag, name, attributes] of tags) {
      expect(markdownTags.has(name!) || ["b", "i", "kbd", "sub", "sup", "code", "br", "details", "summary"].includes(name!), tag).toBe(true);
      if (!markdownTags.has(name!)) expect(attributes === "" || tag === "<details open>", tag).toBe(true);
    }
  });

  it("drops HTML comments and balances the allowed elements within their markdown block", () => {
    const out = html(Markdown({ text: "<!-- loupe:summary -->\nan <b>unclosed bold\n\n- a <i>list item\n- </sub></details> stray ends\n\n<details>\n\nleft open" }));
    expect(out).not.toContain("loupe:summary");
    expect(out).toContain("<p>an <b>unclosed bold</b></p>");
    expect(out).toContain("<li>a <i>list item</i></li>");
    expect(out).toContain("<li> stray ends</li>"); // the stray end tags dropped
    expect(out).toMatch(/<details>\s*<p>left open<\/p>\s*<\/details><\/div>$/);
  });

  it("highlights fenced code with escaped source", () => {
    const out = html(Markdown({ text: "```ts\nconst x = '<img src=x onerror=alert(1)>';\n```" }));
    expect(out).toContain('<span class="hljs-keyword">const</span>');
    expect(out).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(out).not.toContain("<img");
  });

  it("labels a suggestion block, and says in words that an empty one removes the lines", () => {
    const removal = html(Markdown({ text: "Leftover `debugger` statement.\n\n```suggestion\n```" }));
    expect(removal).toContain("Suggested change: remove the commented line(s).");
    expect(removal).not.toContain("<pre");
    const change = html(Markdown({ text: "Use a constant.\n\n```suggestion\nconst LIMIT = 10;\n```" }));
    expect(change).toContain("Suggested change (replaces the commented line(s)):");
    expect(change).toContain("LIMIT");
  });
});

describe("code blocks", () => {
  it("escapes code in any language, highlighted or not, and numbers its lines", () => {
    expect(languageOf("src/app.ts")).toBe("typescript");
    expect(languageOf("Makefile")).toBeNull();
    expect(highlight("</pre><script>x</script>", null)).toBe("&lt;/pre&gt;&lt;script&gt;x&lt;/script&gt;");
    const out = html(CodeBlock({ code: "a\n</code><script>x()</script>", path: "x.py", firstLine: 10, mark: [11, 11] }));
    expect(out).not.toContain("<script>");
    expect(out).toContain("10\n");
    expect(out).toContain("<b>11\n</b>");
  });

  it("numbers an excerpt of a long definition by the file's lines: its markers take none", () => {
    const code = excerptOf(Array.from({ length: 300 }, (_, i) => (i === 0 ? "function f() {" : `  x${i + 1}();`)).join("\n"), 1, { linestart: 161, lineend: 240 }, 120);
    expect(code.split("\n").slice(0, 3)).toEqual(["function f() {", "… lines 2-160 left out", "  x161();"]);
    const out = html(CodeBlock({ code, path: "f.js", firstLine: 1 }));
    const gutter = /<pre class="gutter"[^>]*>([\s\S]*?)<\/pre>/.exec(out)![1]!.split("\n");
    expect(gutter.slice(0, 4)).toEqual(["1", "⋮", "161", "162"]);
    // 118 lines of the window from 161, then the count of the lines after it.
    expect(gutter.slice(-3)).toEqual(["278", "⋮", ""]);
    expect(code.split("\n").at(-1)).toBe("… 22 more lines");
  });
});

describe("console sessions", () => {
  it("keeps only the hash of a session id, expires idle sessions, and ends a key's sessions", () => {
    let now = 1_000;
    const store = createSessionStore({ idleMs: 100, maxAgeMs: 1_000, now: () => now });
    const principal = { keyId: "k1", orgId: "o1", role: "member" as const };
    const { id, session } = store.create(principal);
    expect(store.storedKeys()).not.toContain(id);
    expect(store.storedKeys()[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(store.get(id)?.principal).toEqual(principal);
    expect(session.csrf).not.toBe(id);
    now += 101;
    expect(store.get(id)).toBeUndefined();
    const second = store.create(principal);
    store.destroyKey("k1");
    expect(store.get(second.id)).toBeUndefined();
    expect(store.get(undefined)).toBeUndefined();
  });

  it("compares tokens whole", () => {
    expect(sameToken("abc", "abc")).toBe(true);
    expect(sameToken("abc", "abd")).toBe(false);
    expect(sameToken("abc", "ab")).toBe(false);
    expect(sameToken(undefined, undefined)).toBe(false);
    expect(sameToken("", "")).toBe(false);
  });
});
