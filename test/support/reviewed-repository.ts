/**
 * A repository for end-to-end review tests: its files committed on a real git "host" on disk, a real
 * server (with `env`) that indexed its main branch, and the steps such tests take on it: open a pull
 * request by a signed webhook, ask for its review over HTTP, read the comments back from the read model.
 */
import { expect } from "vitest";
import { startTestServer, type TestServer } from "./server.ts";
import { githubExample } from "./host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "./pr-webhooks.ts";
import { waitFor } from "./fake-hosts.ts";

export type ReviewedRepository = Awaited<ReturnType<typeof startReviewedRepository>>;

export async function startReviewedRepository(name: string, files: Record<string, string>, env: Record<string, string> = {}) {
  const host = createHostRepo(name);
  for (const [path, content] of Object.entries(files)) host.write(path, content);
  const baseSha = host.commit("initial");
  host.push("main");
  const server: TestServer = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url, ...env } });
  const orgId = server.loupe.services.keys.organisations()[0]!.orgId;
  const submitted = await server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: name, branch: "main" } });
  expect(submitted.status).toBe(202);
  await server.loupe.services.indexer.idle();
  await waitFor(() => (server.loupe.services.indexer.list(orgId)[0]?.status === "completed" ? true : undefined), 30_000, "indexing");
  const repoArgs = { name, remote: "github", defaultBranch: "main" };

  /** A branch off main with these files written (null: deleted), opened as pull request `number` against `base`. */
  async function openPullRequest(number: number, branch: string, changes: Record<string, string | null>, options: { base?: string; title?: string } = {}) {
    host.checkout("main");
    host.checkout(branch, true);
    for (const [path, content] of Object.entries(changes)) {
      if (content === null) host.removeFile(path);
      else host.write(path, content);
    }
    const headSha = host.commit(options.title ?? "Change");
    host.push(branch);
    const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
      action: "opened", repo: name, number, title: options.title ?? "Change", head: branch, headSha, base: options.base ?? "main", baseSha, updatedAt: "2024-05-01T10:00:00Z",
    });
    expect((await (await deliverGitHub(server, "pull_request", opened)).json()).outcome).toBe("recorded");
  }

  /** Asks for the review of pull request `number` over HTTP and returns it once the worker is idle. */
  async function review(number: number, strictness?: number) {
    const res = await server.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: number, ...(strictness ? { strictness } : {}) } });
    expect(res.status).toBe(202);
    const { codeReviewId } = (await res.json()) as { codeReviewId: string };
    await server.loupe.services.reviews.idle();
    return (await (await server.api(`/v2/code-reviews/${codeReviewId}`)).json()).codeReview as { id: string; status: string; reason: string | null; body: string };
  }

  /** The service's comments on pull request `number`, from its read model. */
  const comments = (number: number) => server.loupe.services.pullRequests.get(orgId, { ...repoArgs, prNumber: number }).mergeRequest.comments.greptile;

  return {
    host, server, orgId, baseSha, repoArgs, openPullRequest, review, comments,
    async stop() {
      await server.stop({ remove: true });
      host.remove();
    },
  };
}
