import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { git } from "../support/git-fixtures.ts";
import { runCli } from "../support/cli.ts";
import { freePort } from "../support/process.ts";

/** The real CLI binary (node bin/loupe.js) against a real in-process server on a temp data dir. */
let server: TestServer;
let roots: string;
let outside: string;
let repoDir: string;
const env = () => ({ LOUPE_URL: server.baseUrl, LOUPE_API_KEY: server.adminKey, LOUPE_HOST_TOKEN: undefined });

beforeAll(async () => {
  roots = mkdtempSync(join(tmpdir(), "loupe-cli-roots-"));
  outside = mkdtempSync(join(tmpdir(), "loupe-cli-outside-"));
  repoDir = join(roots, "Widget Shop");
  mkdirSync(join(repoDir, "src"), { recursive: true });
  for (let i = 0; i < 40; i++) {
    writeFileSync(
      join(repoDir, "src", `cart${i}.ts`),
      `/** Shopping cart part ${i}. */\nexport function addToCart${i}(items: string[], item: string): string[] {\n  return [...items, item];\n}\n\nexport const cartTotal${i} = (prices: number[]) => prices.reduce((a, b) => a + b, 0);\n`,
    );
  }
  writeFileSync(join(repoDir, "README.md"), "# Widget shop\n\nA shop that sells widgets; the cart adds items and totals prices.\n");
  git(repoDir, "init", "--quiet", "--initial-branch=main");
  git(repoDir, "add", "-A");
  git(repoDir, "commit", "--quiet", "-m", "initial");
  // A repository outside the roots, and a symlink inside the roots pointing at it.
  git(outside, "init", "--quiet", "--initial-branch=main");
  git(outside, "commit", "--quiet", "--allow-empty", "-m", "x");
  symlinkSync(outside, join(roots, "sneaky"));
  server = await startTestServer({ env: { LOUPE_LOCAL_ROOTS: roots } });
}, 60_000);

afterAll(async () => {
  await server?.stop({ remove: true });
  rmSync(roots, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe("loupe CLI", () => {
  it("issues, lists and revokes keys; a revoked key then fails with a clear message", async () => {
    const issued = await runCli(["keys", "issue", "ci bot", "--role", "member"], env());
    expect(issued.code, issued.stderr).toBe(0);
    const key = /Key \(shown once, store it now\): (\S+)/.exec(issued.stdout)?.[1];
    const keyId = /Issued member key (\S+)/.exec(issued.stdout)?.[1];
    expect(key).toMatch(/^lp_/);
    expect(keyId).toBeTruthy();

    const listed = await runCli(["keys", "list"], env());
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(keyId);
    expect(listed.stdout).toContain("ci bot");
    expect(listed.stdout).not.toContain(key);

    const me = await runCli(["status", "--key", key!], env());
    expect(me.code, me.stderr).toBe(0);
    expect(me.stdout).toContain(`key ${keyId} (member)`);

    const member = await runCli(["keys", "list", "--key", key!], env());
    expect(member.code).toBe(1);
    expect(member.stderr.trim()).toBe("loupe keys: forbidden: This operation needs an admin API key (use an admin key of this organisation: an admin issues one with `loupe keys issue <name> --role admin`)");

    const revoked = await runCli(["keys", "revoke", keyId!, "--reason", "rotated"], env());
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`Revoked key ${keyId}`);

    const after = await runCli(["status", "--key", key!], env());
    expect(after.code).toBe(1);
    expect(after.stderr.trim()).toBe("loupe status: authentication failed: Invalid or revoked API key (check --key or LOUPE_API_KEY)");
    expect((await runCli(["keys", "list"], env())).stdout).not.toContain(keyId);
    expect((await runCli(["keys", "list", "--all"], env())).stdout).toContain(keyId);
  });

  it("exits non-zero with one clear line on errors", async () => {
    const badKey = await runCli(["status"], { ...env(), LOUPE_API_KEY: "lp_not_a_real_key_000000000000" });
    expect(badKey.code).toBe(1);
    expect(badKey.stderr.trim().split("\n")).toHaveLength(1);
    expect(badKey.stderr).toContain("authentication failed: Invalid or revoked API key");

    const port = await freePort();
    const down = await runCli(["status"], { ...env(), LOUPE_URL: `http://127.0.0.1:${port}` });
    expect(down.code).toBe(1);
    expect(down.stderr.trim()).toBe(
      `loupe status: cannot reach Loupe at http://127.0.0.1:${port} (connection refused); is the service running? (set --url or LOUPE_URL)`,
    );

    const noKey = await runCli(["keys", "list"], { ...env(), LOUPE_API_KEY: "" });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr.trim()).toBe("loupe keys: no API key: pass --key <key> or set LOUPE_API_KEY");

    const notFound = await runCli(["status", "github:main:acme/missing"], env());
    expect(notFound.code).toBe(1);
    expect(notFound.stderr.trim()).toBe("loupe status: not found: Repository or branch not found, or your token cannot read it (check the name; `loupe status` lists what is indexed)");

    const invalid = await runCli(["keys", "issue", "x", "--role", "owner"], env());
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain("--role must be member or admin");

    const unknown = await runCli(["frobnicate"], env());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');

    const unknownFlag = await runCli(["status", "--verbose"], env());
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toContain("unknown option --verbose");

    // An unknown host is refused before anything is sent (test/cli/review.e2e.spec.ts); a server-side
    // validation error shows the server's message, its "Invalid request:" said once.
    const validation = await runCli(["index", "acme/x", "--branch", "a..b", "--no-wait"], env());
    expect(validation.code).toBe(1);
    expect(validation.stderr.trim()).toBe("loupe index: invalid request: branch: must not contain '..' (fix the request and run it again)");
  });

  it("indexes a local repository by path, drawing progress until it is completed", async () => {
    const result = await runCli(["index", repoDir, "--interval", "100"], env(), { timeoutMs: 120_000 });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const id = /: (local:main:widget-shop-[0-9a-f]{8})\n/.exec(result.stdout)?.[1];
    expect(id, result.stdout).toBeTruthy();
    // Not a TTY here: plain progress lines on stderr, ending at completed with every file.
    expect(result.stderr).toMatch(new RegExp(`${id!.replace(/[/.]/g, "\\$&")}: completed 41/41 files \\(100%\\)`));
    expect(result.stdout).toContain(`Indexed ${id}: 41/41 files at `);

    const status = await runCli(["status", id!], env());
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/Status\s+completed/);
    expect(status.stdout).toMatch(/Files\s+41\/41/);
    const list = await runCli(["status"], env());
    expect(list.stdout).toContain(id);

    // A second run finds it up to date.
    const again = await runCli(["index", repoDir], env());
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Repository is up to date: ${id}`);
  }, 120_000);

  it("refuses paths outside LOUPE_LOCAL_ROOTS (also through a symlink) and non-repositories", async () => {
    const out = await runCli(["index", outside], env());
    expect(out.code).toBe(1);
    expect(out.stderr.trim()).toBe(
      "loupe index: forbidden: path is outside the directories this server may index (LOUPE_LOCAL_ROOTS) (the server indexes paths only under LOUPE_LOCAL_ROOTS: start it with that variable (or `loupe serve --local-root <dir>`) naming a directory that holds this one; and only with an admin key of its bootstrap organisation)",
    );
    const traversal = await runCli(["index", `${roots}/../${outside.split("/").pop()}`], env());
    expect(traversal.code).toBe(1);
    expect(traversal.stderr).toContain("forbidden: path is outside");
    const link = await runCli(["index", join(roots, "sneaky")], env());
    expect(link.code).toBe(1);
    expect(link.stderr).toContain("forbidden: path is outside");
    mkdirSync(join(roots, "plain"), { recursive: true });
    const plain = await runCli(["index", join(roots, "plain")], env());
    expect(plain.code).toBe(1);
    expect(plain.stderr.trim()).toBe("loupe index: invalid request: path is not a git repository (give the top-level directory of a git repository with at least one commit)");
  });

  it("runs on Deno too (deno run -A src/cli/main.ts)", async () => {
    const { denoBin, repoRoot } = await import("../support/process.ts");
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(denoBin, ["run", "-A", "src/cli/main.ts", ...args], {
          cwd: repoRoot,
          env: { ...process.env, ...env(), LOUPE_HOST_TOKEN: "", DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => (stdout += String(d)));
        child.stderr.on("data", (d) => (stderr += String(d)));
        child.on("exit", (code) => resolve({ code, stdout, stderr }));
      });
    const ok = await run(["status"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/Caller\s+key \S+ \(admin\)/);
    const bad = await run(["status", "--key", "lp_wrong_key_for_deno_000000000"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe("loupe status: authentication failed: Invalid or revoked API key (check --key or LOUPE_API_KEY)");
  }, 60_000);

  it("searches an indexed repository and prints a table", async () => {
    const indexed = await runCli(["index", repoDir], env(), { timeoutMs: 120_000 });
    const id = /(local:main:\S+)/.exec(indexed.stdout)![1]!;
    const result = await runCli(["search", "add an item to the shopping cart", "--repo", id], env());
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^FILE\s+LINES\s+SUMMARY$/);
    expect(lines.slice(2).some((l) => /^src\/cart\d+\.ts\s/.test(l))).toBe(true);
  }, 120_000);

  it("streams the answer of a query, then lists the sources", async () => {
    const indexed = await runCli(["index", repoDir], env(), { timeoutMs: 120_000 });
    const id = /(local:main:\S+)/.exec(indexed.stdout)![1]!;
    const result = await runCli(["query", "How do I add an item to the cart?", "--repo", id], env());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout, result.stderr).toContain("Sources:");
    expect(result.stdout).toMatch(/src\/cart\d+\.ts/);
  }, 120_000);

  it("shows a repository indexed by path as the local remote: CLI search and query, HTTP search, stream, query and session", async () => {
    const indexed = await runCli(["index", repoDir], env(), { timeoutMs: 120_000 });
    const id = /(local:main:\S+)/.exec(indexed.stdout)![1]!;
    const name = id.split(":")[2]!;
    const isLocal = (s: { remote: string; repository: string }) => s.remote === "local" && s.repository === name;

    // CLI: the results as JSON, and the human output never shows the stored form.
    const search = await runCli(["search", "add an item to the shopping cart", "--repo", id, "--json"], env());
    expect(search.code, search.stderr).toBe(0);
    const results = JSON.parse(search.stdout) as { remote: string; repository: string }[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.every(isLocal), search.stdout).toBe(true);
    const query = await runCli(["query", "How do I add an item to the cart?", "--repo", id, "--json"], env());
    expect(query.code, query.stderr).toBe(0);
    const answered = JSON.parse(query.stdout) as { message: string; sources: { remote: string; repository: string }[] };
    expect(answered.sources.length).toBeGreaterThan(0);
    expect(answered.sources.every(isLocal), query.stdout).toBe(true);
    for (const run of [search, query]) expect(run.stdout).not.toMatch(/github|local\//);

    // HTTP: the local remote accepted in the request and answered in every shape of the response.
    const post = (path: string, body: unknown) =>
      fetch(`${server.baseUrl}${path}`, { method: "POST", headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const repositories = [{ remote: "local", repository: name, branch: "main" }];
    const searched = await post("/v2/search", { query: "cart total of prices", repositories });
    expect(searched.status).toBe(200);
    const items = (await searched.json()) as { remote: string; repository: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every(isLocal)).toBe(true);
    const streamed = await post("/v2/search", { query: "cart total of prices", repositories, stream: true });
    const lines = (await streamed.text()).trim().split("\n").map((l) => JSON.parse(l) as { type: string; message: unknown });
    const sources = lines.find((l) => l.type === "sources")!.message as { remote: string; repository: string }[];
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.every(isLocal)).toBe(true);
    const asked = await post("/v2/query", { messages: [{ role: "user", content: "How is the cart total computed?" }], repositories });
    expect(asked.status).toBe(200);
    const answer = (await asked.json()) as { message: string; sources: { remote: string; repository: string }[]; sessionId: string };
    expect(answer.sources.every(isLocal)).toBe(true);
    expect(answer.message).not.toContain("local/");
    const session = await fetch(`${server.baseUrl}/v2/query/${answer.sessionId}`, { headers: { authorization: `Bearer ${server.adminKey}` } });
    const turns = ((await session.json()) as { turns: { repositories: { remote: string; repository: string }[]; answer: { sources: { remote: string; repository: string }[] } | null }[] }).turns;
    expect(turns.length).toBe(1);
    expect(turns[0]!.repositories).toEqual([{ remote: "local", repository: name, branch: "main" }]);
    expect(turns[0]!.answer!.sources.length).toBeGreaterThan(0);
    expect(turns[0]!.answer!.sources.every(isLocal)).toBe(true);
  }, 120_000);
});
