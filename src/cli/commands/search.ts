import { intOption, UsageError } from "../args.ts";
import { errorFor, notIndexedHint, parseRepoRef } from "../client.ts";
import type { Command } from "../command.ts";
import type { SearchResult } from "../../features/code-search/service.ts";
import { out, table } from "../output.ts";

/** A search result item (interface.md 2.2), as the service answers it. */
export type Source = SearchResult;

export const lines = (s: Source) => (s.linestart === null || s.linestart === undefined ? "" : s.lineend && s.lineend !== s.linestart ? `${s.linestart}-${s.lineend}` : String(s.linestart));

export function sourcesTable(sources: Source[], multiRepo: boolean): string {
  return table(
    ["FILE", "LINES", "SUMMARY"],
    sources.map((s) => [multiRepo ? `${s.repository}:${s.filepath}` : s.filepath, lines(s), s.summary]),
  );
}

export function repositoriesFrom(values: string[]) {
  if (values.length === 0) throw new UsageError("--repo remote:branch:owner/repo is required (repeat it for several repositories; `loupe status` lists them)");
  return values.map((v) => parseRepoRef(v));
}

/** `loupe search "<text>" --repo remote:branch:owner/repo`: POST /v2/search, as a table. */
export const searchCommand: Command = {
  name: "search",
  summary: "Search indexed repositories in natural language; prints the relevant files and lines.",
  usage: ['search "<text>" --repo remote:branch:owner/repo|local:branch:<name> [--repo ...] [--limit <1-100>]'],
  flags: { multiple: ["repo"], string: ["limit"] },
  async run(args, ctx) {
    const query = args.positionals.join(" ").trim();
    if (!query) throw new UsageError("search needs the text to search for");
    const repositories = repositoriesFrom(args.lists.repo ?? []);
    const limit = intOption(args, "limit", { min: 1, max: 100 });
    const response = await ctx.client().send("POST", "/v2/search", { json: { query, repositories, ...(limit ? { limit } : {}) } });
    if (!response.ok) throw await errorFor(response, "search", { repository_not_found: notIndexedHint(repositories) });
    const results = (await response.json()) as Source[];
    const shown = limit ? results.slice(0, limit) : results;
    if (ctx.json) out(JSON.stringify(shown, null, 2));
    else if (shown.length === 0) out("No results.");
    else out(sourcesTable(shown, repositories.length > 1));
    return 0;
  },
};
