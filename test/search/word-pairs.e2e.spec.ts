/**
 * Two words a query writes together ("health check") find the code that writes them together (a
 * comment's "health check", `skipHealthCheck`, `health_check`) before code holding the same words apart.
 * Through POST /v2/search on a real server and a repository indexed from a real git host fixture.
 */
import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

const REPO = {
  // The same words, apart: "check the health". Its path sorts first, so it wins any tie.
  "monitor/watch.go": [
    "package monitor",
    "",
    "// Watch wraps a backend: its requests check the health of the backend, untraced.",
    "func Watch(next Handler) Handler {",
    "\treturn wrap(next)",
    "}",
    "",
  ].join("\n"),
  // The same words, "health check" together.
  "proxy/trace.go": [
    "package proxy",
    "",
    "// Trace wraps a handler: the requests of a health check go through it untraced.",
    "func Trace(next Handler) Handler {",
    "\treturn wrap(next)",
    "}",
    "",
  ].join("\n"),
  "proxy/probe.go": [
    "package proxy",
    "",
    "func skipHealthCheck(path string) bool {",
    "\treturn path == \"/healthz\"",
    "}",
    "",
  ].join("\n"),
};

describe("words a query writes together (e2e)", () => {
  const { search } = withIndexedRepository("acme/pairs", REPO);

  it("the code writing a query's two words together comes before the code writing them apart", async () => {
    const results = await search("health check requests");
    expect(results.map((r) => r.filepath).slice(0, 2)).toEqual(["proxy/trace.go", "monitor/watch.go"]);
  });
});
