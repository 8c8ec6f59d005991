/**
 * Runs the stale call sites cases through the real service (in-process, served on a free port, driven
 * through its public interfaces only): for each case, a file:// host holds two branches of the
 * repository, the parent commit (`sc-<n>-base`) and the parent plus only the definition file's change
 * (`sc-<n>-head`, callers left as they were); the base branch is indexed (POST /v2/repositories), the
 * pull request is recorded by a signed GitHub webhook, reviewed (POST /v2/code-reviews, strictness 3)
 * and its comments read back with the MCP tool `get_merge_request`. Each case's base commit is its own
 * (its message names the case): the indexer does not fetch a new branch whose commit the mirror
 * already holds, so two branches at one commit would not both index.
 */
import { createHmac, randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Writable } from "node:stream";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logging.ts";
import { createLoupe } from "../../src/loupe.ts";
import { serve } from "../../src/serve.ts";
import { listTree, missingBlobs, mirrorOf } from "../eval/git-host.ts";
import type { MinedCase } from "./mine.ts";

const API_KEY = "lp_bench_admin_key_0123456789abcdef";
const WEBHOOK_SECRET = "stale callers bench webhook secret";
const FIXED_ENV = { GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "bench@localhost", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "bench@localhost", GIT_AUTHOR_DATE: "2000-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2000-01-01T00:00:00Z" };

const git = (dir: string, args: string[], env?: NodeJS.ProcessEnv) =>
  execFileSync("git", args, { cwd: dir, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"], ...(env ? { env } : {}) }).toString("utf8").trim();

export type NamedSite = { path: string; line: number; name: string | null };

export type CaseOutcome = {
  status: string;
  reason: string | null;
  /** Call sites the review named (from its broken-callers comments). */
  named: NamedSite[];
  seconds: { index: number; review: number };
};

/** The two branches of a case in the host repository: the parent's tree, and it with the definition file as the commit left it. */
export function prepareBranches(hostDir: string, mirrors: string, c: MinedCase, n: number): { base: string; head: string; baseSha: string; headSha: string } {
  const bare = join(hostDir, `${c.repo}.git`);
  if (!existsSync(join(bare, "HEAD"))) {
    mkdirSync(bare, { recursive: true });
    git(bare, ["init", "--bare", "--quiet"]);
    // git reads a relative alternates path from the objects folder: the mirror's path is made absolute.
    writeFileSync(join(bare, "objects", "info", "alternates"), `${resolve(mirrorOf(mirrors, c.repo), "objects")}\n`);
  }
  const entries = listTree(bare, c.parent);
  const gone = missingBlobs(bare, entries.map((e) => e.blob));
  const work = mkdtempSync(join(tmpdir(), "stale-callers-"));
  const env = { ...process.env, ...FIXED_ENV, GIT_INDEX_FILE: join(work, "index") };
  try {
    git(bare, ["read-tree", c.parent], env);
    if (gone.size > 0) {
      const paths = entries.filter((e) => gone.has(e.blob)).map((e) => e.path);
      execFileSync("git", ["update-index", "--force-remove", "-z", "--stdin"], { cwd: bare, env, input: paths.join("\0") + "\0" });
    }
    const baseTree = git(bare, ["write-tree"], env);
    const blob = git(bare, ["rev-parse", `${c.commit}:${c.path}`]);
    const mode = entries.find((e) => e.path === c.path)?.mode ?? "100644";
    git(bare, ["update-index", "--add", "--cacheinfo", `${mode},${blob},${c.path}`], env);
    const headTree = git(bare, ["write-tree"], env);
    const baseSha = git(bare, ["commit-tree", baseTree, "-m", `parent of ${c.commit} (case ${n})`], env);
    const headSha = git(bare, ["commit-tree", headTree, "-p", baseSha, "-m", `${c.subject}\n\n${c.path} of ${c.commit} alone`], env);
    const base = `sc-${n}-base`;
    const head = `sc-${n}-head`;
    git(bare, ["update-ref", `refs/heads/${base}`, baseSha]);
    git(bare, ["update-ref", `refs/heads/${head}`, headSha]);
    git(bare, ["symbolic-ref", "HEAD", `refs/heads/${base}`]);
    return { base, head, baseSha, headSha };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The call sites listed in broken-callers comment bodies (`path:line` items, the folded ones included). */
export function namedSites(bodies: readonly string[]): NamedSite[] {
  const out: NamedSite[] = [];
  for (const body of bodies) {
    if (!body.startsWith("**Broken callers**")) continue;
    const name = /(?:parameters of|renames|removes) `(?:[\w$]+\.)?([\w$]+)`/.exec(body)?.[1] ?? null;
    for (const m of body.matchAll(/^- `([^`]+):(\d+)`:/gm)) out.push({ path: m[1]!, line: Number(m[2]), name });
  }
  return out;
}

export type Service = { run(c: MinedCase, n: number): Promise<CaseOutcome>; close(): Promise<void> };

export async function startService(dataDir: string, hostDir: string, mirrors: string): Promise<Service> {
  const config = loadConfig({
    LOUPE_DATA_DIR: dataDir, LOUPE_API_KEY: API_KEY, LOUPE_LOG_LEVEL: "warn", LOUPE_GITHUB_URL: `file://${hostDir}`, PORT: "0",
    LOUPE_WEBHOOK_SECRET_GITHUB: WEBHOOK_SECRET,
  });
  const sink = new Writable({ write: (_c, _e, done) => done() });
  const loupe = await createLoupe(config, { logger: createLogger("warn", sink), announce: () => {} });
  const served = await serve(loupe.fetch, { port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${served.port}`;
  const call = async (path: string, init: RequestInit): Promise<unknown> => {
    const res = await fetch(base + path, init);
    const text = await res.text();
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as unknown;
  };
  const headers = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };
  const api = (path: string, body?: unknown) => call(path, { method: body === undefined ? "GET" : "POST", headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let rpc = 0;

  async function run(c: MinedCase, n: number): Promise<CaseOutcome> {
    const branches = prepareBranches(hostDir, mirrors, c, n);
    const t0 = performance.now();
    const submitted = (await api("/v2/repositories", { remote: "github", repository: c.repo, branch: branches.base })) as { statusEndpoint: string };
    const statusPath = new URL(submitted.statusEndpoint).pathname;
    for (;;) {
      const s = (await api(statusPath)) as { status: string; failureReason?: string | null };
      if (s.status === "failed") return { status: "INDEX_FAILED", reason: s.failureReason ?? null, named: [], seconds: { index: 0, review: 0 } };
      if (s.status === "completed") break;
      await sleep(100);
    }
    const indexSeconds = (performance.now() - t0) / 1000;
    const now = new Date().toISOString();
    const payload = {
      action: "opened",
      number: n,
      repository: { full_name: c.repo, default_branch: branches.base },
      pull_request: {
        number: n, title: c.subject, body: `${c.path} of ${c.commit}, its callers left as they were`, state: "open", draft: false, merged: false,
        user: { login: "bench" }, head: { ref: branches.head, sha: branches.headSha }, base: { ref: branches.base, sha: branches.baseSha },
        created_at: now, updated_at: now, html_url: `https://github.com/${c.repo}/pull/${n}`,
      },
    };
    const body = JSON.stringify(payload);
    const delivered = await fetch(`${base}/webhooks/github`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-github-event": "pull_request", "x-github-delivery": randomUUID(), "x-hub-signature-256": `sha256=${createHmac("sha256", WEBHOOK_SECRET).update(body).digest("hex")}` },
      body,
    });
    if (!delivered.ok) throw new Error(`webhook: HTTP ${delivered.status} ${await delivered.text()}`);
    const t1 = performance.now();
    const repo = { remote: "github", name: c.repo, defaultBranch: branches.base };
    const { codeReviewId } = (await api("/v2/code-reviews", { ...repo, prNumber: n, strictness: 3 })) as { codeReviewId: string };
    let review: { status: string; reason?: string | null };
    for (;;) {
      review = ((await api(`/v2/code-reviews/${codeReviewId}`)) as { codeReview: { status: string; reason?: string | null } }).codeReview;
      if (["COMPLETED", "FAILED", "SKIPPED"].includes(review.status)) break;
      await sleep(100);
    }
    const reviewSeconds = (performance.now() - t1) / 1000;
    const answer = (await call("/mcp", {
      method: "POST",
      headers: { ...headers, accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++rpc, method: "tools/call", params: { name: "get_merge_request", arguments: { ...repo, prNumber: n } } }),
    })) as { result?: { structuredContent?: { mergeRequest: { comments: { greptile: { body: string; filePath: string | null }[] } } } }; error?: unknown };
    const comments = answer.result?.structuredContent?.mergeRequest.comments.greptile ?? [];
    if (!answer.result) throw new Error(`get_merge_request: ${JSON.stringify(answer.error)}`);
    return {
      status: review.status,
      reason: review.reason ?? null,
      named: namedSites(comments.filter((x) => x.filePath !== null).map((x) => x.body)),
      seconds: { index: indexSeconds, review: reviewSeconds },
    };
  }

  return {
    run,
    async close() {
      await served.close();
      await loupe.close();
    },
  };
}
