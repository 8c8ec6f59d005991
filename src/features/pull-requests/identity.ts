/**
 * Identity of pull requests, comments and reviews: read-model keys, stream names and the
 * deterministic ids that make redeliveries and resumed reviews record nothing twice.
 */
import { createHash } from "node:crypto";
import type { Remote } from "../../hosts/types.ts";

export type RepositoryRef = { remote: Remote; name: string; defaultBranch: string | null };
export type PullRequestRef = { remote: Remote; name: string; number: number };

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** `github:acme/widgets`: the repository part of keys (names compare case-insensitively). */
export const repoKey = (remote: string, name: string) => `${remote}:${name.toLowerCase()}`;

/** `github:acme/widgets#12`: unique per organisation; also the merge request `id` of the faces. */
export const prKey = (ref: { remote: string; name: string; number: number }) => `${repoKey(ref.remote, ref.name)}#${ref.number}`;

export const pullRequestStream = (orgId: string, key: string) => `pullrequest-${orgId}-${key}`;
export const codeReviewStream = (codeReviewId: string) => `codereview-${codeReviewId}`;
export const customContextStream = (orgId: string, id: string) => `customcontext-${orgId}-${id}`;

/** Our id of a human (host) comment: stable for the host's comment id on that pull request. */
export const hostCommentId = (orgId: string, key: string, platformId: string) => `hc_${sha(`${orgId}\0${key}\0${platformId}`).slice(0, 24)}`;

/** Our id of a service inline comment: from the dedupe fingerprint, so a finding is commented once per PR. */
export const serviceCommentId = (orgId: string, key: string, fingerprint: string) => `lc_${sha(`${orgId}\0${key}\0${fingerprint}`).slice(0, 24)}`;

export const summaryCommentId = (codeReviewId: string) => `ls_${codeReviewId}`;

/** Event id for the n-th event recorded from a delivery: a redelivery appends the same ids (a no-op). */
export const deliveryEventId = (orgId: string, remote: string, deliveryId: string, n: number) =>
  `wh_${sha(`${orgId}\0${remote}\0${deliveryId}`).slice(0, 32)}_${n}`;

/** A deterministic UUID (v4 layout) from text, for ids that must be UUIDs yet stable. */
export function uuidFrom(text: string): string {
  const h = sha(text);
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
