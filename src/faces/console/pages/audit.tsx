/** @jsxImportSource hono/jsx */
/**
 * Audit (admin keys only): the event log with filters (stream, type, actor, time) paged by position,
 * one event, an entity's history, any read model now or "as of" a past time or position, and the
 * projections with their lag and a rebuild button. Everything through the audit service, with
 * secrets redacted as the admin API redacts them.
 */
import type { Context, Hono } from "hono";
import type { Child } from "hono/jsx";
import type { Services } from "../../../services.ts";
import { consoleCommandContext, type ConsoleEnv } from "../env.ts";
import { Badge, Json, Layout, Notice, PostButton, Time } from "../layout.tsx";
import { ConsoleError, requireAdmin } from "../errors.ts";
import { given, intIn } from "./forms.ts";
import type { StoredEvent } from "../../../eventstore/port.ts";
import type { EventFilter } from "../../../audit/event-log.ts";
import { parseAsOf } from "../../../audit/as-of.ts";
import { entryBelongsTo, redact, redactEntries } from "../../../audit/redact.ts";
import { shownRepositoryId, storedRepositoryId } from "../../../indexing/repo-id.ts";
import { DomainError } from "../../../eventstore/decider.ts";

/**
 * The id the event log knows an entity by: a repository id as the console and the API show it
 * (`local:main:flask-1a2b3c4d`, any case of owner/repo) becomes its stored form
 * (`github:main:local/flask-1a2b3c4d`); anything else is looked up as given.
 */
function storedEntityId(entity: string): { stored: string; shown?: string } {
  const stored = storedRepositoryId(entity);
  if (stored === null) return { stored: entity };
  return stored === entity ? { stored } : { stored, shown: shownRepositoryId(stored) };
}

const PAGE = 50;
const SUB = [
  { href: "/console/audit/events", label: "Event log" },
  { href: "/console/audit/history", label: "Entity history" },
  { href: "/console/audit/read-models", label: "Read models" },
  { href: "/console/audit/projections", label: "Projections" },
];

function AuditLayout(props: { c: Context<ConsoleEnv>; title: string; current: string; children?: Child }) {
  return (
    <Layout title={props.title} session={props.c.get("session")} nav="audit">
      <nav aria-label="Audit" class="subnav">
        {SUB.map((s) => (
          <a href={s.href} aria-current={s.href === props.current ? "page" : undefined}>
            {s.label}
          </a>
        ))}
      </nav>
      <h1>{props.title}</h1>
      {props.children}
    </Layout>
  );
}

/** A time from a form: ISO 8601, or a datetime-local value read as UTC. */
function timeOf(value: string | undefined, field: string): string | undefined {
  if (!value) return undefined;
  const ms = Date.parse(/T\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value) ? `${value}Z` : value);
  if (Number.isNaN(ms)) throw new ConsoleError(400, `${field}: not a time (use ISO 8601, e.g. 2025-01-31T12:00:00Z)`);
  return new Date(ms).toISOString();
}

function EventRows(props: { events: StoredEvent[] }) {
  return (
    <div class="table-wrap">
      <table id="events">
        <thead>
          <tr>
            <th scope="col">Position</th>
            <th scope="col">Time</th>
            <th scope="col">Type</th>
            <th scope="col">Stream</th>
            <th scope="col">Actor</th>
            <th scope="col">Data</th>
          </tr>
        </thead>
        <tbody>
          {props.events.map((e) => (
            <tr data-event-type={e.type}>
              <th scope="row">
                <a href={`/console/audit/events/${e.position}`}>{e.position}</a>
              </th>
              <td>
                <Time at={e.time} />
              </td>
              <td>{e.type}</td>
              <td class="mono small">
                <a href={`/console/audit/history?entity=${encodeURIComponent(e.streamName)}`}>{e.streamName}</a>
              </td>
              <td class="mono small">{e.metadata.actor}</td>
              <td class="mono small clip">{JSON.stringify(redact(e.data)).slice(0, 160)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function auditPages(app: Hono<ConsoleEnv>, services: Services) {
  const { audit, runner } = services;
  app.use("/audit/*", async (c, next) => {
    requireAdmin(c);
    await next();
  });

  app.get("/audit/events", async (c) => {
    const orgId = c.get("session").principal.orgId;
    const q = c.req.query();
    const filter: EventFilter = {
      orgId,
      ...(given(q.stream) ? { streamName: given(q.stream)! } : {}),
      ...(given(q.type) ? { types: given(q.type)!.split(",").map((t) => t.trim()).filter(Boolean) } : {}),
      ...(given(q.actor) ? { actor: given(q.actor)! } : {}),
      ...(timeOf(given(q.since), "since") ? { since: timeOf(given(q.since), "since")! } : {}),
      ...(timeOf(given(q.until), "until") ? { until: timeOf(given(q.until), "until")! } : {}),
    };
    const after = intIn(q.after, 0, Number.MAX_SAFE_INTEGER);
    const before = intIn(q.before, 1, Number.MAX_SAFE_INTEGER);
    const page = after !== undefined ? await audit.eventsForward(filter, after, PAGE) : await audit.eventsBackward(filter, before, PAGE, 0);
    const events = page.events;
    const keep = (extra: Record<string, string>) => {
      const params = new URLSearchParams();
      for (const k of ["stream", "type", "actor", "since", "until"]) if (given(q[k])) params.set(k, given(q[k])!);
      for (const [k, v] of Object.entries(extra)) params.set(k, v);
      return `/console/audit/events?${params}`;
    };
    const older = events.length > 0 && (after === undefined ? page.hasMore : true);
    const newer = events.length > 0 && (after !== undefined ? page.hasMore : before !== undefined);
    return c.html(
      <AuditLayout c={c} title="Event log" current="/console/audit/events">
        <form method="get" action="/console/audit/events" class="inline-form card" aria-label="Filter events">
          <label>
            Stream
            <input name="stream" value={given(q.stream) ?? ""} spellcheck={false} />
          </label>
          <label>
            Type(s)
            <input name="type" value={given(q.type) ?? ""} placeholder="CustomContextCreated, ..." spellcheck={false} />
          </label>
          <label>
            Actor
            <input name="actor" value={given(q.actor) ?? ""} spellcheck={false} />
          </label>
          <label>
            Since (UTC)
            <input name="since" type="datetime-local" step="1" value={given(q.since) ?? ""} />
          </label>
          <label>
            Until (UTC)
            <input name="until" type="datetime-local" step="1" value={given(q.until) ?? ""} />
          </label>
          <button type="submit" class="secondary">Filter</button>
        </form>
        <p class="muted">{events.length === 0 ? "No event matches." : `Events ${events[0]!.position} to ${events[events.length - 1]!.position}, oldest first.`}</p>
        <EventRows events={events} />
        <p class="pager">
          {older ? <a href={keep({ before: String(events[0]!.position) })}>Older</a> : null} {newer ? <a href={keep({ after: String(events[events.length - 1]!.position) })}>Newer</a> : null}
        </p>
      </AuditLayout>,
    );
  });

  app.get("/audit/events/:position", async (c) => {
    const position = intIn(c.req.param("position"), 1, Number.MAX_SAFE_INTEGER);
    const event = position === undefined ? undefined : await audit.event(c.get("session").principal.orgId, position);
    if (!event) throw new ConsoleError(404, "No such event in your organisation.");
    return c.html(
      <AuditLayout c={c} title={`Event ${event.position}: ${event.type}`} current="/console/audit/events">
        <dl class="facts">
          <dt>Type</dt>
          <dd>
            {event.type} (schema v{event.schemaVersion ?? 1})
          </dd>
          <dt>Time</dt>
          <dd>
            <Time at={event.time} />
          </dd>
          <dt>Stream</dt>
          <dd class="mono">
            <a href={`/console/audit/history?entity=${encodeURIComponent(event.streamName)}`}>{event.streamName}</a> v{event.streamVersion}
          </dd>
          <dt>Actor</dt>
          <dd class="mono">{event.metadata.actor}</dd>
          <dt>Correlation</dt>
          <dd class="mono">
            <a href={`/console/audit/events?${new URLSearchParams({ stream: event.streamName })}`}>{event.metadata.correlationId}</a>
          </dd>
        </dl>
        <h2>Data</h2>
        <Json value={redact(event.data)} />
      </AuditLayout>,
    );
  });

  app.get("/audit/history", async (c) => {
    const entity = given(c.req.query("entity"));
    if (entity && entity.length > 500) throw new ConsoleError(400, "entity: at most 500 characters");
    const lookup = entity ? storedEntityId(entity) : null;
    const history = lookup ? await audit.history(c.get("session").principal.orgId, lookup.stored, 1000) : null;
    return c.html(
      <AuditLayout c={c} title="Entity history" current="/console/audit/history">
        <form method="get" action="/console/audit/history" class="inline-form card">
          <label>
            Entity id or stream
            <input name="entity" value={entity ?? ""} required spellcheck={false} />
          </label>
          <button type="submit" class="secondary">Show</button>
        </form>
        {history ? (
          <>
            <p class="muted">
              {lookup?.shown ? `Repository ${lookup.shown}${lookup.shown === lookup.stored ? "" : ` (in the event log ${lookup.stored})`}: ` : ""}
              {history.events.length} event{history.events.length === 1 ? "" : "s"} in {history.streams.join(", ") || "no stream"}
              {history.truncated ? " (more exist)" : ""}
            </p>
            <EventRows events={history.events} />
          </>
        ) : null}
      </AuditLayout>,
    );
  });

  app.get("/audit/read-models", async (c) => {
    const orgId = c.get("session").principal.orgId;
    const q = c.req.query();
    const names = runner.projections().map((p) => p.name);
    const asked = given(q.projection);
    const name = names.find((n) => n === asked);
    const unknown = asked !== undefined && name === undefined ? `projection: unknown projection "${asked}"; known: ${names.join(", ")}` : undefined;
    const asOfText = given(q.asOf);
    const offset = intIn(q.offset, 0, 1_000_000) ?? 0;
    let asOf;
    try {
      asOf = asOfText ? parseAsOf(/T\d\d:\d\d(:\d\d)?$/.test(asOfText) ? `${asOfText}Z` : asOfText) : undefined;
    } catch (error) {
      throw new ConsoleError(400, `asOf: ${(error as Error).message}`);
    }
    const snapshot = name ? (asOf ? await audit.readModelAsOf(orgId, name, asOf) : audit.readModel(orgId, name)) : null;
    const entries = snapshot ? redactEntries(snapshot.view.range<unknown>([]).filter((e) => entryBelongsTo(e, orgId))) : [];
    return c.html(
      <AuditLayout c={c} title="Read models" current="/console/audit/read-models">
        <Notice errors={unknown ? [unknown] : undefined} />
        <form method="get" action="/console/audit/read-models" class="inline-form card">
          <label>
            Read model
            <select name="projection">
              {names.map((n) => (
                <option value={n} selected={n === name}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <label>
            As of (UTC time or log position; empty: now)
            <input name="asOf" value={asOfText ?? ""} placeholder="2025-01-31T12:00:00Z" spellcheck={false} />
          </label>
          <button type="submit" class="secondary">Show</button>
        </form>
        {snapshot ? (
          <>
            <p class="muted" id="snapshot-info">
              {snapshot.live ? "As served now" : `As of position ${snapshot.position}`}
              {snapshot.time ? ` (${snapshot.time})` : ""} · {entries.length} entr{entries.length === 1 ? "y" : "ies"} of your organisation
              {snapshot.eventsApplied !== null ? ` · ${snapshot.eventsApplied} events replayed` : ""}
            </p>
            <ol class="entries" start={offset + 1}>
              {entries.slice(offset, offset + 100).map((e) => (
                <li>
                  <div class="mono small">{JSON.stringify(e.key)}</div>
                  <Json value={e.value} />
                </li>
              ))}
            </ol>
            {offset + 100 < entries.length ? <a href={`/console/audit/read-models?${new URLSearchParams({ ...q, offset: String(offset + 100) })}`}>Next entries</a> : null}
          </>
        ) : null}
      </AuditLayout>,
      unknown ? 400 : 200,
    );
  });

  const projectionsPage = async (c: Context<ConsoleEnv>, notice?: string, status: 200 | 409 = 200) => {
    const statuses = await runner.status();
    // Projections hold every organisation's records: rebuilding one is the bootstrap organisation's.
    const mayRebuild = services.operations.mayOperate(c.get("session").principal.orgId);
    return c.html(
      <AuditLayout c={c} title="Projections" current="/console/audit/projections">
        <Notice notice={notice} />
        <div class="table-wrap">
          <table id="projections">
            <thead>
              <tr>
                <th scope="col">Projection</th>
                <th scope="col">State</th>
                <th scope="col">Checkpoint</th>
                <th scope="col">Head</th>
                <th scope="col">Lag</th>
                <th scope="col">Generation</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {statuses.map((p) => (
                <tr data-projection={p.name}>
                  <th scope="row">
                    {p.name} <span class="muted small">v{p.version}</span>
                  </th>
                  <td>
                    <Badge value={p.state} />
                    {p.error ? <div class="failure small">{p.error}</div> : null}
                  </td>
                  <td>{p.checkpoint}</td>
                  <td>{p.head}</td>
                  <td>{p.lag}</td>
                  <td>{p.generation}</td>
                  <td>
                    {mayRebuild ? (
                      <PostButton action="/console/audit/projections/rebuild" session={c.get("session")} fields={{ name: p.name }} label="Rebuild" class="small secondary" />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {mayRebuild ? null : <p class="muted small" id="rebuild-operator-only">Rebuilding a projection is for the instance's bootstrap organisation (the operator's).</p>}
      </AuditLayout>,
      status,
    );
  };

  app.get("/audit/projections", (c) => {
    const rebuilt = given(c.req.query("rebuilt"));
    return projectionsPage(c, rebuilt ? `Rebuilt ${rebuilt}.` : undefined);
  });

  app.post("/audit/projections/rebuild", async (c) => {
    const name = given((await c.req.parseBody()).name);
    if (!name || !runner.projections().some((p) => p.name === name)) throw new ConsoleError(404, `No projection named ${name ?? ""}`);
    try {
      await services.operations.rebuildProjection(name, consoleCommandContext(c.var));
    } catch (error) {
      if (error instanceof DomainError && error.code === "conflict") return projectionsPage(c, error.message, 409);
      throw error;
    }
    c.get("logger").info({ projection: name }, "projection rebuilt (console)");
    return c.redirect(`/console/audit/projections?rebuilt=${encodeURIComponent(name)}`, 303);
  });

  app.get("/audit", (c) => c.redirect("/console/audit/events", 303));
}
