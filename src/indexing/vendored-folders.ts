import { detectLanguage } from "./chunking/languages.ts";

/**
 * Code copied in from another project, found from the tree alone: a folder (not the root, not
 * documentation or examples) that carries a license of its own (a license file that is not one of the
 * root's: another blob), holds code, and has no package manifest (a workspace member has one: it is the
 * project's own package with its own license file). Its files are skipped as vendored, like a `vendor/`
 * folder: a bundled library's words would otherwise outrank the project's own code.
 */
const LICENSE_FILE = /^(?:un)?licen[cs]e(?:[.-][\w.-]*)?$|^copying(?:[.-][\w.-]*)?$|^[\w.-]+[-_.]licen[cs]e(?:\.\w+)?$/i;

const MANIFESTS = new Set([
  "package.json",
  "Cargo.toml",
  "go.mod",
  "setup.py",
  "setup.cfg",
  "pyproject.toml",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "composer.json",
  "Gemfile",
  "mix.exs",
  "pubspec.yaml",
  "Package.swift",
  "meson.build",
  "CMakeLists.txt",
  "deno.json",
  "jsr.json",
]);

const DOCS_SEGMENT = /^(?:docs?|documentation|examples?|samples?|demos?)$/i;

type Folder = { licenses: string[]; manifest: boolean; code: boolean };

export function vendoredFolders(tree: readonly { path: string; blobId: string }[]): string[] {
  const folders = new Map<string, Folder>();
  const rootLicenses = new Set<string>();
  const folder = (dir: string): Folder => {
    let f = folders.get(dir);
    if (!f) folders.set(dir, (f = { licenses: [], manifest: false, code: false }));
    return f;
  };
  for (const { path, blobId } of tree) {
    const cut = path.lastIndexOf("/");
    const dir = cut === -1 ? "" : path.slice(0, cut);
    const name = path.slice(cut + 1);
    if (LICENSE_FILE.test(name)) {
      if (dir === "") rootLicenses.add(blobId);
      else folder(dir).licenses.push(blobId);
    }
    if (MANIFESTS.has(name)) folder(dir).manifest = true;
    const language = detectLanguage(path);
    if (language && language.chunking !== "text") {
      // Code counts for its folder and every folder above it.
      for (let d = dir; ; d = d.slice(0, Math.max(0, d.lastIndexOf("/")))) {
        const f = folders.get(d);
        if (f?.code) break;
        folder(d).code = true;
        if (d === "") break;
      }
    }
  }
  const out: string[] = [];
  for (const [dir, f] of folders) {
    if (dir === "" || f.manifest || !f.code || dir.split("/").some((s) => DOCS_SEGMENT.test(s))) continue;
    if (f.licenses.some((blob) => !rootLicenses.has(blob))) out.push(dir);
  }
  return out.sort();
}

/** True when `path` lies in one of `folders`. */
export function inFolders(path: string, folders: readonly string[]): boolean {
  return folders.some((dir) => path.startsWith(dir + "/"));
}
