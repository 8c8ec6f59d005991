import { intOption, remoteOption, REPOSITORY_NAME, UsageError } from "../args.ts";
import { CliError, errorFor } from "../client.ts";
import type { Command } from "../command.ts";
import { createMcpClient } from "../mcp.ts";
import { createProgress, out, sleep } from "../output.ts";

type Review = {
  id: string;
  status: string;
  body?: string;
  /** Why a FAILED or SKIPPED review ended so (null otherwise). */
  reason?: string | null;
  metadata?: { totalFiles?: number; completedFiles?: number; correlationId?: string };
};

const FINAL = new Set(["COMPLETED", "FAILED", "SKIPPED"]);

/**
 * `loupe review <owner/repo> <pr>`: triggers a code review (POST /v2/code-reviews, or the tool
 * endpoint's trigger_code_review on servers without that route) and follows it (GET
 * /v2/code-reviews/{id} / get_code_review) until COMPLETED, FAILED or SKIPPED.
 */
export const reviewCommand: Command = {
  name: "review",
  summary: "Trigger a code review of a pull request and follow it to its final status.",
  usage: ["review <owner/repo> <pr> [--remote github] [--default-branch main] [--branch <working branch>] [--strictness 1-5] [--no-wait] [--timeout <s>]"],
  flags: { string: ["remote", "default-branch", "branch", "interval", "timeout", "strictness"], boolean: ["wait"] },
  async run(args, ctx) {
    const [name, pr, ...extra] = args.positionals;
    if (!name || !pr) throw new UsageError("review needs a repository (owner/repo) and a pull request number");
    if (extra.length) throw new UsageError(`unexpected argument ${extra[0]}`);
    const prNumber = /^#?\d+$/.test(pr) ? Number(pr.replace(/^#/, "")) : Number.NaN;
    if (!Number.isSafeInteger(prNumber) || prNumber <= 0) throw new UsageError(`${JSON.stringify(pr)} is not a pull request number (e.g. 42)`);
    const remote = remoteOption(args);
    // A bare name would only come back as "not found".
    if (!REPOSITORY_NAME.test(name)) throw new UsageError(`${JSON.stringify(name)} is not a repository name: expected owner/repo (e.g. acme/api)`);
    const strictness = intOption(args, "strictness", { min: 1, max: 5 });
    const interval = intOption(args, "interval", { min: 100, max: 60_000 }) ?? 1000;
    const timeoutSeconds = intOption(args, "timeout", { min: 1, max: 24 * 3600 }) ?? 30 * 60;
    const client = ctx.client();
    const repo = { name, remote, defaultBranch: args.strings["default-branch"] ?? "main" };
    const input = { ...repo, prNumber, ...(args.strings.branch ? { branch: args.strings.branch } : {}), ...(strictness ? { strictness } : {}) };
    // The HTTP route when the server has it (POST /v2/code-reviews), else the tool endpoint (/mcp).
    type Trigger = { codeReviewId: string; status: string; message: string };
    let getReview: (id: string) => Promise<Review>;
    let triggered: Trigger;
    const response = await client.send("POST", "/v2/code-reviews", { json: input });
    if (response.status === 404 && (await response.clone().text()).includes("No route")) {
      const mcp = createMcpClient(client);
      triggered = await mcp.callTool<Trigger>("trigger_code_review", input);
      getReview = async (id) => (await mcp.callTool<{ codeReview: Review }>("get_code_review", { codeReviewId: id })).codeReview;
    } else {
      if (!response.ok) {
        throw await errorFor(response, "triggering the review", {
          404: "the pull request must be known to Loupe: configure the host's webhook, or check the name, --remote and the number",
        });
      }
      triggered = (await response.json()) as Trigger;
      getReview = async (id) => (await client.json<{ codeReview: Review }>("GET", `/v2/code-reviews/${encodeURIComponent(id)}`, undefined, "reading the review")).codeReview;
    }
    if (!ctx.json) out(`${triggered.message || "Review triggered"}: ${triggered.codeReviewId} (${triggered.status})`);
    if (args.booleans.wait === false) {
      if (ctx.json) out(JSON.stringify(triggered, null, 2));
      return 0;
    }
    const deadline = Date.now() + timeoutSeconds * 1000;
    const progress = createProgress(`review ${triggered.codeReviewId}`);
    let review: Review;
    for (;;) {
      review = await getReview(triggered.codeReviewId);
      progress.update(review.status, review.metadata?.completedFiles ?? 0, review.metadata?.totalFiles ?? 0);
      if (FINAL.has(review.status)) break;
      if (Date.now() > deadline) {
        progress.done();
        throw new CliError(`review ${review.id} still ${review.status} after ${timeoutSeconds} s (follow it later: it keeps running on the server; or raise --timeout)`);
      }
      await sleep(interval);
    }
    progress.done();
    if (ctx.json) {
      out(JSON.stringify(review, null, 2));
      return review.status === "FAILED" ? 1 : 0;
    }
    // A review that failed is an error (one line on stderr, exit 1); a skipped one says why and exits 0.
    if (review.status === "FAILED") throw new CliError(`review ${review.id} FAILED: ${review.reason || "no reason given"}`);
    out(`Review ${review.id}: ${review.status}${review.status === "SKIPPED" ? ` (${review.reason || "no reason given"})` : ""}`);
    if (review.body) out("\n" + review.body);
    return 0;
  },
};
