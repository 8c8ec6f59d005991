/**
 * Our ids of review comments: deterministic, so a redelivered webhook or a resumed review records
 * nothing twice.
 */
import { createHash } from "node:crypto";

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** Our id of a human (host) comment: stable for the host's comment id on that pull request. */
export const hostCommentId = (orgId: string, key: string, platformId: string) => `hc_${sha(`${orgId}\0${key}\0${platformId}`).slice(0, 24)}`;

/** Our id of a service inline comment: from the dedupe fingerprint, so a finding is commented once per PR. */
export const serviceCommentId = (orgId: string, key: string, fingerprint: string) => `lc_${sha(`${orgId}\0${key}\0${fingerprint}`).slice(0, 24)}`;

/** Our id of a review's summary comment. */
export const summaryCommentId = (codeReviewId: string) => `ls_${codeReviewId}`;
