/** The pull request aggregate's stream, and the ids of events recorded from host deliveries. */
import { createHash } from "node:crypto";

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** `pullrequest-<orgId>-<prKey>`: the pull request's snapshots, commits and human comments. */
export const pullRequestStream = (orgId: string, key: string) => `pullrequest-${orgId}-${key}`;

/** Event id for the n-th event recorded from a delivery: a redelivery appends the same ids (a no-op). */
export const deliveryEventId = (orgId: string, remote: string, deliveryId: string, n: number) =>
  `wh_${sha(`${orgId}\0${remote}\0${deliveryId}`).slice(0, 32)}_${n}`;
