import { describe, expect, it } from "vitest";
import { CodeBlock, Markdown, highlight, languageOf } from "../../src/faces/console/render.tsx";
import { createSessionStore, sameToken } from "../../src/faces/console/session.ts";

const html = (node: unknown) => String(node);

describe("markdown from hosts and users", () => {
  it("keeps raw HTML as text, drops images and unsafe links, keeps safe links", () => {
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

  it("highlights fenced code with escaped source", () => {
    const out = html(Markdown({ text: "```ts\nconst x = '<img src=x onerror=alert(1)>';\n```" }));
    expect(out).toContain('<span class="hljs-keyword">const</span>');
    expect(out).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(out).not.toContain("<img");
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
