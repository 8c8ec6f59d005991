/**
 * Shared pieces of the review benchmarks (bench-review-noise.ts, bench-review-time.ts): a file:// git
 * host whose repositories borrow their objects from the fetched mirrors, pull requests recorded by
 * signed GitHub webhooks, reviews triggered and read back through the public API (HTTP and MCP).
 */
import { createHmac, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { git } from "../eval/git-host.ts";
import type { Service } from "../eval/service.ts";

export const WEBHOOK_SECRET = "bench webhook secret";

/** Source files by extension (what "changed source lines" counts). */
export const SOURCE = /\.(py|pyi|js|mjs|cjs|jsx|ts|tsx|mts|cts|rs|go|java|kt|c|h|cc|cpp|hpp|rb|php|cs)$/i;

/** A bare repository `<host>/<owner>/<name>.git` whose objects come from `mirror` (alternates); returns its path. */
export function hostRepository(hostDir: string, repo: string, mirror: string): string {
  const bare = join(hostDir, `${repo}.git`);
  if (!existsSync(join(bare, "HEAD"))) {
    mkdirSync(bare, { recursive: true });
    git(bare, ["init", "--bare", "--quiet"]);
    writeFileSync(join(bare, "objects", "info", "alternates"), `${resolve(mirror, "objects")}\n`);
  }
  return bare;
}

export const setBranch = (bare: string, branch: string, sha: string) => git(bare, ["update-ref", `refs/heads/${branch}`, sha]);

/** Polls GET `path` until its status is one of `done` (lower-cased); returns the last body. */
export async function waitFor<T extends Record<string, unknown>>(service: Service, path: string, pick: (body: unknown) => T & { status: string }, done: readonly string[], timeoutMs = 30 * 60_000): Promise<T & { status: string }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const body = pick(await service.api(path));
    if (done.includes(body.status.toLowerCase())) return body;
    if (Date.now() > until) throw new Error(`${path}: still ${body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Indexes `branch` of `repo` through POST /v2/repositories and waits for the job. */
export async function indexBranch(service: Service, repo: string, branch: string): Promise<{ seconds: number; files: number }> {
  const started = performance.now();
  const submitted = (await service.api("/v2/repositories", { remote: "github", repository: repo, branch })) as { statusEndpoint: string };
  const status = await waitFor(service, new URL(submitted.statusEndpoint).pathname, (b) => b as { status: string; numFiles: number; failureReason?: string | null }, ["completed", "failed"]);
  if (status.status === "failed") throw new Error(`indexing ${repo}@${branch} failed: ${status.failureReason ?? ""}`);
  return { seconds: (performance.now() - started) / 1000, files: status.numFiles };
}

/** Records a pull request `head` -> `base` by a signed GitHub `pull_request.opened` delivery. */
export async function openPullRequest(
  service: Service,
  pr: { repo: string; number: number; title: string; body: string; head: string; headSha: string; base: string; baseSha: string; defaultBranch: string },
): Promise<void> {
  const payload = {
    action: "opened",
    number: pr.number,
    repository: { full_name: pr.repo, default_branch: pr.defaultBranch },
    pull_request: {
      number: pr.number,
      title: pr.title,
      body: pr.body,
      state: "open",
      merged: false,
      draft: false,
      user: { login: "author" },
      head: { ref: pr.head, sha: pr.headSha },
      base: { ref: pr.base, sha: pr.baseSha },
      labels: [],
      created_at: "2024-01-01T00:00:00Z",
      updated_at: "2024-01-01T00:00:00Z",
      html_url: `https://github.com/${pr.repo}/pull/${pr.number}`,
    },
  };
  const body = JSON.stringify(payload);
  const res = await fetch(`${service.base}/webhooks/github`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "pull_request",
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": `sha256=${createHmac("sha256", WEBHOOK_SECRET).update(body).digest("hex")}`,
    },
    body,
  });
  const answer = (await res.json()) as { outcome?: string };
  if (!res.ok || answer.outcome !== "recorded") throw new Error(`webhook for ${pr.repo}#${pr.number}: HTTP ${res.status} ${JSON.stringify(answer)}`);
}

export type ReviewOutcome = { codeReviewId: string; status: string; reason: string | null; body: string | null };

/** POST /v2/code-reviews, then GET /v2/code-reviews/:id until it ends. */
export async function runReview(service: Service, repo: string, prNumber: number, strictness: number, defaultBranch = "main"): Promise<ReviewOutcome & { seconds: number }> {
  const started = performance.now();
  const { codeReviewId } = (await service.api("/v2/code-reviews", { remote: "github", name: repo, defaultBranch, prNumber, strictness })) as { codeReviewId: string };
  const detail = await waitFor(
    service,
    `/v2/code-reviews/${codeReviewId}`,
    (b) => {
      const r = (b as { codeReview: { status: string; reason?: string | null; body?: string | null } }).codeReview;
      return { status: r.status, reason: r.reason ?? null, body: r.body ?? null };
    },
    ["completed", "failed", "skipped"],
  );
  return { codeReviewId, status: detail.status, reason: detail.reason, body: detail.body, seconds: (performance.now() - started) / 1000 };
}

export type ServiceComment = { filePath: string | null; lineStart: number | null; lineEnd: number | null; body: string };

/** An MCP client of the service (the official SDK over streamable HTTP). */
export async function mcpClient(service: Service): Promise<Client> {
  const client = new Client({ name: "review-bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${service.apiKey}` } } }));
  return client;
}

/** The service's comments on a pull request (list_merge_request_comments, greptileGenerated). */
export async function serviceComments(client: Client, repo: string, prNumber: number, defaultBranch = "main"): Promise<ServiceComment[]> {
  const result = (await client.callTool({ name: "list_merge_request_comments", arguments: { name: repo, remote: "github", defaultBranch, prNumber, greptileGenerated: true } })) as {
    structuredContent?: { comments: ServiceComment[] };
    isError?: boolean;
  };
  if (result.isError || !result.structuredContent) throw new Error(`list_merge_request_comments ${repo}#${prNumber} failed`);
  return result.structuredContent.comments;
}
