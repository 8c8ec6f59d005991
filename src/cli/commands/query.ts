import process from "node:process";
import { UsageError } from "../args.ts";
import { CliError, errorFor, notIndexedHint } from "../client.ts";
import type { Command } from "../command.ts";
import { out, err } from "../output.ts";
import { repositoriesFrom, sourcesTable, type Source } from "./search.ts";

type StreamLine = { type: "status" | "message" | "sources" | "error"; message: unknown };

/**
 * `loupe query "<question>" --repo ...`: POST /v2/query with `stream: true`; the answer is written to
 * stdout as its pieces arrive (NDJSON lines), status lines go to stderr, then the sources table.
 */
export const queryCommand: Command = {
  name: "query",
  summary: "Ask a question about indexed repositories; streams the answer, then lists the sources.",
  usage: ['query "<question>" --repo remote:branch:owner/repo|local:branch:<name> [--repo ...] [--session <id>] [--no-stream]'],
  flags: { multiple: ["repo"], string: ["session"], boolean: ["stream"] },
  async run(args, ctx) {
    const question = args.positionals.join(" ").trim();
    if (!question) throw new UsageError("query needs a question");
    const repositories = repositoriesFrom(args.lists.repo ?? []);
    const stream = args.booleans.stream !== false && !ctx.json;
    const body = {
      messages: [{ id: "1", role: "user", content: question }],
      repositories,
      stream,
      ...(args.strings.session ? { sessionId: args.strings.session } : {}),
    };
    const response = await ctx.client().send("POST", "/v2/query", { json: body, headers: { accept: "application/x-ndjson, application/json" } });
    if (!response.ok) throw await errorFor(response, "query", { repository_not_found: notIndexedHint(repositories) });
    const type = response.headers.get("content-type") ?? "";
    let sources: Source[] = [];
    if (!type.includes("ndjson") && !type.includes("event-stream")) {
      const result = (await response.json()) as { message: string; sources: Source[] };
      if (ctx.json) {
        out(JSON.stringify(result, null, 2));
        return 0;
      }
      out(result.message);
      sources = result.sources ?? [];
    } else {
      const statusTty = Boolean(process.stderr.isTTY);
      let answered = false;
      let ended = false;
      const handle = (line: string) => {
        const text = line.startsWith("data:") ? line.slice(5).trim() : line.trim();
        if (!text) return;
        let item: StreamLine;
        try {
          item = JSON.parse(text) as StreamLine;
        } catch {
          return;
        }
        if (item.type === "message" && typeof item.message === "string") {
          process.stdout.write(item.message);
          answered = true;
        } else if (item.type === "sources" && Array.isArray(item.message)) sources = item.message as Source[];
        else if (item.type === "status" && item.message === "") ended = true;
        else if (item.type === "status" && typeof item.message === "string") {
          process.stderr.write(statusTty ? `\x1b[2m${item.message}\x1b[0m\n` : `${item.message}\n`);
        } else if (item.type === "error") throw new CliError(`query failed: ${typeof item.message === "string" ? item.message : JSON.stringify(item.message)} (try again; if it persists, see the server's logs)`);
      };
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let nl: number;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          handle(buffer.slice(0, nl));
          buffer = buffer.slice(nl + 1);
        }
      }
      handle(buffer);
      if (answered) process.stdout.write("\n");
      // The stream ends with {"type":"status","message":""}; anything else means the server stopped early.
      if (!ended) throw new CliError("the answer stream ended before it was complete (see the server's logs)");
    }
    out("");
    if (sources.length) {
      out("Sources:");
      out(sourcesTable(sources, repositories.length > 1));
    } else err("(no sources)");
    return 0;
  },
};
