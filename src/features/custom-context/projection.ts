import { defineProjection } from "../../../projections/runner.ts";
import type { EventOf } from "../../eventstore/catalogue.ts";
import { prKey } from "../../hosts/pull-request-key.ts";
import type { ReviewCommentCreated } from "../review-comments/events.ts";
import type { CustomContextEvent } from "./events.ts";

/**
 * Custom context (interface.md 2.6) by organisation, with the comments linked to each: the human
 * comments a SUGGESTED pattern was learned from, and the service comments it caused (linkedMemory).
 * Keys: ["ctx", orgId, id] -> CustomContextRecord.
 */
export type LinkedComment = {
  id: string;
  prKey: string;
  prNumber: number;
  repository: string;
  remote: string;
  authorLogin: string;
  filePath: string | null;
  body: string;
  createdAt: string;
  /** "evidence": a human comment the pattern was learned from; "review": a service comment it caused. */
  relation: "evidence" | "review";
};

export type CustomContextRecord = {
  id: string;
  orgId: string;
  type: "CUSTOM_INSTRUCTION" | "PATTERN";
  body: string;
  status: "ACTIVE" | "INACTIVE" | "SUGGESTED";
  scopes: Record<string, unknown>;
  metadata: Record<string, unknown>;
  source: "user" | "learned";
  createdAt: string;
  updatedAt: string;
  linkedComments: LinkedComment[];
};

const MAX_LINKED = 2000;
const excerpt = (body: string) => (body.length > 500 ? `${body.slice(0, 499)}…` : body);

export const customContextProjection = defineProjection<CustomContextEvent | EventOf<typeof ReviewCommentCreated>>({
  name: "custom-context",
  version: 1,
  canHandle: ["CustomContextCreated", "CustomContextStatusChanged", "CustomContextUpdated", "SuggestedPatternLearned", "ReviewCommentCreated"],
  handle(events, { tx }) {
    for (const event of events) {
      const orgId = event.metadata.orgId;
      if (event.type === "CustomContextCreated") {
        const d = event.data;
        const key = ["ctx", orgId, d.id];
        if (tx.get(key)) continue;
        const record: CustomContextRecord = {
          id: d.id,
          orgId,
          type: d.type,
          body: d.body,
          status: d.status,
          scopes: d.scopes,
          metadata: d.metadata,
          source: d.source,
          createdAt: event.time,
          updatedAt: event.time,
          linkedComments: [],
        };
        tx.put(key, record);
        continue;
      }
      if (event.type === "ReviewCommentCreated") {
        const { comment: c, repository, prNumber } = event.data;
        if (!c.linkedMemory) continue;
        const key = ["ctx", orgId, c.linkedMemory.id];
        const existing = tx.get<CustomContextRecord>(key);
        if (!existing || existing.linkedComments.some((l) => l.id === c.id) || existing.linkedComments.length >= MAX_LINKED) continue;
        const link: LinkedComment = {
          id: c.id,
          prKey: prKey({ remote: repository.remote, name: repository.name, number: prNumber }),
          prNumber,
          repository: repository.name,
          remote: repository.remote,
          authorLogin: c.authorLogin,
          filePath: c.filePath,
          body: excerpt(c.body),
          createdAt: c.createdAt,
          relation: "review",
        };
        tx.put(key, { ...existing, linkedComments: [...existing.linkedComments, link] });
        continue;
      }
      const key = ["ctx", orgId, event.data.id];
      const existing = tx.get<CustomContextRecord>(key);
      if (!existing) continue;
      switch (event.type) {
        case "CustomContextStatusChanged":
          tx.put(key, { ...existing, status: event.data.status, updatedAt: event.time });
          break;
        case "CustomContextUpdated": {
          const d = event.data;
          tx.put(key, {
            ...existing,
            body: d.body ?? existing.body,
            scopes: d.scopes ?? existing.scopes,
            metadata: d.metadata ?? existing.metadata,
            updatedAt: event.time,
          });
          break;
        }
        case "SuggestedPatternLearned": {
          const d = event.data;
          const evidence = d.comments.map((c) => ({ ...c, body: excerpt(c.body), relation: "evidence" as const }));
          const reviews = existing.linkedComments.filter((l) => l.relation === "review");
          tx.put(key, { ...existing, body: existing.status === "SUGGESTED" ? d.body : existing.body, linkedComments: [...evidence, ...reviews].slice(0, MAX_LINKED), updatedAt: event.time });
          break;
        }
      }
    }
  },
});

/** evidenceCount: distinct pull requests among the linked comments; commentsCount: linked comments. */
export function customContextCounts(record: CustomContextRecord): { evidenceCount: number; commentsCount: number } {
  return { evidenceCount: new Set(record.linkedComments.map((l) => l.prKey)).size, commentsCount: record.linkedComments.length };
}
