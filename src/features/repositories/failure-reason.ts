/**
 * Why an indexing job failed, in words for the client: git's telling line, no token, and none of the
 * server's file system paths (those go to the log with the full reason).
 */
import { fileURLToPath } from "node:url";
import type { Config } from "../../config.ts";
import { GitRefNotFoundError } from "../../git/mirrors.ts";
import { GitNameError } from "../../git/names.ts";
import { GitError, redact } from "../../git/run.ts";

/** A reason for the client: git errors are already redacted; anything else is summarised. */
export function failureReason(error: unknown, token?: string): string {
  let text: string;
  if (error instanceof GitRefNotFoundError) text = `Branch not found: ${error.ref}`;
  else if (error instanceof GitNameError) text = error.message;
  else if (error instanceof GitError) {
    const stderr = error.stderr.toLowerCase();
    // git's most telling line: its `fatal:` / `ERROR:` line, not the advice that follows it
    // ("Please make sure you have the correct access rights / and the repository exists.").
    const lines = error.stderr.split("\n").map((l) => l.trim()).filter(Boolean);
    const cause = lines.find((l) => /^(fatal|error|remote: error):/i.test(l)) ?? lines[0] ?? error.message;
    if (/does not appear to be a git repository|repository not found|not found|could not read from remote/.test(stderr)) {
      text = `Repository not found on the host, or not readable with the token given (check the name, its case on case-sensitive hosts, and the host token): ${cause}`;
    } else if (/could not resolve host|connection refused|timed out|unable to access|network is unreachable/.test(stderr) || error.timedOut) {
      text = `Could not reach the host (${cause}); try again later`;
    } else text = error.message;
  } else text = error instanceof Error ? error.message : String(error);
  return redact(text, token ? [token] : []).slice(0, 1900);
}

/**
 * A failure reason as clients see it: without the server's file system paths (a `file://` host's
 * directories, the mirrors, the data directory). The repository's own clone URL or path reads as its
 * name; anything else under those paths as "(server path)". The full reason goes to the log.
 */
export function withoutServerPaths(text: string, repository: string, places: { cloneUrl: string; paths: readonly string[] }): string {
  const asPath = (value: string) => {
    if (!value.startsWith("file:")) return value;
    try {
      return fileURLToPath(value);
    } catch {
      return value;
    }
  };
  const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  let out = text;
  if (places.cloneUrl.startsWith("file:")) {
    const own = asPath(places.cloneUrl).replace(/\/+$/, "");
    for (const needle of [places.cloneUrl, own]) out = out.replace(new RegExp(`${escape(needle)}/?`, "g"), repository);
  }
  const others = places.paths.map(asPath).filter((p) => p.startsWith("/") && p.length > 1).sort((a, b) => b.length - a.length);
  for (const needle of others) out = out.replace(new RegExp(`(?:file://)?${escape(needle)}[^\\s'"]*`, "g"), "(server path)");
  return out;
}

/** The server's own places a failure reason may name: `file://` host bases, the mirrors, the data directory. */
export const serverPaths = (config: Config, mirrorsRoot: string): string[] => [...Object.values(config.hostUrls), mirrorsRoot, config.dataDir];
