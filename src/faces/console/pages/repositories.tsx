/** @jsxImportSource hono/jsx */
/**
 * Repositories: the organisation's indexed repositories with their status, files processed / total,
 * languages, head sha and last index, updated live (/console/live/repositories), in a stable order (by
 * name); a submit form validated by the API's own schema; a local path form (admin, LOUPE_LOCAL_ROOTS)
 * with the API's checks; re-index of exactly the row's repository and branch (a private repository's
 * row takes a host token, posted with that one request and never kept or shown); failure reasons. Ids
 * are shown as users know them (`local:<branch>:<name>-<hash>` for a local repository).
 */
import type { Context, Hono } from "hono";
import type { Services } from "../../../services.ts";
import type { ConsoleEnv } from "../env.ts";
import { consoleCommandContext } from "../env.ts";
import { Badge, Csrf, Layout, Notice, PostButton, Progress, Time } from "../layout.tsx";
import type { ConsoleSession } from "../session.ts";
import { submitBody } from "../../http/routes/repositories.ts";
import { localBody } from "../../http/routes/local-repositories.ts";
import { zodIssues } from "../../http/validate.ts";
import { GitNameError } from "../../../git/names.ts";
import { parseRepositoryId, shownRef, shownRepositoryId, storedRepositoryId, UNRESOLVED_BRANCH } from "../../../indexing/repo-id.ts";
import type { RepositoryView } from "../../../features/repositories/indexer.ts";
import { LocalPathError } from "../../../features/repositories/local.ts";
import { submitLocalRepository } from "../../../features/repositories/local-submit.ts";
import { ConsoleError } from "../errors.ts";
import { formText } from "./forms.ts";

const REMOTES = ["github", "gitlab", "bitbucket", "azure"] as const;

export const languagesText = (languages: Record<string, number>) =>
  Object.entries(languages)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([l, n]) => `${l} ${n}`)
    .join(", ");

/** What the live stream sends of a repository (and the row shows). */
export const repositoryLive = (r: RepositoryView) => ({
  id: r.repoId,
  status: r.status,
  filesProcessed: r.filesProcessed,
  numFiles: r.numFiles,
  sha: r.sha,
  headSha: r.headSha,
  languages: languagesText(r.languages),
  indexedAt: r.indexedAt,
  failureReason: r.failureReason,
});

type FormValues = { remote?: string; repository?: string; branch?: string };
type LocalValues = { path?: string; branch?: string };

/** Stable order: by the name shown, then remote and branch (a re-index does not move a row). */
const byName = (a: RepositoryView, b: RepositoryView) => {
  const x = shownRef(a);
  const y = shownRef(b);
  return x.repository.localeCompare(y.repository) || x.remote.localeCompare(y.remote) || a.branch.localeCompare(b.branch) || a.repoId.localeCompare(b.repoId);
};

/** The notice after a submission: its id as shown, and why a default branch could not be resolved. */
const submittedNotice = (message: string, repoId: string) =>
  parseRepositoryId(repoId)?.branch === UNRESOLVED_BRANCH
    ? `${message}: ${shownRepositoryId(repoId)} (the default branch could not be resolved; the reason shows when the job fails, and Re-index tries again)`
    : `${message}: ${shownRepositoryId(repoId)}`;

/**
 * Re-index of exactly the row's repository and branch. A repository the host says is private cannot be
 * read without a token (the server keeps none), so its row asks for one: a password field posted with
 * the form (never in a URL), handed to the job like the submit form's and never put back into a page.
 */
function ReindexForm(props: { r: RepositoryView; name: string; session: ConsoleSession }) {
  const repoId = shownRepositoryId(props.r.repoId);
  if (!props.r.private) return <PostButton action="/console/repositories/reindex" session={props.session} fields={{ repoId }} label="Re-index" />;
  return (
    <form method="post" action="/console/repositories/reindex" class="reindex-form">
      <Csrf session={props.session} />
      <input type="hidden" name="repoId" value={repoId} />
      <label class="small">
        Host token (private repository)
        <input name="hostToken" type="password" autocomplete="off" aria-label={`Host token for ${props.name}`} />
      </label>
      <button type="submit" class="small">
        Re-index
      </button>
    </form>
  );
}

function RepositoryRow(props: { r: RepositoryView; session: ConsoleEnv["Variables"]["session"] }) {
  const { r } = props;
  const shown = shownRef(r); // a local repository as the `local` remote with its name
  const branch = r.branch === UNRESOLVED_BRANCH && r.requestedBranch === null ? "default branch (not resolved)" : r.branch;
  return (
    <tr data-repo-id={r.repoId}>
      <th scope="row">
        <span class="mono nowrap">{shown.repository}</span>
        <div class="muted small">
          {shown.remote} · {branch}
        </div>
      </th>
      <td data-label="Status">
        <Badge value={r.status} field="status" />
        <div class="failure small" data-field="failureReason" hidden={!r.failureReason}>
          {r.failureReason ?? ""}
        </div>
      </td>
      <td data-label="Files">
        <Progress value={r.filesProcessed} max={r.numFiles} label={`Files of ${shown.repository} processed`} />
      </td>
      <td data-field="languages" data-label="Languages">{languagesText(r.languages) || "-"}</td>
      <td class="mono nowrap" data-field="sha" data-label="Head" title={r.sha ?? ""}>
        {(r.sha ?? r.headSha ?? "-").slice(0, 12)}
      </td>
      <td class="nowrap" data-field="indexedAt" data-label="Last indexed">
        <Time at={r.indexedAt} />
      </td>
      <td>
        <ReindexForm r={r} name={shown.repository} session={props.session} />
      </td>
    </tr>
  );
}

const DISABLED =
  "Indexing repositories on this server's disk (the local remote) is turned off. To turn it on, start Loupe with LOUPE_LOCAL_ROOTS set to the directories whose git repositories may be indexed (comma-separated, e.g. LOUPE_LOCAL_ROOTS=/srv/git), or `loupe serve --local-root DIR`.";

/** Index a git repository on the server's disk by path, or how to turn that on. */
function LocalSection(props: { session: ConsoleEnv["Variables"]["session"]; enabled: boolean; allowed: boolean; roots: string[]; errors?: string[] | undefined; values: LocalValues }) {
  const admin = props.session.principal.role === "admin";
  return (
    <section aria-labelledby="local-title" class="card" id="local">
      <h2 id="local-title">Index a local repository</h2>
      {!props.enabled ? (
        <p class="muted" id="local-disabled">
          {DISABLED}
        </p>
      ) : !props.allowed ? (
        <>
          <Notice errors={props.errors} />
          <p class="muted" id="local-operator-only">
            Indexing a path on the server is for the instance's bootstrap organisation (the operator's).
          </p>
        </>
      ) : !admin ? (
        <p class="muted">Indexing a path on the server needs an admin API key.</p>
      ) : (
        <>
          <p class="muted">
            A git repository's top-level directory (or a bare repository) under {props.roots.length === 1 ? "the allowed directory" : "one of the allowed directories"}{" "}
            <span class="mono">{props.roots.join(", ")}</span>. It is shown as the <span class="mono">local</span> remote; committed content is indexed.
          </p>
          <Notice errors={props.errors} />
          <form method="post" action="/console/repositories/local" class="inline-form" id="submit-local-repository">
            <Csrf session={props.session} />
            <label>
              Path on the server
              <input name="path" required value={props.values.path ?? ""} placeholder={`${props.roots[0] ?? ""}/my-repo`} spellcheck={false} />
            </label>
            <label>
              Branch
              <input name="branch" value={props.values.branch ?? ""} placeholder="checked-out branch" spellcheck={false} />
            </label>
            <button type="submit">Index local repository</button>
          </form>
        </>
      )}
    </section>
  );
}

export function repositoryPages(app: Hono<ConsoleEnv>, services: Services) {
  const { indexer, localRepositories } = services;

  type PageOptions = {
    errors?: string[];
    values?: FormValues;
    local?: { errors: string[]; values: LocalValues };
    status?: 200 | 400 | 403 | 404;
  };
  const page = (c: Context<ConsoleEnv>, options: PageOptions = {}) => {
    const session = c.get("session");
    const orgId = session.principal.orgId;
    const repos = indexer.list(orgId).map((r) => indexer.get(orgId, r.repoId) ?? r);
    repos.sort(byName);
    const v = options.values ?? {};
    return c.html(
      <Layout title="Repositories" session={session} nav="repositories">
        <h1>Repositories</h1>
        <Notice notice={c.req.query("notice")} />
        <section aria-labelledby="submit-title" class="card">
          <h2 id="submit-title">Index a repository</h2>
          <Notice errors={options.errors} />
          <form method="post" action="/console/repositories" class="inline-form" id="submit-repository">
            <Csrf session={session} />
            <label>
              Remote
              <select name="remote">
                {REMOTES.map((r) => (
                  <option value={r} selected={(v.remote ?? "github") === r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Repository (owner/repo)
              <input name="repository" required value={v.repository ?? ""} placeholder="acme/widgets" spellcheck={false} />
            </label>
            <label>
              Branch
              <input name="branch" value={v.branch ?? ""} placeholder="default branch" spellcheck={false} />
            </label>
            <label>
              Host token (private repositories; kept only for the job)
              <input name="hostToken" type="password" autocomplete="off" />
            </label>
            <button type="submit">Submit</button>
          </form>
        </section>
        <LocalSection session={session} enabled={localRepositories.enabled()} allowed={localRepositories.mayIndex(orgId)} roots={localRepositories.roots()} errors={options.local?.errors} values={options.local?.values ?? {}} />
        <section aria-labelledby="list-title">
          <h2 id="list-title">
            {repos.length} repositor{repos.length === 1 ? "y" : "ies"}
          </h2>
          {repos.length === 0 ? (
            <p class="muted">Nothing indexed yet.</p>
          ) : (
            <div class="table-wrap">
              <table data-live="/console/live/repositories" id="repositories" class="rows-on-phone">
                <thead>
                  <tr>
                    <th scope="col">Repository</th>
                    <th scope="col">Status</th>
                    <th scope="col">Files</th>
                    <th scope="col">Languages</th>
                    <th scope="col">Head</th>
                    <th scope="col">Last indexed</th>
                    <th scope="col">
                      <span class="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {repos.map((r) => (
                    <RepositoryRow r={r} session={session} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </Layout>,
      options.status ?? 200,
    );
  };

  app.get("/repositories", (c) => page(c));

  app.post("/repositories", async (c) => {
    const form = await c.req.parseBody();
    const values = { remote: formText(form.remote), repository: formText(form.repository), branch: formText(form.branch) };
    const parsed = submitBody.safeParse({ remote: values.remote, repository: values.repository ?? "", branch: values.branch || undefined });
    if (!parsed.success) return page(c, { values, errors: zodIssues(parsed.error).map((i) => `${i.field}: ${i.message}`), status: 400 });
    const hostToken = formText(form.hostToken)?.trim() || undefined;
    let result;
    try {
      result = await indexer.submit(
        { orgId: c.get("session").principal.orgId, remote: parsed.data.remote, repository: parsed.data.repository, branch: parsed.data.branch, hostToken },
        consoleCommandContext(c.var),
      );
    } catch (error) {
      if (error instanceof GitNameError) return page(c, { values, errors: [`${error.field}: ${error.problem}`], status: 400 });
      throw error;
    }
    return c.redirect(`/console/repositories?notice=${encodeURIComponent(submittedNotice(result.message, result.repoId))}`, 303);
  });

  // A git repository on the server's disk, by path: the checks of POST /v2/repositories/local (admin,
  // LOUPE_LOCAL_ROOTS, symlinks resolved, a repository's top level; a branch that is a git name).
  app.post("/repositories/local", async (c) => {
    if (c.get("session").principal.role !== "admin") throw new ConsoleError(403, "Indexing a path on the server needs an admin API key.");
    const form = await c.req.parseBody();
    const values: LocalValues = { path: formText(form.path)?.trim(), branch: formText(form.branch) };
    const local = (errors: string[], status: 400 | 403 | 404) => page(c, { local: { errors, values }, status });
    if (!localRepositories.enabled()) return local([DISABLED], 403);
    const parsed = localBody.safeParse({ path: values.path ?? "", branch: values.branch?.trim() || undefined });
    if (!parsed.success) return local(zodIssues(parsed.error).map((i) => `${i.field}: ${i.message}`), 400);
    let result;
    try {
      result = await submitLocalRepository(
        { indexer, localRepositories },
        { orgId: c.get("session").principal.orgId, path: parsed.data.path, branch: parsed.data.branch },
        consoleCommandContext(c.var),
      );
    } catch (error) {
      if (error instanceof LocalPathError) return local([error.message], error.status);
      if (error instanceof GitNameError) return local([`${error.field}: ${error.problem}`], 400);
      throw error;
    }
    return c.redirect(`/console/repositories?notice=${encodeURIComponent(`${result.message}: ${result.repositoryId} (${result.path})`)}`, 303);
  });

  // Exactly the row's repository and branch (the form posts the id as shown; the stored form is accepted
  // too), with the row's host token when it has one: for the job only, as the API's X-GitHub-Token.
  app.post("/repositories/reindex", async (c) => {
    const form = await c.req.parseBody();
    const repoId = storedRepositoryId(formText(form.repoId)?.trim() ?? "");
    const hostToken = formText(form.hostToken)?.trim() || undefined;
    const orgId = c.get("session").principal.orgId;
    const result = repoId !== null ? await indexer.reindex(orgId, repoId, consoleCommandContext(c.var), { hostToken }) : undefined;
    if (!result) throw new ConsoleError(404, "No such repository in your organisation.");
    const notice = result.replaced
      ? `The default branch resolved to ${parseRepositoryId(result.repoId)?.branch}: ${submittedNotice(result.message, result.repoId)} (it replaces the row whose default branch was not resolved)`
      : submittedNotice(result.message, result.repoId);
    return c.redirect(`/console/repositories?notice=${encodeURIComponent(notice)}`, 303);
  });
}
