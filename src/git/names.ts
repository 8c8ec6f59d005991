/**
 * Validation of names that reach git's command line or the file system: repository names
 * (`owner/repo`, GitLab's nested groups, Azure's `org/project/repo`) and branch names. Everything is checked before git runs, so an option-like
 * (`-x`) or traversing (`..`) name never becomes an argument or a path.
 */

/** A name git must not see. `field` says which input, `problem` why (safe to show to clients). */
export class GitNameError extends Error {
  constructor(
    readonly field: "repository" | "branch" | "ref" | "revision" | "remote",
    readonly problem: string,
  ) {
    super(`invalid ${field}: ${problem}`);
    this.name = "GitNameError";
  }
}

const SEGMENT = /^[A-Za-z0-9._-]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;
const MAX_NAME = 300;

/** Segments a GitLab name may have at most: a group, up to 20 levels of subgroups, the project. */
export const GITLAB_MAX_SEGMENTS = 22;

/**
 * Segments a remote's repository name may have: `owner/repo`; on Azure `project/repo` or
 * `org/project/repo`; on GitLab `group/project` or `group/subgroup/.../project` (nested groups).
 */
export const repositorySegments = (remote: string): { min: number; max: number } =>
  remote === "azure" ? { min: 2, max: 3 } : remote === "gitlab" ? { min: 2, max: GITLAB_MAX_SEGMENTS } : { min: 2, max: 2 };

const FORMS: Record<string, string> = {
  azure: "'org/project/repo' or 'project/repo'",
  gitlab: "'group/project' or 'group/subgroup/project'",
};

/**
 * Checks `owner/repo` (Azure: `org/project/repo` too; GitLab: nested groups) and returns it as given:
 * hosts compare names without case, but a case-sensitive one (file://, a plain git server) must be
 * cloned with the name the client sent. Ids and mirror paths use `canonicalRepositoryName`. No segment
 * but the last may end in `.git` (a mirror is `<name>.git`: `a/b.git/c` would live inside `a/b`'s).
 * Throws GitNameError naming the problem.
 */
export function validateRepositoryName(remote: string, name: string): string {
  if (typeof name !== "string" || name.length === 0) throw new GitNameError("repository", "must not be empty");
  if (name.length > MAX_NAME) throw new GitNameError("repository", `must be at most ${MAX_NAME} characters`);
  if (CONTROL.test(name)) throw new GitNameError("repository", "must not contain control characters");
  if (/\s/.test(name)) throw new GitNameError("repository", "must not contain spaces");
  if (name.startsWith("-")) throw new GitNameError("repository", "must not start with '-'");
  if (name.includes("..")) throw new GitNameError("repository", "must not contain '..'");
  const parts = name.split("/");
  const { min, max } = repositorySegments(remote);
  if (parts.length < min || parts.length > max) {
    const form = FORMS[remote] ?? "'owner/repo'";
    throw new GitNameError("repository", `must have the form ${form}${max > 3 && parts.length > max ? ` (at most ${max} segments)` : ""}`);
  }
  parts.forEach((part, i) => {
    if (part.length === 0) throw new GitNameError("repository", "must not have empty segments");
    if (part.startsWith("-")) throw new GitNameError("repository", "segments must not start with '-'");
    if (part === ".") throw new GitNameError("repository", "segments must not be '.'");
    if (!SEGMENT.test(part)) throw new GitNameError("repository", "may contain only letters, digits, '.', '_' and '-'");
    if (i < parts.length - 1 && part.toLowerCase().endsWith(".git")) throw new GitNameError("repository", "only the last segment may end in '.git'");
  });
  return name;
}

/** The form names are matched in (repository ids, mirror paths): checked, then lower-cased. */
export const canonicalRepositoryName = (remote: string, name: string): string => validateRepositoryName(remote, name).toLowerCase();

/**
 * Checks a branch name by the rules of `git check-ref-format --branch` (applied to refs/heads/<name>),
 * and also refuses a leading '-' and the name HEAD. Returns the name unchanged.
 */
export function validateBranchName(name: string): string {
  const fail = (problem: string): never => {
    throw new GitNameError("branch", problem);
  };
  if (typeof name !== "string" || name.length === 0) fail("must not be empty");
  if (name.length > 255) fail("must be at most 255 characters");
  if (name.startsWith("-")) fail("must not start with '-'");
  if (name === "HEAD" || name === "@") fail(`'${name}' is not a branch name`);
  if (CONTROL.test(name)) fail("must not contain control characters");
  if (/[ ~^:?*[\\]/.test(name)) fail("must not contain spaces or any of ~ ^ : ? * [ \\");
  if (name.includes("..")) fail("must not contain '..'");
  if (name.includes("@{")) fail("must not contain '@{'");
  if (name.startsWith("/") || name.endsWith("/") || name.includes("//")) fail("must not start or end with '/' or contain '//'");
  if (name.endsWith(".")) fail("must not end with '.'");
  for (const component of name.split("/")) {
    if (component.startsWith(".")) fail("no path component may start with '.'");
    if (component.endsWith(".lock")) fail("no path component may end with '.lock'");
  }
  return name;
}

/** A full ref name (`refs/heads/x`, `refs/pull/12/head`, `refs/merge-requests/3/head`). */
export function validateRefName(ref: string): string {
  if (!ref.startsWith("refs/")) throw new GitNameError("ref", "must start with 'refs/'");
  try {
    validateBranchName(ref.slice("refs/".length));
  } catch (error) {
    if (error instanceof GitNameError) throw new GitNameError("ref", error.problem);
    throw error;
  }
  return ref;
}

/**
 * A revision argument: an object id, or a branch/ref name (optionally with `^`/`~N` suffixes as git
 * accepts them in revision ranges we build ourselves). Refuses option-like and odd input.
 */
export function validateRevision(rev: string): string {
  if (typeof rev !== "string" || rev.length === 0) throw new GitNameError("revision", "must not be empty");
  if (rev.length > 300) throw new GitNameError("revision", "is too long");
  if (rev.startsWith("-")) throw new GitNameError("revision", "must not start with '-'");
  if (CONTROL.test(rev) || /\s/.test(rev)) throw new GitNameError("revision", "must not contain spaces or control characters");
  if (rev.includes("..")) throw new GitNameError("revision", "must not contain '..' (pass the two ends separately)");
  if (!/^[A-Za-z0-9._/@^~+-]+$/.test(rev)) throw new GitNameError("revision", "contains characters git revisions do not use");
  return rev;
}

/** True for a full hexadecimal object id (SHA-1 or SHA-256). */
export const isObjectId = (value: string): boolean => /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(value);
