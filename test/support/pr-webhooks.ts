/** Helpers for pull request / review tests: signed GitHub deliveries and real git repositories. */
import { createHmac, randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TestServer } from "./server.ts";

export const GITHUB_SECRET = "test webhook secret for github";

export const signGitHub = (body: string, secret = GITHUB_SECRET) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/** Posts a signed GitHub delivery; returns the response. */
export function deliverGitHub(server: TestServer, event: string, payload: unknown, options: { deliveryId?: string; secret?: string | null } = {}) {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-github-event": event,
    "x-github-delivery": options.deliveryId ?? randomUUID(),
  };
  if (options.secret !== null) headers["x-hub-signature-256"] = signGitHub(body, options.secret ?? GITHUB_SECRET);
  return fetch(`${server.baseUrl}/webhooks/github`, { method: "POST", headers, body });
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "Dev", GIT_AUTHOR_EMAIL: "dev@example.com", GIT_COMMITTER_NAME: "Dev", GIT_COMMITTER_EMAIL: "dev@example.com" },
  }).trim();

/**
 * A "host" on disk: `<root>/<owner>/<repo>.git` (bare), served to Loupe as LOUPE_GITHUB_URL=file://<root>,
 * plus a working clone to commit and push from.
 */
export function createHostRepo(fullName: string) {
  const root = mkdtempSync(join(tmpdir(), "loupe-host-"));
  const bare = join(root, `${fullName}.git`);
  mkdirSync(dirname(bare), { recursive: true });
  execFileSync("git", ["init", "--bare", "--quiet", "--initial-branch=main", bare]);
  const work = join(root, "work");
  execFileSync("git", ["clone", "--quiet", bare, work], { stdio: "ignore" });
  git(work, "checkout", "-q", "-B", "main");
  return {
    root,
    url: `file://${root}`,
    write(path: string, content: string) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), content);
    },
    /** Deletes a file of the working clone (the next commit records it). */
    removeFile(path: string) {
      rmSync(join(work, path));
    },
    commit(message: string): string {
      git(work, "add", "-A");
      git(work, "commit", "-q", "-m", message);
      return git(work, "rev-parse", "HEAD");
    },
    checkout(branch: string, create = false) {
      git(work, "checkout", "-q", ...(create ? ["-b"] : []), branch);
    },
    push(branch: string) {
      git(work, "push", "-q", "origin", branch);
    },
    sha: (ref: string) => git(work, "rev-parse", ref),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A GitHub pull_request payload (from the real `opened` example) for our repository and branches. */
export function pullRequestPayload(
  example: Record<string, unknown>,
  fields: { action: string; repo: string; number: number; title?: string; head: string; headSha: string; base: string; baseSha: string; updatedAt: string; draft?: boolean; state?: string; merged?: boolean; login?: string },
) {
  const p = structuredClone(example) as Record<string, any>;
  p.action = fields.action;
  p.number = fields.number;
  p.repository.full_name = fields.repo;
  p.repository.default_branch = "main";
  const pr = p.pull_request;
  pr.number = fields.number;
  pr.title = fields.title ?? "Add widgets";
  pr.body = "Adds the widget helpers";
  pr.state = fields.state ?? "open";
  pr.merged = fields.merged ?? false;
  pr.draft = fields.draft ?? false;
  pr.head.ref = fields.head;
  pr.head.sha = fields.headSha;
  pr.base.ref = fields.base;
  pr.base.sha = fields.baseSha;
  pr.created_at = "2024-05-01T10:00:00Z";
  pr.updated_at = fields.updatedAt;
  pr.html_url = `https://github.com/${fields.repo}/pull/${fields.number}`;
  if (fields.login) pr.user.login = fields.login;
  return p;
}
