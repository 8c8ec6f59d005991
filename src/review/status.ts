/** The lifecycle of a code review: PENDING -> REVIEWING_FILES -> GENERATING_SUMMARY -> COMPLETED, or FAILED / SKIPPED. */
import { z } from "zod";

export const CODE_REVIEW_STATUSES = ["PENDING", "REVIEWING_FILES", "GENERATING_SUMMARY", "COMPLETED", "FAILED", "SKIPPED"] as const;
export const codeReviewStatus = z.enum(CODE_REVIEW_STATUSES);
export type CodeReviewStatus = (typeof CODE_REVIEW_STATUSES)[number];
export const TERMINAL_STATUSES: readonly CodeReviewStatus[] = ["COMPLETED", "FAILED", "SKIPPED"];
