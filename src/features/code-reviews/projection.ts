import { defineProjection } from "../../../projections/runner.ts";
import type { CodeReviewEvent } from "./events.ts";
import { prKey, type RepositoryRef } from "../../hosts/pull-request-key.ts";
import { TERMINAL_STATUSES, type CodeReviewStatus } from "../../review/status.ts";

/**
 * Code reviews (interface.md 2.5) by organisation.
 * Keys: ["review", orgId, id] -> CodeReviewRecord; ["byPr", orgId, prKey, createdAt, id] -> id;
 * ["unfinished", id] -> orgId while PENDING / REVIEWING_FILES / GENERATING_SUMMARY (the worker resumes these).
 */
export type CodeReviewRecord = {
  id: string;
  orgId: string;
  status: CodeReviewStatus;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  metadata: { strictness: number; totalFiles: number; completedFiles: number; correlationId: string };
  body: string;
  repository: RepositoryRef;
  prNumber: number;
  prKey: string;
  branch: string | null;
  trigger: "manual" | "webhook";
  includeDrafts: boolean;
  headSha: string | null;
  diffBase: string | null;
  incremental: boolean;
  files: string[];
  reviewedFiles: string[];
  skippedFiles: { path: string; reason: string }[];
  commentIds: string[];
  summaryCommentId: string | null;
  /** FAILED / SKIPPED reason. */
  reason: string | null;
  /** Every status the review went through, with the time: the observable sequence. */
  history: { status: CodeReviewStatus; at: string; completedFiles: number }[];
};


export const codeReviewsProjection = defineProjection<Exclude<CodeReviewEvent, { type: "ReviewPostRequested" }>>({
  name: "code-reviews",
  version: 1,
  canHandle: [
    "CodeReviewRequested",
    "CodeReviewStarted",
    "CodeReviewFileReviewed",
    "CodeReviewSummaryGenerating",
    "CodeReviewCompleted",
    "CodeReviewFailed",
    "CodeReviewSkipped",
  ],
  handle(events, { tx }) {
    for (const event of events) {
      const orgId = event.metadata.orgId;
      const id = event.data.codeReviewId;
      const key = ["review", orgId, id];
      if (event.type === "CodeReviewRequested") {
        if (tx.get(key)) continue;
        const d = event.data;
        const repository = d.repository;
        const pk = prKey({ remote: repository.remote, name: repository.name, number: d.prNumber });
        const record: CodeReviewRecord = {
          id,
          orgId,
          status: "PENDING",
          createdAt: event.time,
          updatedAt: event.time,
          completedAt: null,
          metadata: { strictness: d.strictness, totalFiles: 0, completedFiles: 0, correlationId: d.correlationId },
          body: "",
          repository,
          prNumber: d.prNumber,
          prKey: pk,
          branch: d.branch ?? null,
          trigger: d.trigger,
          includeDrafts: d.includeDrafts,
          headSha: null,
          diffBase: null,
          incremental: false,
          files: [],
          reviewedFiles: [],
          skippedFiles: [],
          commentIds: [],
          summaryCommentId: null,
          reason: null,
          history: [{ status: "PENDING", at: event.time, completedFiles: 0 }],
        };
        tx.put(key, record);
        tx.put(["byPr", orgId, pk, event.time, id], id);
        tx.put(["unfinished", id], orgId);
        continue;
      }
      const existing = tx.get<CodeReviewRecord>(key);
      if (!existing || TERMINAL_STATUSES.includes(existing.status)) continue;
      const r: CodeReviewRecord = { ...existing, updatedAt: event.time };
      const enter = (status: CodeReviewStatus) => {
        r.status = status;
        r.history = [...r.history, { status, at: event.time, completedFiles: r.metadata.completedFiles }];
      };
      switch (event.type) {
        case "CodeReviewStarted": {
          if (r.status !== "PENDING") continue; // replayed
          const d = event.data;
          r.headSha = d.headSha;
          r.diffBase = d.diffBase;
          r.incremental = d.incremental;
          r.files = d.files;
          r.skippedFiles = d.skippedFiles;
          r.metadata = { ...r.metadata, totalFiles: d.totalFiles };
          enter("REVIEWING_FILES");
          break;
        }
        case "CodeReviewFileReviewed": {
          const d = event.data;
          if (r.reviewedFiles.includes(d.path)) continue; // replayed
          r.reviewedFiles = [...r.reviewedFiles, d.path];
          r.commentIds = [...r.commentIds, ...d.commentIds];
          r.metadata = { ...r.metadata, completedFiles: d.completedFiles };
          r.history = [...r.history, { status: r.status, at: event.time, completedFiles: r.metadata.completedFiles }];
          break;
        }
        case "CodeReviewSummaryGenerating":
          if (r.status !== "REVIEWING_FILES") continue; // replayed
          enter("GENERATING_SUMMARY");
          break;
        case "CodeReviewCompleted":
          r.body = event.data.body;
          r.summaryCommentId = event.data.summaryCommentId ?? null;
          r.headSha = event.data.headSha;
          r.completedAt = event.time;
          enter("COMPLETED");
          break;
        case "CodeReviewFailed":
        case "CodeReviewSkipped":
          r.reason = event.data.reason;
          r.completedAt = event.time;
          enter(event.type === "CodeReviewFailed" ? "FAILED" : "SKIPPED");
          break;
      }
      tx.put(key, r);
      if (TERMINAL_STATUSES.includes(r.status)) tx.remove(["unfinished", id]);
    }
  },
});
