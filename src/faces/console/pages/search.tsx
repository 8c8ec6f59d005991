/** @jsxImportSource hono/jsx */
/**
 * Search and ask: a query box over chosen repositories; search results as file + line range with the
 * code of the span (highlighted, escaped), at their own GET address (the form posts, the search runs
 * once and is recorded, then POST-redirect-GET to a page showing those results: ../search-results.ts);
 * a question whose answer streams in (the client script reads
 * /console/ask as NDJSON) with its sources; past query sessions reopened by id, continued with their
 * repositories; a code view of a span in its file as indexed.
 */
import type { Context, Hono } from "hono";
import type { Services } from "../../../services.ts";
import { consoleCommandContext, type ConsoleEnv } from "../env.ts";
import { Csrf, Layout, Notice, Time } from "../layout.tsx";
import { CodeBlock, Markdown } from "../render.tsx";
import { parseRepositoryId, shownRef } from "../../../indexing/repo-id.ts";
import { SearchRefusal, type CodeReference, type Resolution } from "../../../features/code-search/service.ts";
import { MAX_QUERY_CHARS, MAX_REPOSITORIES, sessionIdText } from "../../../features/code-search/request.ts";
import { ConsoleError } from "../errors.ts";
import { given, intIn } from "./forms.ts";
import { ulid } from "../../../ids.ts";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { createSearchResults, TURN_ID } from "../search-results.ts";

/** Why a session id is refused, as the other faces word it (sessionIdText); null when it is a valid one. */
const sessionIdProblem = (id: string): string | null => sessionIdText.safeParse(id).error?.issues[0]?.message ?? null;
const REFUSAL_STATUS = { not_found: 404, not_ready: 409, host_unavailable: 502 } as const;

type SearchForm = { query: string; repoIds: string[]; sessionId?: string | undefined };

export const codeHref = (r: { remote: string; repository: string; branch: string; filepath: string; linestart: number | null; lineend: number | null }) =>
  `/console/code?${new URLSearchParams({ remote: r.remote, repository: r.repository, branch: r.branch, path: r.filepath, start: String(r.linestart ?? 1), end: String(r.lineend ?? r.linestart ?? 1) })}`;

const span = (r: { linestart: number | null; lineend: number | null }) => (r.linestart ? `L${r.linestart}-${r.lineend ?? r.linestart}` : "whole file");

function ResultList(props: { references: CodeReference[]; sessionId?: string | undefined }) {
  return (
    <section aria-labelledby="results-title" id="results">
      <h2 id="results-title">
        {props.references.length} result{props.references.length === 1 ? "" : "s"}
      </h2>
      {props.sessionId ? (
        <p class="muted small">
          Session <a href={`/console/sessions/${encodeURIComponent(props.sessionId)}`} class="mono">{props.sessionId}</a>
        </p>
      ) : null}
      <ol class="results">
        {props.references.map((r, i) => (
          <li class="result">
            <details open={i < 3}>
              <summary>
                <span class="mono path">{r.filepath}</span> <span class="lines">{span(r)}</span>
                <span class="muted small"> {r.repository} · {r.branch}</span>
              </summary>
              <p class="small muted">{r.reason}</p>
              <CodeBlock code={r.code} path={r.filepath} firstLine={r.linestart ?? 1} />
              <a class="small" href={codeHref(r)}>Open in file</a>
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * A search's own page: the query, the chosen repositories and the session it continues, all in the URL;
 * `turn`, the recorded search whose results the page shows (without searching again while they are kept).
 */
const searchHref = (form: { query?: string | undefined; repoIds?: string[] | undefined; sessionId?: string | undefined; turnId?: string | undefined }) => {
  const params = new URLSearchParams();
  if (form.query) params.set("query", form.query);
  for (const id of form.repoIds ?? []) params.append("repo", id);
  if (form.sessionId) params.set("sessionId", form.sessionId);
  if (form.turnId) params.set("turn", form.turnId);
  const query = params.toString();
  return `/console/search${query ? `?${query}` : ""}`;
};

function formErrors(form: SearchForm): string[] {
  const errors: string[] = [];
  if (!form.query) errors.push("query: must not be empty");
  if (form.query.length > MAX_QUERY_CHARS) errors.push(`query: must be at most ${MAX_QUERY_CHARS} characters`);
  if (form.repoIds.length === 0) errors.push("repositories: choose at least one repository");
  if (form.repoIds.length > MAX_REPOSITORIES) errors.push(`repositories: at most ${MAX_REPOSITORIES} repositories per request`);
  const sessionProblem = form.sessionId ? sessionIdProblem(form.sessionId) : null;
  if (sessionProblem) errors.push(`sessionId: ${sessionProblem}`);
  return errors;
}

type Results = { references: CodeReference[]; sessionId?: string | undefined };
type PageOptions = { form?: Partial<SearchForm>; errors?: string[]; status?: ContentfulStatusCode; results?: Results; continued?: boolean };

export function searchPages(app: Hono<ConsoleEnv>, services: Services) {
  const { indexer, codeSearch, querySessions } = services;
  const shownResults = createSearchResults();

  async function readForm(c: Context<ConsoleEnv>): Promise<SearchForm & { hostToken?: string | undefined; errors: string[] }> {
    const form = await c.req.parseBody({ all: true });
    const repoIds = ([] as unknown[]).concat(form.repo ?? []).filter((v): v is string => typeof v === "string");
    const read = { query: given(form.query) ?? "", repoIds, sessionId: given(form.sessionId) };
    return { ...read, hostToken: given(form.hostToken), errors: formErrors(read) };
  }

  async function resolve(c: Context<ConsoleEnv>, repoIds: string[], hostToken: string | undefined): Promise<Resolution> {
    const refs = repoIds.map((id) => parseRepositoryId(id)).filter((r) => r !== null);
    if (refs.length !== repoIds.length) throw new ConsoleError(400, "repositories: not of the form remote:branch:owner/repo");
    try {
      return await codeSearch.resolve(c.get("session").principal.orgId, refs, () => hostToken);
    } catch (error) {
      if (error instanceof SearchRefusal) throw new ConsoleError(REFUSAL_STATUS[error.kind], error.message);
      throw error;
    }
  }

  /** The indexed repositories a session's newest turn searched (the ones "Continue this session" ticks). */
  function repoIdsOf(orgId: string, turns: { repositories: { remote: string; repository: string; branch: string }[] }[]): string[] {
    const last = turns[turns.length - 1];
    if (!last) return [];
    return indexer
      .list(orgId)
      .filter((r) => {
        const shown = shownRef(r);
        return last.repositories.some((t) => t.remote === shown.remote && t.repository === shown.repository && t.branch === r.branch);
      })
      .map((r) => r.repoId);
  }

  const page = (c: Context<ConsoleEnv>, options: PageOptions = {}) => {
    const session = c.get("session");
    const orgId = session.principal.orgId;
    const searchable = indexer.list(orgId).filter((r) => r.sha);
    const form = options.form ?? {};
    const chosen = new Set(form.repoIds ?? (searchable.length === 1 ? [searchable[0]!.repoId] : []));
    const recent = querySessions.recent(orgId, 10);
    const sid = form.sessionId;
    return c.html(
      <Layout title={form.query ? `${form.query.slice(0, 60)} · Search & ask` : "Search & ask"} session={session} nav="search">
        <h1>Search and ask</h1>
        <Notice errors={options.errors} />
        <form method="post" action="/console/search" class="stack card" id="search-form">
          <Csrf session={session} />
          {options.continued && sid ? (
            <p class="continuing" id="continuing">
              Continuing session <a class="mono" href={`/console/sessions/${encodeURIComponent(sid)}`}>{sid}</a>.{" "}
              <a href="/console/search">Start a new session</a>
            </p>
          ) : null}
          <label for="query">Query or question</label>
          <textarea id="query" name="query" rows={3} required>{form.query ?? ""}</textarea>
          <fieldset>
            <legend>Repositories</legend>
            {searchable.length === 0 ? <p class="muted">No repository has finished indexing yet.</p> : null}
            {searchable.map((r) => {
              const shown = shownRef(r);
              return (
                <label class="check">
                  <input type="checkbox" name="repo" value={r.repoId} checked={chosen.has(r.repoId)} />
                  <span class="mono">{shown.repository}</span> <span class="muted small">{shown.remote} · {r.branch}</span>
                </label>
              );
            })}
          </fieldset>
          <label>
            Session (empty: a new session; a session id continues it)
            <input name="sessionId" value={sid ?? ""} spellcheck={false} autocomplete="off" />
          </label>
          <details>
            <summary>Host token</summary>
            <label>
              Host token (private repositories; sent with this request only)
              <input name="hostToken" type="password" autocomplete="off" />
            </label>
          </details>
          <div class="buttons">
            <button type="submit" name="mode" value="search" id="search-button">Search</button>
            <button type="submit" formaction="/console/ask" id="ask-button" class="secondary">Ask</button>
          </div>
          <p id="form-status" class="notice" role="status" hidden></p>
        </form>
        <section id="answer" class="card" hidden aria-live="polite">
          <h2>Answer</h2>
          <p class="muted small" id="answer-status" role="status"></p>
          <div id="answer-text" class="answer-text"></div>
          <h3>Sources</h3>
          <ol id="answer-sources" class="sources"></ol>
          <p id="answer-session" class="small"></p>
        </section>
        {options.results ? <ResultList {...options.results} /> : null}
        <section aria-labelledby="sessions-title" class="card">
          <h2 id="sessions-title">Past sessions</h2>
          <form method="get" action="/console/sessions" class="inline-form">
            <label>
              Session id
              <input name="sessionId" required spellcheck={false} />
            </label>
            <button type="submit" class="secondary">Reopen</button>
          </form>
          <ul class="plain" id="past-sessions">
            {recent.map((s) => (
              <li>
                <a class="mono" href={`/console/sessions/${encodeURIComponent(s.sessionId)}`}>{s.sessionId}</a>{" "}
                <span class="muted small">
                  {s.turns} turn{s.turns === 1 ? "" : "s"} · <Time at={s.updatedAt} />
                </span>
              </li>
            ))}
          </ul>
        </section>
      </Layout>,
      options.status ?? 200,
    );
  };

  /** The repositories to search, or the page that says why not (the form kept). */
  async function resolveOrPage(c: Context<ConsoleEnv>, form: SearchForm, hostToken?: string): Promise<Resolution | Response> {
    try {
      return await resolve(c, form.repoIds, hostToken);
    } catch (error) {
      if (error instanceof ConsoleError) return page(c, { form, errors: [error.message], status: error.status });
      throw error;
    }
  }

  // The search form (a query box and the repositories to search), a search's results, or a session
  // continued: everything this page shows is in its URL, so Back, Reload and a bookmark show it again.
  // Reading it records nothing (the POST below records the search turn, then comes here). The results of
  // the turn the URL names are shown as the POST found them while they are kept; otherwise (a restart,
  // a URL without a turn) the search runs again here, unrecorded.
  app.get("/search", async (c) => {
    const orgId = c.get("session").principal.orgId;
    const read = { query: given(c.req.query("query")) ?? "", repoIds: (c.req.queries("repo") ?? []).filter((v) => v.trim()), sessionId: given(c.req.query("sessionId")) };
    const session = read.sessionId && !sessionIdProblem(read.sessionId) ? await querySessions.searchContext(orgId, read.sessionId, read.query) : undefined;
    const errors: string[] = [];
    if (read.sessionId && !session) {
      errors.push(`Query session ${read.sessionId} is not in your organisation; a search or question starts a new session.`);
      read.sessionId = undefined;
    }
    const form: SearchForm = { ...read, repoIds: read.repoIds.length > 0 || !session ? read.repoIds : repoIdsOf(orgId, session.turns) };
    const continued = Boolean(session);
    if (!form.query) return page(c, { form: read.repoIds.length > 0 || session ? form : { sessionId: form.sessionId }, errors, continued });
    const invalid = formErrors(form);
    if (invalid.length) return page(c, { form, errors: [...errors, ...invalid], status: 400, continued });
    // Within a session, the questions before this one are retrieval context, as when it was recorded.
    const context = session?.context ?? [];
    const resolution = await resolveOrPage(c, form);
    if (resolution instanceof Response) return resolution;
    const turnId = given(c.req.query("turn"));
    const kept = turnId && TURN_ID.test(turnId) && form.sessionId ? shownResults.find(turnId, { orgId, sessionId: form.sessionId, query: form.query, repoIds: form.repoIds }) : undefined;
    const references = kept ?? codeSearch.toCodeReferences((await codeSearch.search(orgId, resolution, { query: form.query, context, limit: 10, withChunks: true })).files, resolution.repos).slice(0, 50);
    return page(c, { form, errors: resolution.notes, results: { sessionId: form.sessionId, references }, continued });
  });

  // A search runs once and is recorded as a turn of a query session, then the browser is sent to the
  // search's own page (POST-redirect-GET), which shows the results found here. A host token cannot
  // travel in a URL: a search that needed one is shown at once instead.
  app.post("/search", async (c) => {
    const form = await readForm(c);
    if (form.errors.length) return page(c, { form, errors: form.errors, status: 400 });
    const resolution = await resolveOrPage(c, form, form.hostToken);
    if (resolution instanceof Response) return resolution;
    const ctx = consoleCommandContext(c.var);
    const { sessionId, turnId, files } = await querySessions.search(ctx, resolution, { query: form.query, sessionId: form.sessionId, limit: 10, withCode: true });
    const references = codeSearch.toCodeReferences(files, resolution.repos).slice(0, 50);
    if (!form.hostToken) {
      shownResults.keep(turnId, { orgId: ctx.orgId, sessionId, query: form.query, repoIds: form.repoIds }, references);
      return c.redirect(searchHref({ query: form.query, repoIds: form.repoIds, sessionId, turnId }), 303);
    }
    return page(c, { form: { ...form, sessionId }, errors: resolution.notes, results: { sessionId, references } });
  });

  // The client script asks for NDJSON and shows the answer as it streams; without it, the answer
  // is computed whole and the browser goes to the session's page.
  app.post("/ask", async (c) => {
    const form = await readForm(c);
    const streaming = (c.req.header("accept") ?? "").includes("application/x-ndjson");
    if (form.errors.length) {
      if (streaming) return c.json({ error: { code: "invalid_request", message: form.errors.join("; ") } }, 400);
      return page(c, { form, errors: form.errors, status: 400 });
    }
    let resolution: Resolution;
    try {
      resolution = await resolve(c, form.repoIds, form.hostToken);
    } catch (error) {
      if (!(error instanceof ConsoleError)) throw error;
      if (streaming) return c.json({ error: { code: "refused", message: error.message } }, error.status);
      return page(c, { form, errors: [error.message], status: error.status });
    }
    const ctx = consoleCommandContext(c.var);
    const input = { messages: [{ role: "user" as const, content: form.query }], sessionId: form.sessionId };
    if (!streaming) {
      const { sessionId } = await querySessions.ask(ctx, resolution, input);
      return c.redirect(`/console/sessions/${encodeURIComponent(sessionId)}`, 303);
    }
    const sid = form.sessionId ?? ulid();
    const encoder = new TextEncoder();
    const logger = c.get("logger");
    const signal = c.req.raw.signal;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        let open = true;
        const send = (line: unknown) => {
          if (!open) return;
          try {
            controller.enqueue(encoder.encode(JSON.stringify(line) + "\n"));
          } catch {
            open = false;
          }
        };
        send({ type: "session", message: sid });
        try {
          await querySessions.ask(ctx, resolution, { ...input, newSessionId: sid, signal }, send);
        } catch (error) {
          logger.error({ err: { message: (error as Error).message } }, "console: streamed answer failed");
          send({ type: "status", message: "error: the question failed while answering" });
        }
        send({ type: "status", message: "" });
        if (open) controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" } });
  });

  app.get("/sessions", (c) => {
    const sid = given(c.req.query("sessionId"));
    const problem = sid ? sessionIdProblem(sid) : "must not be empty";
    if (!sid || problem) throw new ConsoleError(400, `sessionId: ${problem}`);
    return c.redirect(`/console/sessions/${encodeURIComponent(sid)}`, 303);
  });

  app.get("/sessions/:sessionId", async (c) => {
    const session = c.get("session");
    const sid = c.req.param("sessionId");
    const found = !sessionIdProblem(sid) ? await querySessions.get(session.principal.orgId, sid) : undefined;
    if (!found) throw new ConsoleError(404, `Query session ${sid} not found in your organisation.`);
    return c.html(
      <Layout title={`Session ${sid}`} session={session} nav="search">
        <h1>
          Session <span class="mono">{sid}</span>
        </h1>
        <p>
          <a href={`/console/search?sessionId=${encodeURIComponent(sid)}`}>Continue this session</a>
        </p>
        <ol class="turns">
          {found.turns.map((t) => (
            <li class="turn card">
              <h2 class="question">
                <span class="badge">{t.kind}</span> {t.question}
              </h2>
              <p class="muted small">
                <Time at={t.askedAt} /> · {t.repositories.map((r) => `${r.repository} (${r.branch})`).join(", ")}
              </p>
              {t.answer && t.kind === "query" ? <Markdown text={t.answer.message} /> : null}
              {t.answer ? (
                <ol class="sources">
                  {t.answer.sources.map((s) => (
                    <li>
                      <a href={codeHref(s)} class="mono">{`${s.filepath} ${span(s)}`}</a> <span class="muted small">{s.repository}</span>
                    </li>
                  ))}
                </ol>
              ) : (
                <p class="muted">No answer recorded.</p>
              )}
            </li>
          ))}
        </ol>
      </Layout>,
    );
  });

  // The newest answer of a session as rendered markdown: the client script swaps the streamed plain
  // text for it once the stream ends.
  app.get("/sessions/:sessionId/answer", async (c) => {
    const sid = c.req.param("sessionId");
    const found = !sessionIdProblem(sid) ? await querySessions.get(c.get("session").principal.orgId, sid) : undefined;
    const turn = found?.turns.filter((t) => t.kind === "query" && t.answer).pop();
    if (!turn?.answer) throw new ConsoleError(404, `No answer in query session ${sid}.`);
    return c.html(<Markdown text={turn.answer.message} />);
  });

  app.get("/code", async (c) => {
    const session = c.get("session");
    const q = c.req.query();
    const remote = given(q.remote);
    const repository = given(q.repository);
    const branch = given(q.branch);
    const path = given(q.path);
    // A line number that is not one is noted and ignored; a span past the file's end is said so.
    const notes: string[] = [];
    const lineParam = (field: "start" | "end") => {
      const n = intIn(q[field], 1, 10_000_000);
      if (n === undefined && given(q[field]) !== undefined) notes.push(`${field}: "${given(q[field])}" is not a line number (1 or more); ignored`);
      return n;
    };
    const asked = lineParam("start");
    const askedEnd = lineParam("end");
    if (!remote || !repository || !branch || !path) throw new ConsoleError(400, "remote, repository, branch and path are required");
    const ref = parseRepositoryId(`${remote}:${branch}:${repository}`);
    if (!ref) throw new ConsoleError(400, "remote must be one of github, gitlab, bitbucket, azure");
    try {
      await codeSearch.resolve(session.principal.orgId, [ref], () => undefined);
    } catch (error) {
      if (error instanceof SearchRefusal) throw new ConsoleError(REFUSAL_STATUS[error.kind], error.message);
      throw error;
    }
    const lines = await codeSearch.indexedLines(session.principal.orgId, { remote: ref.remote, repository: ref.repository, branch, filepath: path });
    if (lines.size === 0) throw new ConsoleError(404, `${path} is not in the index of ${repository} (${branch}).`);
    const last = Math.max(...lines.keys());
    let start = asked ?? 1;
    let end = Math.max(start, askedEnd ?? start);
    let mark: [number, number] | null = asked === undefined ? null : [start, end];
    if (start > last) {
      notes.push(`start: line ${start} is beyond the end of the file (${last} lines); showing its last lines`);
      [start, end, mark] = [Math.max(1, last - 20), last, null];
    } else if (end > last) {
      end = last;
      mark = [start, end];
    }
    const from = Math.max(1, start - 20);
    const to = Math.min(last, end + 20);
    const text: string[] = [];
    for (let n = from; n <= to; n++) text.push(lines.get(n) ?? "");
    return c.html(
      <Layout title={path} session={session} nav="search">
        <h1 class="mono path">{path}</h1>
        <Notice errors={notes} />
        <p class="muted">
          {repository} · {branch} · {mark ? `lines ${mark[0]}-${mark[1]} marked` : `lines ${from}-${to} of ${last}`}
        </p>
        <CodeBlock code={text.join("\n")} path={path} firstLine={from} mark={mark} />
      </Layout>,
    );
  });
}
