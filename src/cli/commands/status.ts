import { UsageError } from "../args.ts";
import type { Command } from "../command.ts";
import { out, table } from "../output.ts";
import { repositoryIdOf, type RepositoryStatus } from "./repo-types.ts";

/** `loupe status [repositoryId]`: the service's readiness and the indexed repositories, or one repository. */
export const statusCommand: Command = {
  name: "status",
  summary: "Show the indexed repositories and their indexing status, or one repository (id remote:branch:owner/repo).",
  usage: ["status [remote:branch:owner/repo]"],
  flags: {},
  async run(args, ctx) {
    if (args.positionals.length > 1) throw new UsageError(`unexpected argument ${args.positionals[1]}`);
    const client = ctx.client();
    const id = args.positionals[0];
    if (id) {
      const r = await client.json<RepositoryStatus>("GET", `/v2/repositories/${encodeURIComponent(id)}`, undefined, "reading the status");
      if (ctx.json) {
        out(JSON.stringify(r, null, 2));
        return 0;
      }
      out(`Repository  ${repositoryIdOf(r)}`);
      out(`Status      ${r.status}`);
      out(`Files       ${r.filesProcessed}/${r.numFiles}`);
      out(`Commit      ${r.sha ?? "-"}`);
      if (r.indexedAt) out(`Indexed at  ${r.indexedAt}`);
      if (r.failureReason) out(`Failure     ${r.failureReason}`);
      if (r.sampleQuestions?.length) {
        out("Try asking:");
        for (const q of r.sampleQuestions) out(`  - ${q}`);
      }
      return r.status === "failed" ? 1 : 0;
    }
    const me = await client.json<{ keyId: string; orgId: string; role: string }>("GET", "/v2/me", undefined, "reading the caller");
    const response = await client.send("GET", "/readyz", { auth: false });
    const ready = (await response.json().catch(() => ({}))) as { status?: string };
    const { repositories } = await client.json<{ repositories: RepositoryStatus[] }>("GET", "/v2/repositories", undefined, "listing repositories");
    if (ctx.json) {
      out(JSON.stringify({ service: { url: client.url, status: ready.status ?? "unknown" }, caller: me, repositories }, null, 2));
      return 0;
    }
    out(`Service     ${client.url} (${ready.status ?? "unknown"})`);
    out(`Caller      key ${me.keyId} (${me.role}) in organisation ${me.orgId}`);
    out("");
    if (repositories.length === 0) out("No repositories indexed yet (loupe index <owner/repo | path>).");
    else out(table(["REPOSITORY", "STATUS", "FILES", "COMMIT"], repositories.map((r) => [repositoryIdOf(r), r.status, `${r.filesProcessed}/${r.numFiles}`, r.sha?.slice(0, 12) ?? "-"])));
    return 0;
  },
};
