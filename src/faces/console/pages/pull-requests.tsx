/** @jsxImportSource hono/jsx */
/**
 * Pull requests and reviews: the list with filters; a pull request with its comments (service and
 * human, addressed or not), its review analysis and its reviews (status timeline and progress, live);
 * a code review's page; triggering a review with a strictness.
 */
import type { Context, Hono } from "hono";
import type { Services } from "../../../services.ts";
import { consoleCommandContext, type ConsoleEnv } from "../env.ts";
import { Badge, Choice, Csrf, Layout, Notice, Time } from "../layout.tsx";
import { Markdown } from "../render.tsx";
import { ConsoleError } from "../errors.ts";
import { given, intIn } from "./forms.ts";
import { CommentItem, ReviewProgress } from "./reviews.tsx";
import { isRemote } from "../../../hosts/index.ts";
import { prKey } from "../../../hosts/pull-request-key.ts";
import { toReviewComment } from "../../../features/review-comments/queries.ts";
import { countsAsInline } from "../../../features/pull-requests/queries.ts";
import type { CodeReviewRecord } from "../../../features/code-reviews/projection.ts";
import { HostTokenRequiredError } from "../../../features/pull-requests/host-tokens.ts";

const PAGE = 50;
const prHref = (p: { remote: string; name: string; number: number }) => `/console/pull-requests/view?${new URLSearchParams({ remote: p.remote, name: p.name, number: String(p.number) })}`;
const safeUrl = (url: string) => (/^https?:\/\//i.test(url) ? url : undefined);

function LiveReviews(props: { records: CodeReviewRecord[]; link?: boolean }) {
  if (props.records.length === 0) return <p class="muted">No code review yet.</p>;
  return (
    <div class="reviews" data-live={`/console/live/reviews?ids=${props.records.map((r) => encodeURIComponent(r.id)).join(",")}`}>
      {props.records.map((r) => (
        <ReviewProgress r={r} link={props.link ?? false} />
      ))}
    </div>
  );
}

export function pullRequestPages(app: Hono<ConsoleEnv>, services: Services) {
  const { pullRequests, reviews } = services;

  app.get("/pull-requests", (c) => {
    const session = c.get("session");
    const orgId = session.principal.orgId;
    const q = c.req.query();
    const state = given(q.state);
    const authorLogin = given(q.author);
    const sourceBranch = given(q.branch);
    const offset = intIn(q.offset, 0, 1_000_000) ?? 0;
    const repo = given(q.repo)?.split("|");
    const repoFilter = repo && repo.length === 3 ? { remote: repo[0]!, name: repo[1]!, defaultBranch: repo[2]! } : {};
    const list = pullRequests.list(orgId, { ...repoFilter, state, authorLogin, sourceBranch, limit: PAGE, offset });
    const repositories = new Map<string, string>();
    for (const pr of pullRequests.list(orgId, { limit: 100 }).mergeRequests) {
      const full = pullRequests.queries.findPullRequest(orgId, pr.repository.remote, pr.repository.name, pr.number);
      const value = `${pr.repository.remote}|${pr.repository.name}|${full?.repository.defaultBranch ?? full?.targetBranch ?? "main"}`;
      repositories.set(value, `${pr.repository.name} (${pr.repository.remote})`);
    }
    const next = new URLSearchParams({ ...q, offset: String(offset + PAGE) });
    return c.html(
      <Layout title="Pull requests" session={session} nav="pull-requests">
        <h1>Pull requests</h1>
        <form method="get" action="/console/pull-requests" class="inline-form card" aria-label="Filter pull requests">
          <label>
            Repository
            <select name="repo">
              <option value="">all</option>
              {[...repositories].map(([value, label]) => (
                <option value={value} selected={given(q.repo) === value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <Choice label="State" name="state" options={["open", "closed"]} value={state} any />
          <label>
            Author
            <input name="author" value={authorLogin ?? ""} />
          </label>
          <label>
            Source branch
            <input name="branch" value={sourceBranch ?? ""} />
          </label>
          <button type="submit" class="secondary">Filter</button>
        </form>
        <p class="muted">{list.total} pull request{list.total === 1 ? "" : "s"}</p>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Pull request</th>
                <th scope="col">State</th>
                <th scope="col">Author</th>
                <th scope="col">Branches</th>
                <th scope="col">Changes</th>
                <th scope="col">Comments</th>
                <th scope="col">Reviews</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.mergeRequests.map((pr) => (
                <tr>
                  <th scope="row">
                    <a href={prHref({ remote: pr.repository.remote, name: pr.repository.name, number: pr.number })}>
                      {pr.repository.name}#{pr.number} {pr.title}
                    </a>
                  </th>
                  <td>
                    <Badge value={pr.isDraft ? "draft" : pr.state} />
                  </td>
                  <td>{pr.authorLogin}</td>
                  <td class="mono small">
                    {pr.branches.source} → {pr.branches.target}
                  </td>
                  <td class="small">
                    {pr.stats.changedFiles} files +{pr.stats.additions} -{pr.stats.deletions}
                  </td>
                  <td>{pr.commentsCount}</td>
                  <td>{pr.reviewsCount}</td>
                  <td>
                    <Time at={pr.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {offset + PAGE < list.total ? <a href={`/console/pull-requests?${next}`}>Next page</a> : null}
      </Layout>,
    );
  });

  const detail = (c: Context<ConsoleEnv>, ref: { remote: string; name: string; number: number }, options: { errors?: string[]; status?: 200 | 400 | 404 | 409 } = {}) => {
    const session = c.get("session");
    const orgId = session.principal.orgId;
    const { mergeRequest: pr } = pullRequests.get(orgId, { remote: ref.remote, name: ref.name, prNumber: ref.number });
    const records = reviews.ofPullRequest(orgId, pr.id).map((r) => reviews.record(orgId, r.id)).filter((r) => r !== undefined);
    const a = pr.reviewAnalysis;
    const tracked = new Set([...a.addressedComments, ...a.unaddressedComments].map((x) => x.id));
    const url = safeUrl(pr.url);
    return c.html(
      <Layout title={`${pr.repository.name}#${pr.number}`} session={session} nav="pull-requests">
        <p class="muted">
          <a href="/console/pull-requests">Pull requests</a> / {pr.repository.name}
        </p>
        <h1>
          #{pr.number} {pr.title}
        </h1>
        <p>
          <Badge value={pr.isDraft ? "draft" : pr.state} /> {pr.authorLogin} wants to merge <span class="mono">{pr.branches.source}</span> into{" "}
          <span class="mono">{pr.branches.target}</span> · {pr.stats.changedFiles} files +{pr.stats.additions} -{pr.stats.deletions}
          {url ? (
            <>
              {" · "}
              <a href={url} rel="noopener noreferrer nofollow">on the host</a>
            </>
          ) : null}
        </p>
        {pr.labels.length ? <p class="small">{pr.labels.map((l) => <span class="badge">{l}</span>)}</p> : null}
        <Markdown text={pr.description} class="card" />
        <section aria-labelledby="analysis-title" class="card">
          <h2 id="analysis-title">Review analysis</h2>
          <dl class="facts">
            <dt>Completeness</dt>
            <dd>{a.reviewCompleteness}</dd>
            <dt>Service comments</dt>
            <dd>{a.totalGreptileComments}</dd>
            <dt>Human comments</dt>
            <dd>{a.totalHumanComments}</dd>
            <dt>Unaddressed</dt>
            <dd>{a.unaddressedComments.length}</dd>
            <dt>Last review</dt>
            <dd>
              <Time at={a.lastReviewDate} />
            </dd>
            <dt>New commits since</dt>
            <dd>{a.hasNewCommitsSinceReview ? `yes (${a.commitsSinceLastReview.map((x) => x.sha.slice(0, 8)).join(", ")})` : "no"}</dd>
          </dl>
        </section>
        <section aria-labelledby="reviews-title" id="reviews" class="card">
          <h2 id="reviews-title">Code reviews</h2>
          <LiveReviews records={records} link />
          <Notice errors={options.errors} />
          <form method="post" action="/console/pull-requests/review" class="inline-form" id="trigger-review">
            <Csrf session={session} />
            <input type="hidden" name="remote" value={pr.repository.remote} />
            <input type="hidden" name="name" value={pr.repository.name} />
            <input type="hidden" name="number" value={String(pr.number)} />
            <label>
              Strictness
              <select name="strictness">
                {[1, 2, 3, 4, 5].map((n) => (
                  <option value={String(n)} selected={n === 3}>
                    {n}
                    {n === 1 ? " (lenient)" : n === 5 ? " (strict)" : ""}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Host token (kept only for the review; needed unless the service's own token serves this organisation)
              <input name="hostToken" type="password" autocomplete="off" />
            </label>
            <button type="submit">Trigger a review</button>
          </form>
        </section>
        <section aria-labelledby="service-title">
          <h2 id="service-title">Service comments ({pr.comments.greptile.length})</h2>
          <ul class="comments">
            {pr.comments.greptile.map((x) => (
              <CommentItem c={x} tracked={tracked.has(x.id)} />
            ))}
          </ul>
        </section>
        <section aria-labelledby="human-title">
          <h2 id="human-title">Human comments ({pr.comments.human.length})</h2>
          <ul class="comments">
            {pr.comments.human.map((x) => (
              <CommentItem c={x} tracked={false} />
            ))}
          </ul>
        </section>
      </Layout>,
      options.status ?? 200,
    );
  };

  const refOf = (values: Record<string, unknown>) => {
    const remote = given(values.remote)?.toLowerCase();
    const name = given(values.name);
    const number = intIn(values.number, 1, 1_000_000_000);
    if (!remote || !isRemote(remote) || !name || number === undefined) throw new ConsoleError(400, "remote, name and number identify a pull request");
    return { remote, name, number };
  };

  app.get("/pull-requests/view", (c) => detail(c, refOf(c.req.query())));

  app.post("/pull-requests/review", async (c) => {
    const form = await c.req.parseBody();
    const ref = refOf(form);
    const orgId = c.get("session").principal.orgId;
    const pr = pullRequests.queries.findPullRequest(orgId, ref.remote, ref.name, ref.number);
    if (!pr) throw new ConsoleError(404, `Pull request ${ref.name}#${ref.number} not found.`);
    const strictness = intIn(form.strictness, 1, 5);
    if (strictness === undefined) return detail(c, ref, { errors: ["strictness: must be an integer from 1 to 5"], status: 400 });
    const hostToken = given(form.hostToken);
    try {
      await reviews.trigger(orgId, { name: pr.repository.name, remote: ref.remote, defaultBranch: pr.repository.defaultBranch ?? pr.targetBranch, prNumber: ref.number, strictness }, consoleCommandContext(c.var), { hostToken });
    } catch (error) {
      if (error instanceof HostTokenRequiredError) return detail(c, ref, { errors: [error.message], status: 400 });
      throw error;
    }
    return c.redirect(`${prHref(ref)}#reviews`, 303);
  });

  app.get("/reviews/:id", (c) => {
    const session = c.get("session");
    const orgId = session.principal.orgId;
    const id = c.req.param("id");
    const record = reviews.record(orgId, id);
    if (!record) throw new ConsoleError(404, `Code review ${id} not found.`);
    const { codeReview } = reviews.get(orgId, id);
    const key = prKey({ remote: record.repository.remote, name: record.repository.name, number: record.prNumber });
    const records = pullRequests.queries.commentsOf(orgId, key).filter((x) => x.codeReviewId === id);
    const comments = records.map((x) => ({ comment: toReviewComment(x), tracked: countsAsInline(x) }));
    return c.html(
      <Layout title={`Review ${id.slice(0, 8)}`} session={session} nav="pull-requests">
        <p class="muted">
          <a href={prHref({ remote: record.repository.remote, name: record.repository.name, number: record.prNumber })}>
            {record.repository.name}#{record.prNumber} {codeReview.mergeRequest.title}
          </a>
        </p>
        <h1>
          Code review <span class="mono">{id}</span>
        </h1>
        <LiveReviews records={[record]} />
        <p class="muted small">
          Requested <Time at={record.createdAt} /> · trigger {record.trigger} · {record.reviewedFiles.length} reviewed, {record.skippedFiles.length} skipped
        </p>
        <h2>Summary</h2>
        {codeReview.body ? <Markdown text={codeReview.body} class="card" /> : <p class="muted">No summary yet.</p>}
        <h2>Comments ({comments.length})</h2>
        <ul class="comments">
          {comments.map((x) => (
            <CommentItem c={x.comment} tracked={x.tracked} />
          ))}
        </ul>
      </Layout>,
    );
  });
}
