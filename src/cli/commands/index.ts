import process from "node:process";
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { intOption, remoteOption, REPOSITORY_NAME, UsageError } from "../args.ts";
import { CliError, errorFor } from "../client.ts";
import type { Command } from "../command.ts";
import { createProgress, err, out, sleep } from "../output.ts";
import { repositoryIdOf, type RepositoryStatus } from "./repo-types.ts";

const looksLikePath = (arg: string) => arg.startsWith(".") || arg.startsWith("/") || arg.startsWith("~") || (existsSync(arg) && statSync(arg).isDirectory());

/**
 * `loupe index <owner/repo | path>`: submits a repository (POST /v2/repositories) or a local git
 * repository (POST /v2/repositories/local: the server must allow the path via LOUPE_LOCAL_ROOTS),
 * then follows GET /v2/repositories/{id} with a progress bar until it is completed or failed.
 */
export const indexCommand: Command = {
  name: "index",
  summary: "Index a repository (owner/repo on a host, or a local git repository path) and follow its progress.",
  usage: ["index <owner/repo | path> [--remote github|gitlab|bitbucket|azure] [--branch <b>] [--reload] [--no-wait] [--interval <ms>]"],
  flags: { string: ["remote", "branch", "interval"], boolean: ["reload", "wait"] },
  async run(args, ctx) {
    const [target, ...extra] = args.positionals;
    if (!target) throw new UsageError("index needs a repository (owner/repo) or a path");
    if (extra.length) throw new UsageError(`unexpected argument ${extra[0]}`);
    const client = ctx.client();
    const branch = args.strings.branch;
    const reload = args.booleans.reload === true;
    let submitted: { message: string; statusEndpoint: string; repositoryId?: string };
    if (looksLikePath(target)) {
      if (args.strings.remote) throw new UsageError("--remote applies to owner/repo, not to a local path");
      const path = resolve(target.replace(/^~(?=$|\/)/, process.env.HOME ?? "~"));
      const response = await client.send("POST", "/v2/repositories/local", { json: { path, ...(branch ? { branch } : {}), reload } });
      if (response.status === 404 && (await response.clone().text()).includes("No route")) {
        throw new CliError("this Loupe server cannot index local paths (no POST /v2/repositories/local); index owner/repo instead");
      }
      if (!response.ok) {
        throw await errorFor(response, "submitting the path", {
          403: "the server indexes paths only under LOUPE_LOCAL_ROOTS: start it with that variable (or `loupe serve --local-root <dir>`) naming a directory that holds this one; and only with an admin key of its bootstrap organisation",
          404: "check the path; it must exist on the server's machine",
          400: "give the top-level directory of a git repository with at least one commit",
        });
      }
      submitted = await response.json();
    } else {
      if (!REPOSITORY_NAME.test(target)) throw new UsageError(`${JSON.stringify(target)} is neither owner/repo nor an existing directory (a local path starts with ./ or /)`);
      const response = await client.send("POST", "/v2/repositories", { json: { remote: remoteOption(args), repository: target, ...(branch ? { branch } : {}), reload } });
      if (!response.ok) throw await errorFor(response, "submitting the repository");
      submitted = await response.json();
    }
    const statusPath = new URL(submitted.statusEndpoint, client.url).pathname;
    const id = submitted.repositoryId ?? decodeURIComponent(statusPath.split("/").pop() ?? "");
    if (!ctx.json) out(`${submitted.message}: ${id}`);
    if (args.booleans.wait === false) {
      if (ctx.json) out(JSON.stringify({ ...submitted, repositoryId: id }, null, 2));
      return 0;
    }

    const interval = intOption(args, "interval", { min: 100, max: 60_000 }) ?? 500;
    const progress = createProgress(id);
    let record: RepositoryStatus;
    for (;;) {
      const response = await client.send("GET", statusPath);
      if (!response.ok) {
        progress.done();
        throw await errorFor(response, "reading the status");
      }
      record = (await response.json()) as RepositoryStatus;
      progress.update(record.status, record.filesProcessed ?? 0, record.numFiles ?? 0);
      if (record.status === "completed" || record.status === "failed") break;
      await sleep(interval);
    }
    progress.done();
    if (ctx.json) out(JSON.stringify(record, null, 2));
    if (record.status === "failed") {
      throw new CliError(
        `indexing ${repositoryIdOf(record)} failed: ${record.failureReason ?? "unknown reason"} (check the name, its case and the branch on the host, and --host-token for a private repository; then run loupe index again)`,
      );
    }
    if (!ctx.json) {
      out(`Indexed ${repositoryIdOf(record)}: ${record.filesProcessed}/${record.numFiles} files at ${record.sha ?? "?"}`);
      if (record.sampleQuestions?.length) err(`Try: loupe query ${JSON.stringify(record.sampleQuestions[0])} --repo ${repositoryIdOf(record)}`);
    }
    return 0;
  },
};
