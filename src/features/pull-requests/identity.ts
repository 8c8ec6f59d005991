/** The pull request aggregate's stream, and the ids of events recorded from host deliveries. */
import { createHash } from "node:crypto";

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** `pullrequest-<orgId>-<prKey>`: the pull request's snapshots, commits and human comments. */
export const pullRequestStream = (orgId: string, key: string) => `pullrequest-${orgId}-${key}`;

/** Event id for the n-th event recorded from a delivery: a redelivery appends the same ids (a no-op). */
export const deliveryEventId = (orgId: string, remote: string, deliveryId: string, n: number) =>
  `wh_${sha(`${orgId}\0${remote}\0${deliveryId}`).slice(0, 32)}_${n}`;

/**
 * The id of the review a delivery starts on its own (LOUPE_AUTO_REVIEW): one per pull request, head
 * commit and action, so the same event delivered again under another delivery id (an organisation's
 * hook and a repository's hook both deliver it; the delivery id is not signed) requests the same
 * review, which exists already. `attempt` counts the attempts after FAILED ones (a redelivery of an
 * event whose review failed requests the next attempt); attempt 0 is the id the first delivery derives.
 * A UUID (version 8: a hash, RFC 9562) as the review's events want.
 */
export function autoReviewId(orgId: string, key: string, headSha: string, action: string, attempt = 0): string {
  const h = sha(`auto-review\0${orgId}\0${key}\0${headSha}\0${action}${attempt > 0 ? `\0attempt ${attempt}` : ""}`);
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
