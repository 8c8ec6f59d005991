/** @jsxImportSource hono/jsx */
/**
 * Repositories: the organisation's indexed repositories with their status, files processed / total,
 * languages, head sha and last index, updated live (/console/live/repositories); a submit form
 * validated by the API's own schema; re-index; failure reasons.
 */
import type { Context, Hono } from "hono";
import type { Services } from "../../../services.ts";
import type { ConsoleEnv } from "../env.ts";
import { consoleCommandContext } from "../env.ts";
import { Badge, Csrf, Layout, Notice, PostButton, Progress, Time } from "../layout.tsx";
import { submitBody } from "../../http/routes/repositories.ts";
import { zodIssues } from "../../http/validate.ts";
import { GitNameError } from "../../../git/names.ts";
import { parseRepositoryId, shownRef } from "../../../indexing/repo-id.ts";
import type { RepositoryView } from "../../../features/repositories/indexer.ts";
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

function RepositoryRow(props: { r: RepositoryView; session: ConsoleEnv["Variables"]["session"] }) {
  const { r } = props;
  const shown = shownRef(r); // a local repository as the `local` remote with its name
  return (
    <tr data-repo-id={r.repoId}>
      <th scope="row">
        <span class="mono nowrap">{shown.repository}</span>
        <div class="muted small">
          {shown.remote} · {r.branch}
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
        <PostButton action="/console/repositories/reindex" session={props.session} fields={{ repoId: r.repoId }} label="Re-index" />
      </td>
    </tr>
  );
}

export function repositoryPages(app: Hono<ConsoleEnv>, services: Services) {
  const { indexer } = services;

  const page = (c: Context<ConsoleEnv>, options: { errors?: string[]; values?: FormValues; status?: 200 | 400 | 404 } = {}) => {
    const session = c.get("session");
    const orgId = session.principal.orgId;
    const repos = indexer.list(orgId).map((r) => indexer.get(orgId, r.repoId) ?? r);
    repos.sort((a, b) => (a.submittedAt > b.submittedAt ? -1 : 1));
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
    return c.redirect(`/console/repositories?notice=${encodeURIComponent(`${result.message}: ${result.repoId}`)}`, 303);
  });

  app.post("/repositories/reindex", async (c) => {
    const form = await c.req.parseBody();
    const ref = parseRepositoryId(formText(form.repoId) ?? "");
    const orgId = c.get("session").principal.orgId;
    const record = ref && indexer.get(orgId, `${ref.remote}:${ref.branch}:${ref.repository.toLowerCase()}`);
    if (!ref || !record) throw new ConsoleError(404, "No such repository in your organisation.");
    const result = await indexer.submit(
      { orgId, remote: ref.remote, repository: record.repository, branch: record.requestedBranch ?? undefined, reload: true },
      consoleCommandContext(c.var),
    );
    return c.redirect(`/console/repositories?notice=${encodeURIComponent(`${result.message}: ${result.repoId}`)}`, 303);
  });
}
