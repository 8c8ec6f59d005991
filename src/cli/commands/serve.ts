import process from "node:process";
import { resolve } from "node:path";
import type { Command } from "../command.ts";
import { out } from "../output.ts";
import { intOption } from "../args.ts";

/**
 * `loupe serve`: starts the service in this process, exactly as `npm start` does (src/main.ts reads
 * the environment; the flags below just set it). `--local-root <dir>` (repeatable) lets
 * `loupe index <path>` index git repositories under that directory (LOUPE_LOCAL_ROOTS); with
 * neither the flag nor the variable set, the current directory is allowed.
 */
export const serveCommand: Command = {
  name: "serve",
  summary: "Start the Loupe service in this process (same as npm start). Stops on SIGTERM/SIGINT.",
  usage: ["serve [--port <n>] [--host <addr>] [--data-dir <dir>] [--local-root <dir>]..."],
  flags: { string: ["port", "host", "data-dir"], multiple: ["local-root"] },
  async run(args) {
    if (args.positionals.length > 0) throw new (await import("../args.ts")).UsageError(`unexpected argument ${args.positionals[0]}`);
    const port = intOption(args, "port", { min: 0, max: 65535 });
    if (port !== undefined) process.env.PORT = String(port);
    if (args.strings.host) process.env.LOUPE_HOST = args.strings.host;
    if (args.strings["data-dir"]) process.env.LOUPE_DATA_DIR = args.strings["data-dir"];
    const roots = args.lists["local-root"] ?? [];
    if (roots.length > 0) process.env.LOUPE_LOCAL_ROOTS = roots.map((r) => resolve(r)).join(",");
    else if (!process.env.LOUPE_LOCAL_ROOTS) {
      process.env.LOUPE_LOCAL_ROOTS = process.cwd();
      out(`Local repositories under ${process.cwd()} can be indexed (loupe index <path>); change with --local-root.`);
    }
    await import("../../main.ts");
    return 0;
  },
};
