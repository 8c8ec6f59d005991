/** @jsxImportSource hono/jsx */
/**
 * Custom context: list (filters by type and status), search, create and edit (body, scopes, status)
 * with a scope editor the client script checks before sending (the service checks again), and the
 * learned SUGGESTED patterns with the comments they were learned from.
 */
import type { Context, Hono } from "hono";
import type { Services } from "../../../services.ts";
import { consoleCommandContext, type ConsoleEnv } from "../env.ts";
import { Badge, Choice, Csrf, Json, Layout, Notice, Time } from "../layout.tsx";
import { Markdown } from "../render.tsx";
import { DomainError } from "../../../eventstore/decider.ts";
import { formText, given, intIn } from "./forms.ts";
import type { CustomContextListItem } from "../../../features/custom-context/service.ts";
import { bodyLimitProblem } from "../../../features/custom-context/events.ts";

const TYPES = ["CUSTOM_INSTRUCTION", "PATTERN"] as const;
const STATUSES = ["ACTIVE", "INACTIVE", "SUGGESTED"] as const;
const PAGE = 50;

type Values = { body?: string | undefined; type?: string | undefined; status?: string | undefined; scopes?: string | undefined };

/** The scope field: a JSON textarea the client script turns into a row editor (and checks before submit). */
function ScopeEditor(props: { value: string }) {
  return (
    <div class="scope-editor" data-scope-editor>
      <label for="scopes">Scopes (JSON: {"{}"} everywhere, or AND / OR of conditions with field, operator MATCHES, value)</label>
      <textarea id="scopes" name="scopes" rows={4} class="mono" spellcheck={false}>
        {props.value}
      </textarea>
      <p class="scope-error errors" role="alert" hidden></p>
    </div>
  );
}

/** Parses the scopes field: "" is {}, otherwise JSON (the service validates the shape). */
function scopesOf(text: string | undefined): { scopes?: unknown; error?: string } {
  if (!text || !text.trim()) return { scopes: {} };
  try {
    return { scopes: JSON.parse(text) };
  } catch {
    return { error: "scopes: not valid JSON" };
  }
}

function ContextRow(props: { x: CustomContextListItem }) {
  const { x } = props;
  return (
    <tr>
      <th scope="row">
        <a href={`/console/custom-context/${x.id}`}>{x.body.slice(0, 120) || "(empty)"}</a>
      </th>
      <td>{x.type}</td>
      <td>
        <Badge value={x.status} />
        {x.greptileGenerated ? <span class="muted small"> learned</span> : null}
      </td>
      <td class="mono small">{JSON.stringify(x.scopes)}</td>
      <td>{x.evidenceCount}</td>
      <td>
        <Time at={x.createdAt} />
      </td>
    </tr>
  );
}

export function customContextPages(app: Hono<ConsoleEnv>, services: Services) {
  const { customContext } = services;

  const listPage = (c: Context<ConsoleEnv>, options: { values?: Values; errors?: string[]; status?: 200 | 400 } = {}) => {
    const session = c.get("session");
    const orgId = session.principal.orgId;
    const q = c.req.query();
    const query = given(q.q);
    const type = TYPES.find((t) => t === q.type);
    const status = STATUSES.find((s) => s === q.status);
    const offset = intIn(q.offset, 0, 1_000_000) ?? 0;
    const listed = query ? customContext.search(orgId, { query, limit: 50 }) : customContext.list(orgId, { type, status, limit: PAGE, offset });
    const suggested = customContext.list(orgId, { status: "SUGGESTED", greptileGenerated: true, limit: 20 }).customContexts;
    const v = options.values ?? {};
    return c.html(
      <Layout title="Custom context" session={session} nav="custom-context">
        <h1>Custom context</h1>
        <Notice notice={q.notice} />
        <form method="get" action="/console/custom-context" class="inline-form card" aria-label="Find custom context">
          <label>
            Search
            <input name="q" value={query ?? ""} />
          </label>
          <Choice label="Type" name="type" options={TYPES} value={type} any />
          <Choice label="Status" name="status" options={STATUSES} value={status} any />
          <button type="submit" class="secondary">Show</button>
        </form>
        <p class="muted">{listed.total} found</p>
        <div class="table-wrap">
          <table id="custom-contexts">
            <thead>
              <tr>
                <th scope="col">Body</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Scopes</th>
                <th scope="col">Evidence</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {listed.customContexts.map((x) => (
                <ContextRow x={x} />
              ))}
            </tbody>
          </table>
        </div>
        {!query && offset + PAGE < listed.total ? <a href={`/console/custom-context?${new URLSearchParams({ ...q, offset: String(offset + PAGE) })}`}>Next page</a> : null}
        <section aria-labelledby="learned-title" class="card">
          <h2 id="learned-title">Learned suggestions</h2>
          {suggested.length === 0 ? <p class="muted">No suggestion learned from review comments yet.</p> : null}
          <ul class="plain">
            {suggested.map((x) => (
              <li>
                <a href={`/console/custom-context/${x.id}`}>{x.body.slice(0, 160)}</a> <span class="muted small">{x.evidenceCount} pieces of evidence</span>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="create-title" class="card">
          <h2 id="create-title">Create</h2>
          <Notice errors={options.errors} />
          <form method="post" action="/console/custom-context" class="stack" id="create-context">
            <Csrf session={session} />
            <label for="body">Body (markdown)</label>
            <textarea id="body" name="body" rows={4} required>
              {v.body ?? ""}
            </textarea>
            <div class="inline-form">
              <Choice label="Type" name="type" options={TYPES} value={v.type ?? "CUSTOM_INSTRUCTION"} />
              <Choice label="Status" name="status" options={STATUSES} value={v.status ?? "ACTIVE"} />
            </div>
            <ScopeEditor value={v.scopes ?? "{}"} />
            <button type="submit">Create</button>
          </form>
        </section>
      </Layout>,
      options.status ?? 200,
    );
  };

  app.get("/custom-context", (c) => listPage(c));

  app.post("/custom-context", async (c) => {
    const form = await c.req.parseBody();
    const values: Values = { body: formText(form.body), type: formText(form.type), status: formText(form.status), scopes: formText(form.scopes) };
    const { scopes, error } = scopesOf(values.scopes);
    if (error) return listPage(c, { values, errors: [error], status: 400 });
    if (!values.body?.trim()) return listPage(c, { values, errors: ["body: must not be empty"], status: 400 });
    const tooLong = bodyLimitProblem(values.body);
    if (tooLong) return listPage(c, { values, errors: [tooLong], status: 400 });
    try {
      const { customContext: created } = await customContext.create(c.get("session").principal.orgId, { body: values.body, type: values.type, status: values.status, scopes }, consoleCommandContext(c.var));
      return c.redirect(`/console/custom-context/${created.id}?notice=created`, 303);
    } catch (e) {
      if (e instanceof DomainError && e.code === "invalid") return listPage(c, { values, errors: [e.message], status: 400 });
      throw e;
    }
  });

  const detailPage = (c: Context<ConsoleEnv>, id: string, options: { errors?: string[]; values?: Values; status?: 200 | 400 } = {}) => {
    const session = c.get("session");
    const { customContext: x } = customContext.get(session.principal.orgId, id);
    const evidence = x.linkedComments.filter((l) => l.relation === "evidence");
    const caused = x.linkedComments.filter((l) => l.relation === "review");
    const notice = c.req.query("notice");
    return c.html(
      <Layout title="Custom context" session={session} nav="custom-context">
        <p class="muted">
          <a href="/console/custom-context">Custom context</a> / <span class="mono">{x.id}</span>
        </p>
        <h1>
          {x.type} <Badge value={x.status} />
        </h1>
        <Notice notice={notice === "created" ? "Created." : notice === "saved" ? "Saved." : undefined} errors={options.errors} />
        <Markdown text={x.body} class="card" />
        <dl class="facts">
          <dt>Scopes</dt>
          <dd class="mono">{JSON.stringify(x.scopes)}</dd>
          <dt>Created</dt>
          <dd>
            <Time at={x.createdAt} />
          </dd>
          <dt>Source</dt>
          <dd>{x.greptileGenerated ? "learned from review comments" : "written by a person"}</dd>
          {session.principal.role === "admin" ? (
            <>
              <dt>History</dt>
              <dd>
                <a href={`/console/audit/history?entity=${encodeURIComponent(x.id)}`}>events of this custom context</a>
              </dd>
            </>
          ) : null}
        </dl>
        <Json value={x.metadata} />
        <form method="post" action={`/console/custom-context/${x.id}/status`} class="inline-form card" id="status-form">
          <Csrf session={session} />
          <label>
            Status
            <select name="status">
              {STATUSES.map((s) => (
                <option value={s} selected={x.status === s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Set status</button>
        </form>
        <section class="card" aria-labelledby="edit-title">
          <h2 id="edit-title">Edit</h2>
          <form method="post" action={`/console/custom-context/${x.id}/edit`} class="stack" id="edit-context">
            <Csrf session={session} />
            <label for="edit-body">Body</label>
            <textarea id="edit-body" name="body" rows={4} required>
              {options.values?.body ?? x.body}
            </textarea>
            <ScopeEditor value={options.values?.scopes ?? JSON.stringify(x.scopes)} />
            <button type="submit">Save</button>
          </form>
        </section>
        <section aria-labelledby="evidence-title">
          <h2 id="evidence-title">Evidence ({evidence.length})</h2>
          <ul class="comments">
            {[...evidence, ...caused].map((l) => (
              <li class="comment">
                <div class="comment-head">
                  <strong>{l.authorLogin}</strong> on {l.repository}#{l.prNumber} {l.filePath ? <span class="mono small">{l.filePath}</span> : null} <Badge value={l.relation} />{" "}
                  <Time at={l.createdAt} />
                </div>
                <Markdown text={l.body} class="comment-body" />
              </li>
            ))}
          </ul>
        </section>
      </Layout>,
      options.status ?? 200,
    );
  };

  app.get("/custom-context/:id", (c) => detailPage(c, c.req.param("id")));

  app.post("/custom-context/:id/status", async (c) => {
    const id = c.req.param("id");
    const form = await c.req.parseBody();
    const status = STATUSES.find((s) => s === formText(form.status));
    if (!status) return detailPage(c, id, { errors: ["status: must be ACTIVE, INACTIVE or SUGGESTED"], status: 400 });
    await customContext.setStatus(c.get("session").principal.orgId, id, status, consoleCommandContext(c.var));
    return c.redirect(`/console/custom-context/${id}?notice=saved`, 303);
  });

  app.post("/custom-context/:id/edit", async (c) => {
    const id = c.req.param("id");
    const form = await c.req.parseBody();
    const values: Values = { body: formText(form.body), scopes: formText(form.scopes) };
    const { scopes, error } = scopesOf(values.scopes);
    if (error) return detailPage(c, id, { values, errors: [error], status: 400 });
    if (!values.body?.trim()) return detailPage(c, id, { values, errors: ["body: must not be empty"], status: 400 });
    const tooLong = bodyLimitProblem(values.body);
    if (tooLong) return detailPage(c, id, { values, errors: [tooLong], status: 400 });
    try {
      await customContext.update(c.get("session").principal.orgId, id, { body: values.body, scopes }, consoleCommandContext(c.var));
    } catch (e) {
      if (e instanceof DomainError && e.code === "invalid") return detailPage(c, id, { values, errors: [e.message], status: 400 });
      throw e;
    }
    return c.redirect(`/console/custom-context/${id}?notice=saved`, 303);
  });

}
