import { describe, expect, it } from "vitest";
import { withIndexedRepository, type SearchSource } from "./support.ts";

/**
 * JavaScript methods named by keywords: `throw (...args) {` of an object of methods given through
 * chained assignments (`const proto = module.exports = { ... }`, Koa's context), and the same inside a
 * chunk that holds several methods. Each is a definition of its name.
 */

/** A method of the context object, with a doc block, as a CommonJS module writes it. */
const method = (name: string, body: string) => [`  /**`, `   * The ${name} helper of the context.`, `   *`, `   * @api public`, `   */`, ``, `  ${name} () {`, `    ${body}`, `  },`, ``];

/** `const proto = module.exports = { ... }`: an object of methods given through chained assignments, longer than a chunk. */
const CONTEXT = [
  "'use strict'",
  "",
  "const createError = require('http-errors')",
  "const httpAssert = require('http-assert')",
  "",
  "const proto = module.exports = {",
  ...["inspect", "toJSON", "cookies", "state", "origin", "href", "path", "query", "querystring", "search"].flatMap((n) => method(n, `return this.request.${n}`)),
  "  /**",
  "   * Similar to .throw(), adds assertion.",
  "   *",
  "   *    this.assert(this.user, 401, 'Please login!');",
  "   */",
  "",
  "  assert: httpAssert,",
  "",
  ...["host", "hostname", "fresh", "stale", "socket", "protocol", "secure", "ips", "ip", "subdomains"].flatMap((n) => method(n, `return this.request.${n}`)),
  "  /**",
  "   * Throw an error with `status` (default 500) and `msg`.",
  "   *",
  "   *    this.throw(403)",
  "   *    this.throw(400, 'name required')",
  "   */",
  "",
  "  throw (...args) {",
  "    throw createError(...args)",
  "  },",
  "",
  ...["accepts", "acceptsEncodings", "acceptsCharsets", "acceptsLanguages", "is", "get", "set", "append", "remove", "redirect"].flatMap((n) => method(n, `return this.response.${n}`)),
  "  onerror (err) {",
  "    if (err == null) return",
  "    this.app.emit('error', err, this)",
  "  }",
  "}",
  "",
].join("\n");

/** The application: it throws and catches errors often, and its `respond` reads the context. */
const APPLICATION = [
  "'use strict'",
  "",
  "const context = require('./context')",
  "",
  "/**",
  " * Response helper: throw when the context cannot be written.",
  " */",
  "function respond (ctx) {",
  "  if (ctx.respond === false) return",
  "  if (!ctx.writable) throw new Error('context not writable')",
  "  const res = ctx.res",
  "  let body = ctx.body",
  "  if (body == null) ctx.throw(500, 'no body to throw')",
  "  if (typeof body === 'string') return res.end(body)",
  "  body = JSON.stringify(body)",
  "  res.end(body)",
  "}",
  "",
  "function handleRequest (ctx, fnMiddleware) {",
  "  const onerror = (err) => ctx.onerror(err)",
  "  return fnMiddleware(ctx).then(() => respond(ctx)).catch(onerror)",
  "}",
  "",
  "module.exports = { respond, handleRequest, context }",
  "",
].join("\n");

const linesOf = (text: string, needle: string): number => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

describe("a keyword-named method of an object literal is a definition (e2e)", () => {
  const { search } = withIndexedRepository("acme/koa-like", { "lib/context.js": CONTEXT, "lib/application.js": APPLICATION });
  const throwAt = linesOf(CONTEXT, "  throw (...args) {");
  const assertAt = linesOf(CONTEXT, "  assert: httpAssert,");

  /** The first source is lib/context.js and its span is the member itself (with its doc), not a window of the object. */
  const expectMember = (sources: SearchSource[], line: number, lastLine: number) => {
    expect(sources[0]?.filepath).toBe("lib/context.js");
    const { linestart, lineend } = sources[0]!;
    expect(linestart).toBeLessThanOrEqual(line);
    expect(lineend).toBeGreaterThanOrEqual(lastLine);
    expect(lineend! - linestart!).toBeLessThan(20);
  };

  for (const query of ["Where is ctx.throw implemented?", "ctx.throw", "`ctx.throw`"]) {
    it(`'${query}' finds the \`throw\` method of the context object`, async () => {
      expectMember(await search(query), throwAt, throwAt + 2);
    });
  }

  it("'Where is ctx.assert defined?' finds the `assert` member (`assert: httpAssert`)", async () => {
    expectMember(await search("Where is ctx.assert defined?"), assertAt, assertAt);
  });
});

/** A small object of methods stays one chunk: the answer's span is the method's lines inside it. */
const SMALL_CONTEXT = [
  "const createError = require('http-errors')",
  "",
  "const proto = module.exports = {",
  "  inspect () {",
  "    return this.toJSON()",
  "  },",
  "",
  "  throw (...args) {",
  "    throw createError(...args)",
  "  },",
  "",
  "  delete (key) {",
  "    return this.map.delete(key)",
  "  }",
  "}",
  "",
].join("\n");

describe("a keyword-named method inside a chunk is read as a definition (e2e)", () => {
  const { search } = withIndexedRepository("acme/small-context", {
    "lib/context.js": SMALL_CONTEXT,
    "lib/request.js": "module.exports = function request (ctx, url) {\n  return ctx.app.fetch(url)\n}\n",
  });

  it("'Where is ctx.throw implemented?' spans the `throw` method, not the whole object", async () => {
    const sources = await search("Where is ctx.throw implemented?");
    expect(sources.find((s) => s.filepath === "lib/context.js")).toMatchObject({ linestart: 8, lineend: 10 });
  });
});

