/**
 * The repository's own JavaScript/TypeScript packages (./broken-callers.ts): a file of a monorepo
 * imports another workspace package by its name (`import { f } from "zod/v4/core"`), not by a
 * relative path, so the code graph does not resolve the import to a file. The package enclosing a
 * file is the nearest `package.json` above it that has a `name`.
 */
import { z } from "zod";

export type WorkspacePackage = { name: string; /** The folder holding its package.json ("" at the root). */ dir: string };

const PackageJson = z.object({ name: z.string().min(1) });

/** Folders read, up from a file: deep trees stop there. */
const MAX_LEVELS = 12;

/** `@scope/name/sub/path` -> `@scope/name`, `zod/v4/core` -> `zod`; null for a relative or absolute path, or a URL. */
export function packageNameOf(spec: string): string | null {
  if (spec.startsWith(".") || spec.startsWith("/") || /^[a-z]+:/i.test(spec)) return null;
  const parts = spec.split("/");
  return spec.startsWith("@") ? (parts.length >= 2 ? `${parts[0]}/${parts[1]}` : null) : parts[0]!;
}

/** The package enclosing a path at the head, read once per folder. */
export function workspacePackages(readHead: (path: string) => Promise<string | null>): (path: string) => Promise<WorkspacePackage | null> {
  const byDir = new Map<string, Promise<WorkspacePackage | null>>();
  const named = (dir: string) => {
    if (!byDir.has(dir)) {
      byDir.set(
        dir,
        readHead(dir === "" ? "package.json" : `${dir}/package.json`)
          .then((text) => {
            if (text === null) return null;
            try {
              const parsed = PackageJson.safeParse(JSON.parse(text));
              return parsed.success ? { name: parsed.data.name, dir } : null;
            } catch {
              return null;
            }
          })
          .catch(() => null),
      );
    }
    return byDir.get(dir)!;
  };
  return async (path) => {
    const parts = path.split("/").slice(0, -1);
    for (let n = parts.length; n >= 0 && parts.length - n < MAX_LEVELS; n--) {
      const found = await named(parts.slice(0, n).join("/"));
      if (found) return found;
    }
    return null;
  };
}
