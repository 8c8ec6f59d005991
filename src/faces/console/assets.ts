/**
 * The console's stylesheet, client script and icon: plain files beside this one, read once at start-up and
 * served by Loupe itself (nothing from a CDN, nothing inline), with a content hash in the URL.
 */
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";

const read = (name: string) => readFileSync(fileURLToPath(new URL(`./assets/${name}`, import.meta.url)), "utf8");
const versionOf = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 12);

const files = {
  "console.js": { body: read("console.js"), type: "text/javascript; charset=utf-8" },
  "console.css": { body: read("console.css"), type: "text/css; charset=utf-8" },
  "favicon.svg": { body: read("favicon.svg"), type: "image/svg+xml" },
} as const;

export type AssetName = keyof typeof files;

export const ASSET_PATHS = {
  js: `/console/assets/console.js?v=${versionOf(files["console.js"].body)}`,
  css: `/console/assets/console.css?v=${versionOf(files["console.css"].body)}`,
  icon: `/console/assets/favicon.svg?v=${versionOf(files["favicon.svg"].body)}`,
};

export function asset(name: string): { body: string; type: string; etag: string } | undefined {
  const file = files[name as AssetName];
  return file ? { ...file, etag: `"${versionOf(file.body)}"` } : undefined;
}
