/**
 * The neutral identity of a repository and a pull request on a git host, as the read models key them:
 * `github:acme/widgets` and `github:acme/widgets#12` (names compare case-insensitively), and the zod
 * shapes events record them in.
 */
import { z } from "zod";
import type { Remote } from "./types.ts";

export const remoteSchema = z.enum(["github", "gitlab", "bitbucket", "azure"]);

/** Repository identity: (remote, `owner/repo`, default branch when known). */
export const repositoryRefSchema = z.object({
  remote: remoteSchema,
  name: z.string().min(1).max(300),
  defaultBranch: z.string().max(255).nullable(),
});

export type RepositoryRef = { remote: Remote; name: string; defaultBranch: string | null };
export type PullRequestRef = { remote: Remote; name: string; number: number };

/** `github:acme/widgets`: the repository part of keys (names compare case-insensitively). */
export const repoKey = (remote: string, name: string) => `${remote}:${name.toLowerCase()}`;

/** `github:acme/widgets#12`: unique per organisation; also the merge request `id` of the faces. */
export const prKey = (ref: { remote: string; name: string; number: number }) => `${repoKey(ref.remote, ref.name)}#${ref.number}`;
