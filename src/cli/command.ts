import type { FlagSpec, Parsed } from "./args.ts";
import { createClient, clientOptions, type Client } from "./client.ts";

/** One CLI command (src/cli/commands/<name>.ts). */
export type Command = {
  name: string;
  summary: string;
  /** Usage lines after `loupe `, e.g. `keys issue <name> [--role admin|member]`. */
  usage: string[];
  flags: FlagSpec;
  run(args: Parsed, context: CommandContext): Promise<number | void>;
};

export type CommandContext = {
  /** A client for the running service from --url/--key/--host-token or LOUPE_URL/LOUPE_API_KEY/LOUPE_HOST_TOKEN. */
  client(): Client;
  json: boolean;
};

/** Options every command accepts. */
export const globalFlags = {
  string: ["url", "key", "host-token"],
  boolean: ["json", "help"],
  alias: { h: "help" },
} as const;

export function contextFor(args: Parsed): CommandContext {
  let client: Client | undefined;
  return {
    client: () =>
      (client ??= createClient(clientOptions({ url: args.strings.url, key: args.strings.key, hostToken: args.strings["host-token"] }))),
    json: args.booleans.json === true,
  };
}
