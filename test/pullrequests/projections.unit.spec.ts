/** The pull request, review, comment and custom context projections are idempotent: replaying twice changes nothing. */
import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../../src/eventstore/port.ts";
import type { Key, WriteView } from "../../src/readstore/port.ts";
import { pullRequestsProjection } from "../../src/features/pull-requests/projection.ts";
import { commentsProjection } from "../../src/features/review-comments/projection.ts";
import { codeReviewsProjection } from "../../src/features/code-reviews/projection.ts";
import { customContextProjection } from "../../src/features/custom-context/projection.ts";

function memoryView(): WriteView & { dump(): string } {
  const map = new Map<string, unknown>();
  const k = (key: Key) => JSON.stringify(key);
  const inPrefix = (key: string, prefix: Key) => key.startsWith(k(prefix).slice(0, -1));
  return {
    get: <T>(key: Key) => map.get(k(key)) as T | undefined,
    put: (key, value) => void map.set(k(key), structuredClone(value)),
    remove: (key) => void map.delete(k(key)),
    range: <T>(prefix: Key) => [...map.entries()].filter(([key]) => inPrefix(key, prefix)).sort().map(([key, value]) => ({ key: JSON.parse(key) as Key, value: value as T })),
    count: (prefix) => [...map.keys()].filter((key) => inPrefix(key, prefix)).length,
    dump: () => JSON.stringify([...map.entries()].sort()),
  };
}

let position = 0;
const ev = (type: string, data: Record<string, unknown>, time = "2024-05-01T00:00:00.000Z"): StoredEvent => ({
  id: `e${++position}`, type, schemaVersion: 1, time, data, metadata: { orgId: "org", actor: "t", correlationId: "c", causationId: null },
  streamName: "s", streamVersion: position, position,
});

const repository = { remote: "github", name: "acme/x", defaultBranch: "main" };
const snap = (title: string, updatedAt: string, headSha = "a".repeat(40)) => ({
  number: 1, title, description: "", state: "open", merged: false, isDraft: false, authorLogin: "dev", sourceBranch: "f", targetBranch: "main",
  headSha, baseSha: null, labels: [], createdAt: "2024-05-01T00:00:00Z", updatedAt, stats: null, url: "",
});
const comment = (id: string, updatedAt: string, body: string) => ({
  id, commentId: id, body, authorLogin: "loupe", filePath: "a.ts", lineStart: 1, lineEnd: 1, isGreptileComment: true, hasSuggestion: false, suggestedCode: null,
  linkedMemory: { id: "11111111-1111-4111-8111-111111111111", type: "PATTERN", source: null }, createdAt: updatedAt, updatedAt, commitSha: "a".repeat(40), codeReviewId: null, fingerprint: "f", kind: "inline", severity: "medium",
});

const events = [
  ev("CustomContextCreated", { id: "11111111-1111-4111-8111-111111111111", type: "PATTERN", body: "Avoid `x`", status: "ACTIVE", scopes: {}, metadata: {}, source: "user" }),
  ev("PullRequestUpdated", { repository, pullRequest: snap("newer", "2024-05-02T00:00:00Z", "b".repeat(40)), source: "webhook", deliveryId: "d2", action: "edited" }),
  ev("PullRequestOpened", { repository, pullRequest: snap("older", "2024-05-01T00:00:00Z"), source: "webhook", deliveryId: "d1", action: "opened" }),
  ev("ReviewCommentCreated", { repository, prNumber: 1, comment: comment("c1", "2024-05-01T01:00:00Z", "first"), deliveryId: null }),
  ev("ReviewCommentEdited", { repository, prNumber: 1, comment: comment("c1", "2024-05-01T02:00:00Z", "edited"), deliveryId: null }),
  ev("ReviewCommentAddressed", { repository, prNumber: 1, id: "c1", reason: "lines-changed", commitSha: "b".repeat(40) }),
  ev("CodeReviewRequested", { codeReviewId: "22222222-2222-4222-8222-222222222222", repository, prNumber: 1, strictness: 3, correlationId: "33333333-3333-4333-8333-333333333333", branch: null, trigger: "manual", includeDrafts: true }),
  ev("CodeReviewStarted", { codeReviewId: "22222222-2222-4222-8222-222222222222", headSha: "a".repeat(40), diffBase: "c".repeat(40), incremental: false, totalFiles: 1, files: ["a.ts"], skippedFiles: [] }),
  ev("CodeReviewFileReviewed", { codeReviewId: "22222222-2222-4222-8222-222222222222", path: "a.ts", completedFiles: 1, commentIds: ["c1"], findings: [] }),
];

describe("projections", () => {
  for (const projection of [pullRequestsProjection, commentsProjection, codeReviewsProjection, customContextProjection]) {
    it(`${projection.name}: replaying the same events twice leaves the same state`, () => {
      const tx = memoryView();
      const relevant = events.filter((e) => projection.canHandle.includes(e.type));
      projection.handle(relevant, { tx });
      const once = tx.dump();
      projection.handle(relevant, { tx });
      expect(tx.dump()).toBe(once);
    });
  }

  it("converges out-of-order snapshots and keeps the newest", () => {
    const tx = memoryView();
    pullRequestsProjection.handle(events.filter((e) => e.type.startsWith("PullRequest")), { tx });
    const pr = tx.get<{ title: string; headSha: string; headHistory: { sha: string }[] }>(["pr", "org", "github:acme/x#1"])!;
    expect(pr.title).toBe("newer");
    expect(pr.headSha).toBe("b".repeat(40));
    expect(pr.headHistory.map((h) => h.sha)).toEqual(["a".repeat(40), "b".repeat(40)]);
    const tx2 = memoryView();
    commentsProjection.handle(events.filter((e) => e.type.startsWith("ReviewComment")), { tx: tx2 });
    expect(tx2.get(["comment", "org", "github:acme/x#1", "c1"])).toMatchObject({ body: "edited", addressed: true, addressedReason: "lines-changed" });
  });
});
