/**
 * Command-line arguments: `node:util`'s `parseArgs` splits them (positionals, `--name value`,
 * `--name=value`, `--`, short aliases such as `-h`, also grouped), read as tokens in its non-strict mode
 * so that the checks, and their messages, are Loupe's own: an unknown option, a value missing or given
 * to a flag, a value that is the next option (`--repo --json`). `--no-<flag>` turns a boolean off;
 * options listed as `multiple` may repeat.
 */
import { parseArgs as splitArgs } from "node:util";
import { REMOTES, type Remote } from "../hosts/types.ts";

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export type FlagSpec = {
  /** Options that take a value. */
  string?: readonly string[];
  /** Options that may be given several times (also take a value). */
  multiple?: readonly string[];
  boolean?: readonly string[];
  /** One-letter aliases: `{ h: "help" }`. */
  alias?: Record<string, string>;
};

export type Parsed = {
  positionals: string[];
  strings: Record<string, string | undefined>;
  lists: Record<string, string[]>;
  booleans: Record<string, boolean>;
};

type OptionConfig = { type: "string" | "boolean"; multiple?: boolean; short?: string };

export function parseArgs(argv: readonly string[], spec: FlagSpec): Parsed {
  const strings = new Set(spec.string ?? []);
  const multiple = new Set(spec.multiple ?? []);
  const booleans = new Set(spec.boolean ?? []);
  const options: Record<string, OptionConfig> = {};
  for (const name of strings) options[name] = { type: "string" };
  for (const name of multiple) options[name] = { type: "string", multiple: true };
  for (const name of booleans) options[name] = { type: "boolean" };
  for (const [short, name] of Object.entries(spec.alias ?? {})) if (options[name]) options[name] = { ...options[name], short };
  const { tokens } = splitArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });

  const out: Parsed = { positionals: [], strings: {}, lists: {}, booleans: {} };
  for (const name of multiple) out.lists[name] = [];
  for (const token of tokens) {
    if (token.kind === "positional") out.positionals.push(token.value);
    if (token.kind !== "option") continue;
    const { name, rawName, value, inlineValue } = token;
    if (!options[name] && rawName.length === 2) throw new UsageError(`unknown option ${rawName}`);
    if (booleans.has(name)) {
      if (value !== undefined) throw new UsageError(`option --${name} takes no value`);
      out.booleans[name] = true;
    } else if (name.startsWith("no-") && booleans.has(name.slice(3))) {
      out.booleans[name.slice(3)] = false;
    } else if (strings.has(name) || multiple.has(name)) {
      // `--repo --json`: the next option is not taken for the value.
      if (value === undefined || (!inlineValue && value.startsWith("--") && value.length > 2)) throw new UsageError(`option --${name} needs a value`);
      if (multiple.has(name)) out.lists[name]!.push(value);
      else out.strings[name] = value;
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return out;
}

/**
 * A whole-number option, checked: absent -> undefined; anything but an integer within [min, max] is a
 * usage error naming the option, the range and what was given (`--limit abc` is never silently ignored).
 */
export function intOption(args: Parsed, name: string, range: { min: number; max: number }): number | undefined {
  const raw = args.strings[name];
  if (raw === undefined) return undefined;
  const value = /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    throw new UsageError(`--${name} must be a whole number from ${range.min} to ${range.max} (got ${JSON.stringify(raw)})`);
  }
  return value;
}

/** A repository on a host: owner/repo (GitLab groups nest: group/subgroup/repo). */
export const REPOSITORY_NAME = /^[^/\s]+(\/[^/\s]+)+$/;

/** `--remote`, checked: absent -> github; anything but a known host is a usage error naming the choices. */
export function remoteOption(args: Parsed): Remote {
  const raw = args.strings.remote;
  if (raw === undefined) return "github";
  const remote = REMOTES.find((r) => r === raw.trim().toLowerCase());
  if (!remote) throw new UsageError(`--remote must be one of ${REMOTES.join(", ")} (got ${JSON.stringify(raw)})`);
  return remote;
}
