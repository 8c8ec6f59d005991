/**
 * Rules kept in the repository under `.loupe/` folders (the hosted product's `.greptile/`).
 *
 * Any folder F may hold:
 *   - `F/.loupe/config.json`:
 *       { "strictness": 1-5, "ignore": ["glob", "!glob", ...],
 *         "rules": [{ "id", "body", "type": "PATTERN"|"CUSTOM_INSTRUCTION" (default CUSTOM_INSTRUCTION),
 *                     "severity" (default "medium"), "status" (INACTIVE disables),
 *                     "scope": "glob" | ["glob", ...] | <scope object, interface.md 2.6> }] }
 *   - `F/.loupe/<name>.md`: one rule per file, a CUSTOM_INSTRUCTION unless its front matter says
 *     `type: PATTERN`. Front matter (optional, between `---` lines) keys: `type`, `severity`, `id`,
 *     `status`, `scope` (a glob, `a, b` or `[a, b]`). The id defaults to the file's path.
 * Everything in F applies to F's subtree only, cascading from the root to the file's folder:
 *   - strictness: the deepest folder that sets it wins, over the review's own strictness for the
 *     files under it (`strictnessOf`);
 *   - rules accumulate; a deeper rule with the same id replaces the shallower one;
 *   - ignore globs accumulate and are evaluated in order root -> leaf, gitignore style: relative to
 *     F, a glob without `/` matches the file name at any depth, a trailing `/` means a folder,
 *     `!glob` un-ignores, the last matching glob decides.
 * Glob scopes of a rule are relative to F as well; a scope object is evaluated with the
 * repository-relative path (and the repository when given to rulesFor).
 * Invalid files are skipped and reported in `errors`; they never throw.
 */
import { z } from "zod";
import { isSeverity, SEVERITIES, type Severity } from "./findings.ts";
import { compileGlob, type CompiledGlob } from "./glob.ts";
import type { CustomContextLike, CustomContextType } from "./patterns.ts";
import { ScopeSchema, scopeApplies, type Scope } from "./scope.ts";
import { MAX_INPUT_DEPTH, nestsDeeperThan, tooDeepMessage } from "../json-bounds.ts";
import { normalizeStrictness, type Strictness } from "./strictness.ts";

export const MAX_RULE_FILES = 200;
export const MAX_RULE_BODY = 20_000;

export type RepoRule = {
  id: string;
  type: CustomContextType;
  body: string;
  severity: Severity;
  /** File that defined the rule. */
  source: string;
  /** Folder whose subtree the rule applies to ("" = repository root). */
  folder: string;
};

export type RulesForFile = {
  strictness?: Strictness;
  /** The folder whose `.loupe/config.json` set `strictness` (the deepest that sets it; "" = root). */
  strictnessFolder?: string;
  ignored: boolean;
  rules: RepoRule[];
};

export type RepoRuleSet = {
  /** Folders that hold a `.loupe/` directory, root first. */
  folders: string[];
  errors: { path: string; message: string }[];
  rulesFor(filePath: string, options?: { repository?: string | null }): RulesForFile;
};

type RuleScope = { globs: CompiledGlob[] } | { scope: Scope } | null;
type LoadedRule = RepoRule & { scope: RuleScope; inactive: boolean };
type FolderRules = { folder: string; strictness?: Strictness; ignore: { glob: CompiledGlob; negate: boolean }[]; rules: LoadedRule[] };

const RuleSchema = z.object({
  id: z.string().min(1).max(200),
  body: z.string().min(1).max(MAX_RULE_BODY),
  type: z.enum(["PATTERN", "CUSTOM_INSTRUCTION"]).default("CUSTOM_INSTRUCTION"),
  severity: z.enum(SEVERITIES).default("medium"),
  status: z.enum(["ACTIVE", "INACTIVE", "SUGGESTED"]).optional(),
  scope: z.union([z.string().max(1000), z.array(z.string().max(1000)).max(100), ScopeSchema]).optional(),
});

const ConfigSchema = z.object({
  strictness: z.number().int().min(1).max(5).optional(),
  ignore: z.array(z.string().max(1000)).max(500).optional(),
  rules: z.array(RuleSchema).max(500).optional(),
});

function folderOfLoupe(path: string): string | null {
  const m = /^(?:(.*)\/)?\.loupe\/([^/]+)$/.exec(path);
  return m ? (m[1] ?? "") : null;
}

/** gitignore-like glob relative to a folder. */
function relativeGlob(pattern: string): CompiledGlob {
  let p = pattern.trim();
  const anchored = p.startsWith("/");
  if (anchored) p = p.slice(1);
  const dirOnly = p.endsWith("/");
  if (dirOnly) p = p.slice(0, -1);
  const hasSlash = p.includes("/");
  if (!hasSlash && !anchored) p = `**/${p}`;
  if (dirOnly) p = `${p}/**`;
  const base = compileGlob(p);
  const under = dirOnly ? null : compileGlob(`${p}/**`); // a folder name also ignores its contents
  return { pattern, match: (path) => base.match(path) || (under?.match(path) ?? false) };
}

function relativeTo(folder: string, path: string): string | null {
  if (folder === "") return path;
  return path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : null;
}

function parseFrontMatter(text: string): { meta: Record<string, string>; body: string } {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!m) return { meta: {}, body: text };
  const meta: Record<string, string> = {};
  for (const line of m[1]!.split(/\r?\n/)) {
    const kv = /^\s*([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$/.exec(line);
    if (kv) meta[kv[1]!.toLowerCase()] = kv[2]!.replace(/^(["'])(.*)\1$/, "$2");
  }
  return { meta, body: m[2]! };
}

function globList(value: string): string[] {
  const inner = value.replace(/^\[(.*)\]$/, "$1");
  return inner
    .split(",")
    .map((s) => s.trim().replace(/^(["'])(.*)\1$/, "$2"))
    .filter((s) => s !== "");
}

export async function loadRepoRules(paths: readonly string[], read: (path: string) => Promise<string>): Promise<RepoRuleSet> {
  const errors: { path: string; message: string }[] = [];
  const byFolder = new Map<string, FolderRules>();
  const folderRules = (folder: string): FolderRules => {
    let f = byFolder.get(folder);
    if (!f) byFolder.set(folder, (f = { folder, ignore: [], rules: [] }));
    return f;
  };
  const ruleFiles = paths
    .filter((p) => {
      const folder = folderOfLoupe(p);
      return folder !== null && (p.endsWith("/config.json") || p === ".loupe/config.json" || p.toLowerCase().endsWith(".md"));
    })
    .sort();
  if (ruleFiles.length > MAX_RULE_FILES) errors.push({ path: ".loupe", message: `more than ${MAX_RULE_FILES} rule files; the rest are ignored` });

  const compileScope = (path: string, raw: string | string[] | Scope | undefined): RuleScope | undefined => {
    if (raw === undefined) return null;
    if (typeof raw === "string" || Array.isArray(raw)) {
      try {
        return { globs: (typeof raw === "string" ? [raw] : raw).map(relativeGlob) };
      } catch (e) {
        errors.push({ path, message: `invalid scope glob: ${e instanceof Error ? e.message : String(e)}` });
        return undefined;
      }
    }
    return { scope: raw };
  };

  for (const path of ruleFiles.slice(0, MAX_RULE_FILES)) {
    const folder = folderOfLoupe(path)!;
    let text: string;
    try {
      text = await read(path);
    } catch (e) {
      errors.push({ path, message: `cannot read: ${e instanceof Error ? e.message : String(e)}` });
      continue;
    }
    if (path.endsWith("config.json")) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (e) {
        errors.push({ path, message: `invalid JSON: ${e instanceof Error ? e.message : String(e)}` });
        continue;
      }
      // The schema recurses into scopes: a file nested thousands of levels deep would overflow the stack.
      if (nestsDeeperThan(json, MAX_INPUT_DEPTH)) {
        errors.push({ path, message: `(root): ${tooDeepMessage()}` });
        continue;
      }
      const parsed = ConfigSchema.safeParse(json);
      if (!parsed.success) {
        errors.push({ path, message: parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ") });
        continue;
      }
      const fr = folderRules(folder);
      if (parsed.data.strictness !== undefined) fr.strictness = normalizeStrictness(parsed.data.strictness);
      for (const g of parsed.data.ignore ?? []) {
        const negate = g.startsWith("!");
        try {
          fr.ignore.push({ glob: relativeGlob(negate ? g.slice(1) : g), negate });
        } catch (e) {
          errors.push({ path, message: `invalid ignore glob "${g}": ${e instanceof Error ? e.message : String(e)}` });
        }
      }
      for (const r of parsed.data.rules ?? []) {
        const scope = compileScope(path, r.scope);
        if (scope === undefined) continue;
        fr.rules.push({ id: r.id, type: r.type, body: r.body, severity: r.severity, source: path, folder, scope, inactive: r.status !== undefined && r.status !== "ACTIVE" });
      }
      continue;
    }
    const { meta, body } = parseFrontMatter(text);
    if (body.trim() === "") {
      errors.push({ path, message: "empty rule" });
      continue;
    }
    if (body.length > MAX_RULE_BODY) {
      errors.push({ path, message: `rule longer than ${MAX_RULE_BODY} characters` });
      continue;
    }
    const type = (meta["type"] ?? "").toUpperCase() === "PATTERN" ? "PATTERN" : "CUSTOM_INSTRUCTION";
    const sev = (meta["severity"] ?? "medium").toLowerCase();
    if (!isSeverity(sev)) errors.push({ path, message: `unknown severity "${meta["severity"]}", using medium` });
    const scope = compileScope(path, meta["scope"] ? globList(meta["scope"]) : undefined);
    if (scope === undefined) continue;
    const status = (meta["status"] ?? "ACTIVE").toUpperCase();
    folderRules(folder).rules.push({
      id: meta["id"] || path,
      type,
      body: body.trim(),
      severity: isSeverity(sev) ? sev : "medium",
      source: path,
      folder,
      scope,
      inactive: status !== "ACTIVE",
    });
  }

  const folders = [...byFolder.keys()].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1));
  return {
    folders,
    errors,
    rulesFor(filePath, options = {}) {
      const path = filePath.replace(/^\.?\//, "");
      let strictness: Strictness | undefined;
      let strictnessFolder: string | undefined;
      let ignored = false;
      const rules = new Map<string, RepoRule>();
      for (const folder of folders) {
        const rel = relativeTo(folder, path);
        if (rel === null) continue;
        const fr = byFolder.get(folder)!;
        if (fr.strictness !== undefined) {
          strictness = fr.strictness;
          strictnessFolder = folder;
        }
        for (const ig of fr.ignore) if (ig.glob.match(rel)) ignored = !ig.negate;
        for (const r of fr.rules) {
          if (!ruleScopeApplies(r.scope, rel, path, options.repository ?? null)) continue;
          rules.delete(r.id); // a deeper definition replaces (and moves after) a shallower one
          if (!r.inactive) rules.set(r.id, { id: r.id, type: r.type, body: r.body, severity: r.severity, source: r.source, folder: r.folder });
        }
      }
      const out: RulesForFile = { ignored, rules: [...rules.values()] };
      if (strictness !== undefined) {
        out.strictness = strictness;
        out.strictnessFolder = strictnessFolder!;
      }
      return out;
    },
  };
}

function depth(folder: string): number {
  return folder === "" ? 0 : folder.split("/").length;
}

function ruleScopeApplies(scope: RuleScope, rel: string, path: string, repository: string | null): boolean {
  if (scope === null) return true;
  if ("globs" in scope) return scope.globs.some((g) => g.match(rel));
  return scopeApplies(scope.scope, { repository, filepath: path });
}

/**
 * The strictness a file is reviewed at: the deepest `.loupe/config.json` over it that sets one, else
 * the review's own (`requested`), with the folder that decided (null: the review's).
 */
export function strictnessOf(rules: RepoRuleSet | null, filePath: string, requested: number, repository?: string | null): { strictness: number; folder: string | null } {
  const found = rules?.rulesFor(filePath, { repository: repository ?? null });
  return found?.strictness !== undefined ? { strictness: found.strictness, folder: found.strictnessFolder ?? "" } : { strictness: requested, folder: null };
}

/** A repository rule in the shape patterns.ts consumes (ids are prefixed with "repo:"). */
export function repoRuleAsContext(rule: RepoRule): CustomContextLike {
  return { id: `repo:${rule.id}`, type: rule.type, body: rule.body, status: "ACTIVE", scopes: {}, severity: rule.severity, metadata: { source: rule.source } };
}
