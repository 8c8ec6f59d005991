import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename, isAbsolute, join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { gitText } from "../../git/run.ts";
import { LOCAL_OWNER, LOCAL_REMOTE } from "../../indexing/repo-id.ts";

/**
 * Local repositories: git repositories on the server's disk, indexed by path (`loupe index ./repo`).
 *
 * Only directories under LOUPE_LOCAL_ROOTS qualify (after resolving symlinks, so neither `..` nor a
 * symlink leads outside). A registered path becomes the repository `local/<name>-<hash>` of the
 * `github` remote (the wire's four remotes are fixed; owner `local` with a path hash cannot clash with
 * a real repository in practice), and the indexer clones it from `file://<path>` instead of the host.
 * The name -> path table lives in `<dataDir>/local-repositories.json` (configuration-like state: a
 * restart resumes an interrupted job of a local repository). Only committed content is indexed.
 */
export { LOCAL_OWNER, LOCAL_REMOTE };

/** Why another organisation than the bootstrap one may not index local paths. */
export const LOCAL_PATHS_OPERATOR_ONLY =
  "Only an admin key of the instance's bootstrap organisation may index repositories on the server's disk (LOUPE_LOCAL_ROOTS is the operator's setting)";

export class LocalPathError extends Error {
  constructor(
    readonly status: 400 | 403 | 404,
    message: string,
  ) {
    super(message);
    this.name = "LocalPathError";
  }
}

export type LocalRepositories = ReturnType<typeof createLocalRepositories>;

export function createLocalRepositories({ roots, dataDir, operatorOrg }: {
  roots: readonly string[];
  dataDir: string;
  /** The bootstrap organisation: the only one whose work may index (and search) local paths. */
  operatorOrg: () => string | undefined;
}) {
  const file = join(dataDir, "local-repositories.json");
  const table = new Map<string, string>();
  if (existsSync(file)) {
    try {
      for (const [name, path] of Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, string>)) table.set(name, path);
    } catch {
      // A damaged table only forgets registrations; paths can be registered again.
    }
  }
  const realRoots = () =>
    roots.flatMap((root) => {
      try {
        return [realpathSync(resolve(root))];
      } catch {
        return [];
      }
    });
  const save = () => {
    const temp = `${file}.tmp-${randomBytes(4).toString("hex")}`;
    writeFileSync(temp, JSON.stringify(Object.fromEntries(table), null, 2));
    renameSync(temp, file);
  };
  const inside = (path: string, allowed: string[]) => allowed.some((root) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep));

  return {
    enabled: () => roots.length > 0,
    roots: () => [...roots],
    /** Whether `orgId` may index local paths: the bootstrap organisation only (LOUPE_LOCAL_ROOTS is the operator's setting). */
    mayIndex: (orgId: string) => orgId === operatorOrg(),

    /** Checks the path and registers it; returns the repository name to submit (remote `github`). */
    async register(rawPath: string): Promise<{ remote: typeof LOCAL_REMOTE; repository: string; path: string }> {
      if (roots.length === 0) throw new LocalPathError(403, "Indexing local paths is disabled on this server (set LOUPE_LOCAL_ROOTS)");
      if (typeof rawPath !== "string" || !isAbsolute(rawPath) || rawPath.includes("\0")) throw new LocalPathError(400, "path must be an absolute path");
      const allowed = realRoots();
      // Refuse before touching the file system when the lexical path is already outside the roots.
      const lexical = resolve(rawPath);
      const lexicalRoots = roots.map((r) => resolve(r));
      if (!inside(lexical, lexicalRoots) && !inside(lexical, allowed)) throw new LocalPathError(403, "path is outside the directories this server may index (LOUPE_LOCAL_ROOTS)");
      let real: string;
      try {
        real = realpathSync(lexical);
      } catch {
        throw new LocalPathError(404, `path not found: ${rawPath}`);
      }
      if (!inside(real, allowed)) throw new LocalPathError(403, "path is outside the directories this server may index (LOUPE_LOCAL_ROOTS)");
      if (!statSync(real).isDirectory()) throw new LocalPathError(400, "path is not a directory");
      let top: string;
      try {
        const bare = (await gitText(["rev-parse", "--is-bare-repository"], { cwd: real, timeoutMs: 10_000 })) === "true";
        top = bare ? realpathSync(await gitText(["rev-parse", "--absolute-git-dir"], { cwd: real, timeoutMs: 10_000 })) : realpathSync(await gitText(["rev-parse", "--show-toplevel"], { cwd: real, timeoutMs: 10_000 }));
      } catch {
        throw new LocalPathError(400, "path is not a git repository");
      }
      if (top !== real) throw new LocalPathError(400, `path is inside a git repository; give its top-level directory`);
      const slug = basename(real).toLowerCase().replace(/\.git$/, "").replace(/[^a-z0-9._-]+/g, "-").replace(/^[-.]+/, "").slice(0, 60) || "repo";
      const hash = createHash("sha256").update(real).digest("hex").slice(0, 8);
      const repository = `${LOCAL_OWNER}/${slug}-${hash}`;
      if (table.get(repository) !== real) {
        table.set(repository, real);
        save();
      }
      return { remote: LOCAL_REMOTE, repository, path: real };
    },

    /** For the indexer: the file:// URL of a registered local repository, else undefined. */
    cloneUrlFor(remote: string, repository: string): string | undefined {
      if (remote !== LOCAL_REMOTE || !repository.toLowerCase().startsWith(`${LOCAL_OWNER}/`)) return undefined;
      const path = table.get(repository.toLowerCase());
      // Re-checked at use: a root removed from LOUPE_LOCAL_ROOTS stops being readable.
      if (!path || !inside(path, realRoots())) return undefined;
      return pathToFileURL(path).href;
    },
  };
}
