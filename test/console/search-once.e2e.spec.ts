/**
 * The console's search runs the code search once per question: the form's POST searches and records
 * the turn, and the search's own page it redirects to shows those results (Reload too) without
 * searching again. Counted with the service's own metric, `loupe_code_searches_total` on GET /metrics,
 * over plain HTTP with the console's cookie and CSRF token (test/support/console-client.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedConsole, REPO, type ConsoleSeed } from "../support/console-seed.ts";
import { signedInConsole } from "../support/console-client.ts";

let seed: ConsoleSeed;
let browser: Awaited<ReturnType<typeof signedInConsole>>;
const MAIN = `github:main:${REPO}`;
const QUERY = "parseConfig configuration key value pairs";

/** The searches the service ran, as GET /metrics counts them. */
async function searchesRun(): Promise<number> {
  const text = await (await fetch(`${seed.server.baseUrl}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith("loupe_code_searches_total "));
  if (!line) throw new Error("loupe_code_searches_total is not among the metrics");
  return Number(line.split(" ")[1]);
}

/** The results section of a search's page. */
const resultsOf = (html: string) => /<section aria-labelledby="results-title" id="results">[\s\S]*?<\/section>/.exec(html)?.[0];

beforeAll(async () => {
  seed = await seedConsole();
  const res = await seed.server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: REPO, branch: "main" } });
  expect(res.status).toBe(202);
  await seed.server.loupe.services.indexer.idle();
  browser = await signedInConsole(seed.server.baseUrl, seed.server.adminKey);
}, 120_000);

afterAll(async () => {
  await seed?.cleanup();
});

describe("the console's search", () => {
  it("runs the code search once for a search sent from the form, its results page and a reload of it", async () => {
    const before = await searchesRun();
    const posted = await browser.request("/console/search", { method: "POST", form: { _csrf: browser.csrf, query: QUERY, repo: MAIN } });
    expect(posted.status).toBe(303);
    const location = posted.headers.get("location")!;
    const url = new URL(location, seed.server.baseUrl);
    expect(url.pathname).toBe("/console/search");
    expect(url.searchParams.get("query")).toBe(QUERY);
    expect(url.searchParams.getAll("repo")).toEqual([MAIN]);
    const sid = url.searchParams.get("sessionId")!;

    const shown = await browser.request(url.pathname + url.search);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain("src/app.ts");
    expect(html).toContain("parseConfig");
    expect(await searchesRun()).toBe(before + 1);

    const reloaded = await browser.request(url.pathname + url.search);
    expect(reloaded.status).toBe(200);
    expect(resultsOf(await reloaded.text())).toBe(resultsOf(html));
    expect(await searchesRun()).toBe(before + 1);

    // Recorded once, by the POST.
    const session = await seed.server.loupe.services.querySessions.get((await (await seed.server.api("/v2/me")).json()).orgId, sid);
    expect(session!.turns).toHaveLength(1);
  });

  it("a search's address without a recorded turn (typed or shared) searches there, recording nothing", async () => {
    const before = await searchesRun();
    const params = new URLSearchParams({ query: QUERY, repo: MAIN });
    const res = await browser.request(`/console/search?${params}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("src/app.ts");
    expect(await searchesRun()).toBe(before + 1);

    // A turn of another question: its results are not shown for this one, which is searched.
    const posted = await browser.request("/console/search", { method: "POST", form: { _csrf: browser.csrf, query: "Scheduler jobs timer", repo: MAIN } });
    const other = new URL(posted.headers.get("location")!, seed.server.baseUrl);
    expect(await searchesRun()).toBe(before + 2);
    other.searchParams.set("query", QUERY);
    const mismatched = await browser.request(other.pathname + other.search);
    expect(mismatched.status).toBe(200);
    expect(await mismatched.text()).toContain("parseConfig");
    expect(await searchesRun()).toBe(before + 3);
  });
});
