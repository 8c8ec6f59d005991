import { defineProjection } from "../../../projections/runner.ts";
import type { ReviewCommentEvent } from "./events.ts";
import { prKey, type RepositoryRef } from "../../hosts/pull-request-key.ts";

/**
 * Review comments (interface.md 2.4), human and service-generated, by pull request.
 * Keys: ["comment", orgId, prKey, id] -> CommentRecord; ["platform", orgId, prKey, commentId] -> id;
 * ["deleted", orgId, prKey, id] -> 1 (so a late create does not bring a deleted comment back).
 */
export type CommentRecord = {
  id: string;
  commentId: string;
  body: string;
  authorLogin: string;
  filePath: string | null;
  lineStart: number | null;
  lineEnd: number | null;
  isGreptileComment: boolean;
  addressed: boolean;
  createdAt: string;
  updatedAt: string;
  hasSuggestion: boolean;
  suggestedCode: string | null;
  linkedMemory: { id: string; type: string | null; source: string | null } | null;
  // Beyond 2.4:
  orgId: string;
  prKey: string;
  repository: RepositoryRef;
  prNumber: number;
  kind: "inline" | "summary" | "human";
  commitSha: string | null;
  codeReviewId: string | null;
  fingerprint: string | null;
  severity: string | null;
  ruleId?: string;
  codeFingerprint?: string | null;
  resolved: boolean;
  addressedReason: string | null;
  addressedAt: string | null;
  addressedBySha: string | null;
};


export const commentsProjection = defineProjection<ReviewCommentEvent>({
  name: "review-comments",
  version: 1,
  canHandle: ["ReviewCommentCreated", "ReviewCommentEdited", "ReviewCommentDeleted", "ReviewCommentResolved", "ReviewCommentAddressed", "ReviewCommentsPosted"],
  handle(events, { tx }) {
    for (const event of events) {
      const orgId = event.metadata.orgId;
      const { repository, prNumber } = event.data;
      const pk = prKey({ remote: repository.remote, name: repository.name, number: prNumber });
      const at = (id: string) => ["comment", orgId, pk, id];
      switch (event.type) {
        case "ReviewCommentCreated":
        case "ReviewCommentEdited": {
          const c = event.data.comment;
          if (tx.get(["deleted", orgId, pk, c.id])) break;
          const existing = tx.get<CommentRecord>(at(c.id));
          if (existing && existing.updatedAt > c.updatedAt) break; // an older snapshot arriving late
          const record: CommentRecord = {
            ...c,
            // A comment posted to the host keeps the host's id; a created-after-edit keeps the earliest creation time.
            commentId: existing && existing.commentId !== existing.id ? existing.commentId : c.commentId,
            createdAt: existing && existing.createdAt < c.createdAt ? existing.createdAt : c.createdAt,
            orgId,
            prKey: pk,
            repository,
            prNumber,
            addressed: existing?.addressed ?? false,
            resolved: existing?.resolved ?? false,
            addressedReason: existing?.addressedReason ?? null,
            addressedAt: existing?.addressedAt ?? null,
            addressedBySha: existing?.addressedBySha ?? null,
          };
          tx.put(at(c.id), record);
          tx.put(["platform", orgId, pk, record.commentId], c.id);
          break;
        }
        case "ReviewCommentDeleted": {
          const id = event.data.id;
          const existing = tx.get<CommentRecord>(at(id));
          if (existing) tx.remove(["platform", orgId, pk, existing.commentId]);
          tx.remove(at(id));
          tx.put(["deleted", orgId, pk, id], 1);
          break;
        }
        case "ReviewCommentResolved": {
          for (const id of event.data.ids) {
            const existing = tx.get<CommentRecord>(at(id));
            if (!existing) continue;
            const resolved = event.data.resolved;
            const addressedByCommit = existing.addressedReason !== null && existing.addressedReason !== "thread-resolved";
            tx.put(at(id), {
              ...existing,
              resolved,
              addressed: addressedByCommit || resolved,
              addressedReason: addressedByCommit ? existing.addressedReason : resolved ? "thread-resolved" : null,
              addressedAt: addressedByCommit ? existing.addressedAt : resolved ? event.time : null,
            });
          }
          break;
        }
        case "ReviewCommentAddressed": {
          const existing = tx.get<CommentRecord>(at(event.data.id));
          if (!existing || (existing.addressed && existing.addressedReason !== "thread-resolved")) break;
          tx.put(at(existing.id), {
            ...existing,
            addressed: true,
            addressedReason: event.data.reason,
            addressedAt: event.time,
            addressedBySha: event.data.commitSha,
          });
          break;
        }
        case "ReviewCommentsPosted": {
          for (const p of event.data.posted) {
            const existing = tx.get<CommentRecord>(at(p.id));
            if (!existing) continue;
            tx.remove(["platform", orgId, pk, existing.commentId]);
            tx.put(at(p.id), { ...existing, commentId: p.commentId });
            tx.put(["platform", orgId, pk, p.commentId], p.id);
          }
          break;
        }
      }
    }
  },
});
