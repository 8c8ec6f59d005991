import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * A follow-up that names nothing of its own ("and where is it tested?") is about the earlier question's
 * subject; "where is X tested?" asks for X's tests. Through POST /v2/query with a conversation, and
 * through a session's follow-up.
 */
const test = (name: string, body: string[]) => [`const { expect } = require('chai');`, `const ${name} = require('../lib/${name}');`, "", ...body, ""].join("\n");
const SERVER = {
  "lib/response.js": [
    "// The response helpers.",
    "function json(res, value) {",
    "  const body = JSON.stringify(value);",
    "  res.setHeader('Content-Type', 'application/json');",
    "  return res.end(body);",
    "}",
    "",
    "function send(res, body) {",
    "  if (typeof body === 'object') return json(res, body);",
    "  res.setHeader('Content-Type', 'text/html');",
    "  return res.end(String(body));",
    "}",
    "",
    "function redirect(res, url) {",
    "  res.statusCode = 302;",
    "  res.setHeader('Location', url);",
    "  return res.end();",
    "}",
    "module.exports = { json, send, redirect };",
    "",
  ].join("\n"),
  "lib/router.js": ["// Routes requests to handlers by method and path.", "function route(table, req) {", "  return table[`${req.method} ${req.url}`];", "}", "module.exports = { route };", ""].join("\n"),
  "test/response.json.js": test("response", ["describe('json', () => {", "  it('writes the value as JSON with its content type', () => {", "    const res = fakeResponse();", "    response.json(res, { a: 1 });", "    expect(res.body).to.equal('{\"a\":1}');", "  });", "});"]),
  "test/response.send.js": test("response", ["describe('send', () => {", "  it('sends a string as html', () => {", "    const res = fakeResponse();", "    response.send(res, 'hi');", "    expect(res.headers['Content-Type']).to.equal('text/html');", "  });", "});"]),
  "test/router.js": test("router", ["describe('route', () => {", "  it('finds the handler of a method and path', () => {", "    expect(router.route({ 'GET /': 1 }, { method: 'GET', url: '/' })).to.equal(1);", "  });", "});"]),
};

describe("follow-up questions (e2e)", () => {
  const { search, converse } = withIndexedRepository("acme/server", SERVER);

  it("'where is X tested?' leads with X's tests", async () => {
    const [first] = await search("Where is response.json tested?");
    expect(first?.filepath).toBe("test/response.json.js");
  });

  it("a follow-up without a name of its own is about the earlier question's subject", async () => {
    const first = await converse([{ role: "user", content: "Where is response.json implemented?" }]);
    expect(first.sources[0]?.filepath).toBe("lib/response.js");
    const followUp = await converse([
      { role: "user", content: "Where is response.json implemented?" },
      { role: "assistant", content: first.message },
      { role: "user", content: "and where is it tested?" },
    ]);
    expect(followUp.sources[0]?.filepath).toBe("test/response.json.js");
  });

  it("a follow-up that names something of its own is read on its own", async () => {
    const followUp = await converse([
      { role: "user", content: "Where is response.json implemented?" },
      { role: "assistant", content: "In lib/response.js." },
      { role: "user", content: "and where does the router find a handler?" },
    ]);
    expect(followUp.sources[0]?.filepath).toBe("lib/router.js");
  });
});
