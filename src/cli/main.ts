import process from "node:process";
import { parseArgs, UsageError } from "./args.ts";
import { CliError } from "./client.ts";
import { contextFor, globalFlags, type Command } from "./command.ts";
import { serveCommand } from "./commands/serve.ts";
import { indexCommand } from "./commands/index.ts";
import { statusCommand } from "./commands/status.ts";
import { searchCommand } from "./commands/search.ts";
import { queryCommand } from "./commands/query.ts";
import { reviewCommand } from "./commands/review.ts";
import { keysCommand } from "./commands/keys.ts";

/**
 * `loupe <command> ...`: the Loupe command line. Runs on Node (bin/loupe.js) and Deno
 * (`deno run -A src/cli/main.ts`). Talks to a running service (--url / LOUPE_URL, --key / LOUPE_API_KEY);
 * errors are one line on stderr and a non-zero exit (1 failure, 2 usage).
 */
const commands: Command[] = [serveCommand, indexCommand, statusCommand, searchCommand, queryCommand, reviewCommand, keysCommand];

function help(): string {
  const lines = ["Usage: loupe <command> [options]", "", "Commands:"];
  for (const c of commands) for (const u of c.usage) lines.push(`  loupe ${u}`);
  lines.push(
    "",
    "Options for every command:",
    "  --url <url>          service URL (env LOUPE_URL, default http://localhost:8080)",
    "  --key <key>          API key (env LOUPE_API_KEY)",
    "  --host-token <tok>   source-host token sent as X-Host-Token (env LOUPE_HOST_TOKEN)",
    "  --json               machine-readable output",
    "  -h, --help           this help",
  );
  return lines.join("\n");
}

export async function runCli(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(help() + "\n");
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "version") {
    process.stdout.write("loupe 0.1.0\n");
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`loupe: unknown command ${JSON.stringify(name)} (try: loupe --help)\n`);
    return 2;
  }
  try {
    const args = parseArgs(rest, {
      string: [...globalFlags.string, ...(command.flags.string ?? [])],
      multiple: command.flags.multiple ?? [],
      boolean: [...globalFlags.boolean, ...(command.flags.boolean ?? [])],
      alias: { ...globalFlags.alias, ...command.flags.alias },
    });
    if (args.booleans.help) {
      process.stdout.write(command.usage.map((u) => `Usage: loupe ${u}`).join("\n") + `\n\n${command.summary}\n`);
      return 0;
    }
    return (await command.run(args, contextFor(args))) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`loupe ${name}: ${error.message}\nUsage: ${command.usage.map((u) => `loupe ${u}`).join("\n       ")}\n`);
      return 2;
    }
    if (error instanceof CliError) {
      process.stderr.write(`loupe ${name}: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`loupe ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

const isServe = process.argv[2] === "serve";
const code = await runCli(process.argv.slice(2));
// `serve` keeps running (the server exits on its own signals); every other command exits now.
if (!(isServe && code === 0)) process.exit(code);
