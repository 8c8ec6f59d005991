/**
 * The console's session and request rules over plain HTTP against the real server: sign-in needs its
 * form token; the session cookie's attributes; every POST needs the session's CSRF token and a
 * same-origin request, and nothing changes when refused; revoking a key ends its sessions; another
 * organisation's key sees none of this organisation's data; bad form input answers 400 naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedConsole, REPO, type ConsoleSeed } from "../support/console-seed.ts";

let seed: ConsoleSeed;

/** A cookie jar over fetch, as a browser would keep it for one origin. */
function client(base: string) {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const request = async (path: string, init: RequestInit & { form?: Record<string, string> } = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set("cookie", cookieHeader());
    let body = init.body;
    if (init.form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(base + path, { ...init, headers, body, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (value === "" || /max-age=0/i.test(line)) jar.delete(name!.trim());
      else jar.set(name!.trim(), value);
    }
    return res;
  };
  return { request, jar };
}

const tokenIn = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";

async function signedIn(key: string) {
  const c = client(seed.server.baseUrl);
  const form = await (await c.request("/console/sign-in")).text();
  const res = await c.request("/console/sign-in", { method: "POST", form: { _csrf: tokenIn(form), apiKey: key } });
  expect(res.status).toBe(303);
  const page = await (await c.request("/console/repositories")).text();
  return { ...c, csrf: /<meta name="csrf-token" content="([^"]+)"/.exec(page)![1]!, setCookie: res.headers.getSetCookie() };
}

beforeAll(async () => {
  seed = await seedConsole();
  const res = await seed.server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: REPO } });
  expect(res.status).toBe(202);
  await seed.server.loupe.services.indexer.idle();
}, 120_000);

afterAll(async () => {
  await seed?.cleanup();
});

describe("console sessions and requests", () => {
  it("signs in only with the sign-in form's token, and sets an HttpOnly, SameSite=Strict cookie", async () => {
    const c = client(seed.server.baseUrl);
    const refused = await c.request("/console/sign-in", { method: "POST", form: { _csrf: "forged", apiKey: seed.server.adminKey } });
    expect(refused.status).toBe(403);
    expect(c.jar.has("loupe_console")).toBe(false);
    const empty = await c.request("/console/sign-in", { method: "POST", form: { _csrf: tokenIn(await (await c.request("/console/sign-in")).text()), apiKey: "" } });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("apiKey: paste an API key");

    const s = await signedIn(seed.server.adminKey);
    const cookie = s.setCookie.find((l) => l.startsWith("loupe_console="))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\/console/);
    expect(cookie).not.toContain(seed.server.adminKey);
  });

  it("refuses a POST without the session's CSRF token, or from another site, and records nothing", async () => {
    const s = await signedIn(seed.server.adminKey);
    const before = await seed.server.loupe.services.eventStore.headPosition();
    const form = { body: "Never do this", type: "CUSTOM_INSTRUCTION", status: "ACTIVE", scopes: "{}" };
    expect((await s.request("/console/custom-context", { method: "POST", form })).status).toBe(403);
    expect((await s.request("/console/custom-context", { method: "POST", form: { ...form, _csrf: "wrong" } })).status).toBe(403);
    const crossSite = await s.request("/console/custom-context", { method: "POST", form: { ...form, _csrf: s.csrf }, headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    const otherOrigin = await s.request("/console/custom-context", { method: "POST", form: { ...form, _csrf: s.csrf }, headers: { origin: "https://evil.example" } });
    expect(otherOrigin.status).toBe(403);
    expect(await seed.server.loupe.services.eventStore.headPosition()).toBe(before);
    // The header form of the token (the client script's fetches) is accepted.
    const ok = await s.request("/console/custom-context", { method: "POST", form, headers: { "x-csrf-token": s.csrf } });
    expect(ok.status).toBe(303);
    expect(await seed.server.loupe.services.eventStore.headPosition()).toBeGreaterThan(before);
  });

  it("answers bad form input with 400 naming the field, and changes nothing", async () => {
    const s = await signedIn(seed.server.adminKey);
    const before = await seed.server.loupe.services.eventStore.headPosition();
    const bad = await s.request("/console/repositories", { method: "POST", form: { _csrf: s.csrf, remote: "sourceforge", repository: "a/b" } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("remote: must be one of github, gitlab, bitbucket, azure");
    const scopes = await s.request("/console/custom-context", { method: "POST", form: { _csrf: s.csrf, body: "x", scopes: "{not json" } });
    expect(scopes.status).toBe(400);
    expect(await scopes.text()).toContain("scopes: not valid JSON");
    const search = await s.request("/console/search", { method: "POST", form: { _csrf: s.csrf, query: "" } });
    expect(search.status).toBe(400);
    expect(await search.text()).toContain("query: must not be empty");
    const strictness = await s.request("/console/pull-requests/review", { method: "POST", form: { _csrf: s.csrf, remote: "github", name: REPO, number: "7", strictness: "9" } });
    expect(strictness.status).toBe(400);
    expect(await strictness.text()).toContain("strictness: must be an integer from 1 to 5");
    expect(await seed.server.loupe.services.eventStore.headPosition()).toBe(before);
  });

  it("sends pages to sign-in (and back) without a session, forms to sign-in with a note, and refuses the script's POSTs with 401", async () => {
    const c = client(seed.server.baseUrl);
    const page = await c.request("/console/pull-requests?state=open");
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/console/sign-in?next=%2Fconsole%2Fpull-requests%3Fstate%3Dopen");
    const before = await seed.server.loupe.services.eventStore.headPosition();
    const form = await c.request("/console/keys", { method: "POST", form: { name: "x" }, headers: { referer: `${seed.server.baseUrl}/console/keys` } });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/console/sign-in?next=%2Fconsole%2Fkeys&ended=1");
    expect((await c.request("/console/keys", { method: "POST", body: "{}", headers: { "content-type": "application/json", "x-csrf-token": "x" } })).status).toBe(401);
    expect(await seed.server.loupe.services.eventStore.headPosition()).toBe(before);
  });

  it("ends a key's sessions when the key is revoked", async () => {
    const issued = (await (await seed.server.api("/v2/keys", { method: "POST", json: { name: "short-lived", role: "member" } })).json()) as { key: string; keyId: string };
    const s = await signedIn(issued.key);
    expect((await s.request("/console/pull-requests")).status).toBe(200);
    expect((await seed.server.api(`/v2/keys/${issued.keyId}`, { method: "DELETE" })).status).toBe(200);
    const after = await s.request("/console/pull-requests");
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toBe("/console/sign-in?next=%2Fconsole%2Fpull-requests");
  });

  it("shows another organisation's key none of this organisation's repositories, pull requests or context", async () => {
    const created = (await (await seed.server.api("/v2/organisations", { method: "POST", json: { name: "other" } })).json()) as { adminKey: { key: string } };
    const own = await signedIn(seed.server.adminKey);
    expect(await (await own.request("/console/repositories")).text()).toContain(`data-repo-id="github:main:${REPO}"`);
    const other = await signedIn(created.adminKey.key);
    const otherRepos = await (await other.request("/console/repositories")).text();
    expect(otherRepos).not.toContain("data-repo-id=");
    expect(otherRepos).toContain("0 repositories");
    const pr = await other.request(`/console/pull-requests/view?remote=github&name=${encodeURIComponent(REPO)}&number=7`);
    expect(pr.status).toBe(404);
    expect(await (await other.request("/console/pull-requests")).text()).not.toContain("Add widget helpers");
    expect(await (await other.request("/console/custom-context")).text()).not.toContain("transaction");
    const events = await (await other.request("/console/audit/events")).text();
    expect(events).not.toContain("PullRequest");
  });

  it("serves its script and stylesheet itself, with the CSP on every response", async () => {
    const s = await signedIn(seed.server.adminKey);
    const html = await (await s.request("/console/search")).text();
    const src = /<script src="([^"]+)"/.exec(html)![1]!;
    expect(html).not.toMatch(/<script>(?!<)/); // no inline script
    const js = await s.request(src);
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toContain("javascript");
    expect(js.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(js.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("admin pages over HTTP", () => {
  it("shows a read model as of a time before a change, and as served now", async () => {
    const s = await signedIn(seed.server.adminKey);
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20)); // the change is recorded after `before`
    const created = await s.request("/console/custom-context", { method: "POST", form: { _csrf: s.csrf, body: "Always name the unit in durations", scopes: "{}" } });
    expect(created.status).toBe(303);
    const now = await (await s.request("/console/audit/read-models?projection=custom-context")).text();
    expect(now).toContain("Always name the unit in durations");
    const past = await (await s.request(`/console/audit/read-models?projection=custom-context&asOf=${encodeURIComponent(before)}`)).text();
    expect(past).toContain("events replayed");
    expect(past).not.toContain("Always name the unit in durations");
    const bad = await s.request("/console/audit/read-models?projection=custom-context&asOf=yesterday-ish");
    expect(bad.status).toBe(400);
  });

  it("rebuilds a projection from its button, and the model is the same after", async () => {
    const s = await signedIn(seed.server.adminKey);
    const { runner } = seed.server.loupe.services;
    const generation = (await runner.status()).find((p) => p.name === "custom-context")!.generation;
    const listBefore = seed.server.loupe.services.customContext.list(seed.server.loupe.services.keys.organisations()[0]!.orgId);
    const res = await s.request("/console/audit/projections/rebuild", { method: "POST", form: { _csrf: s.csrf, name: "custom-context" } });
    expect(res.status).toBe(303);
    expect((await runner.status()).find((p) => p.name === "custom-context")!.generation).toBe(generation + 1);
    expect(seed.server.loupe.services.customContext.list(seed.server.loupe.services.keys.organisations()[0]!.orgId)).toEqual(listBefore);
    const page = await (await s.request(res.headers.get("location")!)).text();
    expect(page).toContain("Rebuilt custom-context.");
    expect((await s.request("/console/audit/projections/rebuild", { method: "POST", form: { _csrf: s.csrf, name: "nope" } })).status).toBe(404);
  });

  it("issues a key shown once (not cached, redirected to a GET page) and revokes it", async () => {
    const s = await signedIn(seed.server.adminKey);
    const issued = await s.request("/console/keys", { method: "POST", form: { _csrf: s.csrf, name: "ci bot", role: "member" } });
    expect(issued.status).toBe(303);
    const shown = await s.request(issued.headers.get("location")!);
    expect(shown.headers.get("cache-control")).toBe("no-store");
    const html = await shown.text();
    const secret = /<output class="mono secret" id="issued-secret">([^<]+)<\/output>/.exec(html)![1]!;
    expect(issued.headers.get("location")).not.toContain(secret);
    expect(seed.server.loupe.services.keys.authenticate(`Bearer ${secret}`)).not.toBeNull();
    expect(await (await s.request(issued.headers.get("location")!)).text()).not.toContain(secret);
    expect(await (await s.request("/console/keys")).text()).not.toContain(secret);
    expect(seed.server.logs()).not.toContain(secret);
    const keyId = seed.server.loupe.services.keys.authenticate(`Bearer ${secret}`)!.keyId;
    const revoked = await s.request("/console/keys/revoke", { method: "POST", form: { _csrf: s.csrf, keyId } });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe(`/console/keys?revoked=${keyId}`);
    expect(seed.server.loupe.services.keys.authenticate(`Bearer ${secret}`)).toBeNull();
    expect((await s.request("/console/keys", { method: "POST", form: { _csrf: s.csrf, name: "", role: "root" } })).status).toBe(400);
  });
});
