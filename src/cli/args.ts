/**
 * A tiny argument parser: positionals, `--name value`, `--name=value`, boolean `--flag` / `--no-flag`,
 * repeatable options, short aliases (`-h`). Unknown options are usage errors.
 */
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
  alias?: Record<string, string>;
};

export type Parsed = {
  positionals: string[];
  strings: Record<string, string | undefined>;
  lists: Record<string, string[]>;
  booleans: Record<string, boolean>;
};

export function parseArgs(argv: readonly string[], spec: FlagSpec): Parsed {
  const strings = new Set(spec.string ?? []);
  const multiple = new Set(spec.multiple ?? []);
  const booleans = new Set(spec.boolean ?? []);
  const out: Parsed = { positionals: [], strings: {}, lists: {}, booleans: {} };
  for (const name of multiple) out.lists[name] = [];
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyPositionals || arg === "-" || !arg.startsWith("-")) {
      out.positionals.push(arg);
      continue;
    }
    if (arg === "--") {
      onlyPositionals = true;
      continue;
    }
    let name: string;
    let value: string | undefined;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
      value = eq > 0 ? arg.slice(eq + 1) : undefined;
    } else {
      name = spec.alias?.[arg.slice(1)] ?? "";
      if (!name) throw new UsageError(`unknown option ${arg}`);
    }
    if (booleans.has(name)) {
      if (value !== undefined) throw new UsageError(`option --${name} takes no value`);
      out.booleans[name] = true;
    } else if (name.startsWith("no-") && booleans.has(name.slice(3))) {
      out.booleans[name.slice(3)] = false;
    } else if (strings.has(name) || multiple.has(name)) {
      if (value === undefined) {
        const next = argv[i + 1];
        if (next === undefined || (next.startsWith("--") && next.length > 2)) throw new UsageError(`option --${name} needs a value`);
        value = next;
        i++;
      }
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
