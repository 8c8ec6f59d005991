/**
 * Local HTTP servers in the shapes of the hosts' REST APIs (GitHub pulls/reviews, GitLab merge
 * request notes/discussions) and of an OpenAI-compatible chat server, recording what they get.
 * Plus the real git repository the review tests use (see test/support/pr-webhooks.ts).
 */
import type { ServerResponse } from "node:http";
import { json, startHostServer, type HostServer, type RecordedRequest } from "./host-server.ts";
import { createHostRepo } from "./pr-webhooks.ts";

export type PostedGitHubReview = {
  id: number;
  body: string;
  commit_id: string;
  event: string;
  comments: { id: number; path: string; line: number; start_line?: number; side: string; body: string }[];
};

export type FakeGitHub = HostServer & {
  reviews: PostedGitHubReview[];
  /** The POST requests it received (review posts). */
  posts(): RecordedRequest[];
  /** Pull request list items served by `GET /repos/{o}/{r}/pulls` (GitHub REST shape), `perPage` a page. */
  pulls: Record<string, unknown>[];
  perPage: number;
  /**
   * `GET /repos/{o}/{r}` answers for these repositories (`full_name` -> private or not): an anonymous
   * caller reads a public one (no `permissions`) and gets 404 for a private one, as from GitHub; a
   * repository not listed is 404. A private one's pulls are 404 to an anonymous caller too.
   */
  repositories: Record<string, { private: boolean }>;
  /** When set, every anonymous call gets GitHub's rate limit answer (403, `x-ratelimit-remaining: 0`). */
  anonymousRateLimited: boolean;
  /**
   * When set, every call gets GitHub's secondary rate limit answer: a 403 with `retry-after` and a
   * message naming the limit ("retry-after"), or with the message alone ("message").
   */
  secondaryRateLimit: "retry-after" | "message" | null;
  /**
   * When set, the next review POST is stored (as GitHub would) but its answer is held until
   * `release()` is called: the caller's side of a crash between posting and recording.
   */
  holdNextPost: boolean;
  heldPost: Promise<void>;
  release(status?: number): void;
};

export async function startFakeGitHub(): Promise<FakeGitHub> {
  let nextId = 5000;
  let held: { res: ServerResponse } | null = null;
  let signalHeld: () => void = () => {};
  const initial = {
    reviews: [] as PostedGitHubReview[],
    pulls: [] as Record<string, unknown>[],
    perPage: 100,
    repositories: {} as Record<string, { private: boolean }>,
    anonymousRateLimited: false,
    secondaryRateLimit: null as FakeGitHub["secondaryRateLimit"],
    holdNextPost: false,
    heldPost: new Promise<void>((r) => (signalHeld = r)),
  };
  let current: FakeGitHub | null = null;
  const server = await startHostServer((req, res, base) => {
    const state = current!;
    const url = new URL(req.url, base);
    const reviewsOf = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/reviews$/.exec(url.pathname);
    const commentsOf = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/reviews\/(\d+)\/comments$/.exec(url.pathname);
    const pullsOf = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(url.pathname);
    const repositoryOf = /^\/repos\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    const anonymous = req.headers.authorization === undefined;
    if (anonymous && state.anonymousRateLimited) {
      return json(res, 403, { message: "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit.)" }, { "x-ratelimit-limit": "60", "x-ratelimit-remaining": "0" });
    }
    if (state.secondaryRateLimit) {
      const message = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.";
      return json(res, 403, { message }, state.secondaryRateLimit === "retry-after" ? { "retry-after": "60" } : {});
    }
    if (repositoryOf && req.method === "GET") {
      const name = `${repositoryOf[1]}/${repositoryOf[2]}`;
      const known = state.repositories[name];
      if (!known || (known.private && anonymous)) return json(res, 404, { message: "Not Found" });
      return json(res, 200, { full_name: name, private: known.private, ...(anonymous ? {} : { permissions: { pull: true } }) });
    }
    if (pullsOf && anonymous && state.repositories[`${pullsOf[1]}/${pullsOf[2]}`]?.private) return json(res, 404, { message: "Not Found" });
    if (reviewsOf && req.method === "POST") {
      const body = req.body as { body: string; commit_id: string; event: string; comments: Omit<PostedGitHubReview["comments"][number], "id">[] };
      const review: PostedGitHubReview = { id: nextId++, body: body.body, commit_id: body.commit_id, event: body.event, comments: body.comments.map((c) => ({ ...c, id: nextId++ })) };
      state.reviews.push(review);
      const answer = { id: review.id, body: review.body, commit_id: review.commit_id, state: "COMMENTED", user: { login: "loupe[bot]" } };
      if (state.holdNextPost) {
        state.holdNextPost = false;
        held = { res };
        signalHeld();
        return;
      }
      return json(res, 200, answer);
    }
    if (reviewsOf && req.method === "GET") {
      return json(res, 200, state.reviews.map((r) => ({ id: r.id, body: r.body, commit_id: r.commit_id, state: "COMMENTED" })));
    }
    if (commentsOf && req.method === "GET") {
      const review = state.reviews.find((r) => String(r.id) === commentsOf[4]);
      if (!review) return json(res, 404, { message: "Not Found" });
      return json(res, 200, review.comments.map((c) => ({ id: c.id, pull_request_review_id: review.id, path: c.path, line: c.line, original_line: c.line, body: c.body })));
    }
    if (pullsOf && req.method === "GET") {
      const page = Number(url.searchParams.get("page") ?? "1");
      const items = state.pulls.slice((page - 1) * state.perPage, page * state.perPage);
      const headers: Record<string, string> = {};
      if (page * state.perPage < state.pulls.length) {
        const next = new URL(url);
        next.searchParams.set("page", String(page + 1));
        headers["Link"] = `<${next.toString()}>; rel="next", <${next.toString()}>; rel="last"`;
      }
      return json(res, 200, items, headers);
    }
    json(res, 404, { message: "Not Found" });
  });
  // One object: the test sets holdNextPost / perPage on it, the route reads them from it.
  const fake = Object.assign(server, initial, {
    posts: () => server.requests.filter((r) => r.method === "POST"),
    release(status = 502) {
      if (!held) return;
      json(held.res, status, { message: "Bad Gateway" });
      held = null;
    },
  }) as FakeGitHub;
  current = fake;
  return fake;
}

export type FakeGitLab = HostServer & { notes: { id: number; body: string }[]; discussions: { id: string; notes: { id: number; body: string; position: Record<string, unknown> }[] }[] };

/** GitLab merge request notes and discussions (`/api/v4`-less paths: point LOUPE_GITLAB_API_URL at the base). */
export async function startFakeGitLab(diffRefs: { base_sha: string; start_sha: string; head_sha: string }): Promise<FakeGitLab> {
  let nextId = 7000;
  const notes: FakeGitLab["notes"] = [];
  const discussions: FakeGitLab["discussions"] = [];
  const server = await startHostServer((req, res, base) => {
    const url = new URL(req.url, base);
    const m = /^\/projects\/([^/]+)\/merge_requests\/(\d+)(\/notes|\/discussions)?$/.exec(url.pathname);
    if (!m) return json(res, 404, { message: "404 Not found" });
    if (!m[3] && req.method === "GET") return json(res, 200, { iid: Number(m[2]), diff_refs: diffRefs });
    if (m[3] === "/notes" && req.method === "POST") {
      const note = { id: nextId++, body: (req.body as { body: string }).body };
      notes.push(note);
      return json(res, 201, note);
    }
    if (m[3] === "/notes" && req.method === "GET") return json(res, 200, notes, { "x-next-page": "" });
    if (m[3] === "/discussions" && req.method === "POST") {
      const b = req.body as { body: string; position: Record<string, unknown> };
      const discussion = { id: `d${nextId}`, notes: [{ id: nextId++, body: b.body, position: b.position }] };
      discussions.push(discussion);
      return json(res, 201, discussion);
    }
    if (m[3] === "/discussions" && req.method === "GET") return json(res, 200, discussions, { "x-next-page": "" });
    json(res, 404, { message: "404 Not found" });
  });
  return Object.assign(server, { notes, discussions });
}

export type FakeChat = HostServer & {
  /** Bodies of the chat completion requests. */
  prompts(): { system: string; user: string }[];
};

/** An OpenAI-compatible `/v1/chat/completions` server; `answer(prompt)` gives the assistant's text. */
export async function startFakeChat(answer: (user: string) => string): Promise<FakeChat> {
  const server = await startHostServer((req, res) => {
    if (req.method !== "POST" || !req.url.endsWith("/chat/completions")) return json(res, 404, { error: { message: "not found" } });
    const body = req.body as { model: string; messages: { role: string; content: string }[] };
    const user = body.messages.find((m) => m.role === "user")?.content ?? "";
    json(res, 200, {
      id: "chatcmpl-test",
      object: "chat.completion",
      model: body.model,
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: answer(user) } }],
    });
  });
  const prompts = () =>
    server.requests
      .filter((r) => r.method === "POST")
      .map((r) => {
        const messages = (r.body as { messages: { role: string; content: string }[] }).messages;
        return { system: messages.find((m) => m.role === "system")?.content ?? "", user: messages.find((m) => m.role === "user")?.content ?? "" };
      });
  return Object.assign(server, { prompts });
}

/**
 * The repository the review tests use: `main` with three files, `feature` adding a debugger
 * statement (src/app.ts:4), a legacyFetch call (src/net.ts:4) and docs/notes.ts.
 */
export function makeReviewRepo(fullName: string) {
  const host = createHostRepo(fullName);
  host.write("src/app.ts", "export const version = 1;\n");
  host.write("src/net.ts", "export const base = '/api';\n");
  host.write("README.md", "# widgets\n");
  const baseSha = host.commit("initial");
  host.push("main");
  host.checkout("feature", true);
  host.write("src/app.ts", "export const version = 1;\n\nexport function add(a: number, b: number) {\n  debugger;\n  return a + b;\n}\n");
  host.write("src/net.ts", "export const base = '/api';\n\nexport async function load(path: string) {\n  return legacyFetch(base + path);\n}\n");
  host.write("docs/notes.ts", "export const note = legacyFetch;\n");
  const headSha = host.commit("add helpers");
  host.push("feature");
  return { host, baseSha, headSha };
}

export async function waitFor<T>(fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000, what = "condition"): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
