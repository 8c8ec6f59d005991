/** @jsxImportSource hono/jsx */
/**
 * API keys (admin keys only): list, issue, revoke; each POST redirects to a GET page (a reload repeats
 * nothing). A new key's secret is held in memory for the session that issued it, for a few minutes,
 * and shown once on the page the issue redirects to (never in a URL, a log line, an event or a read
 * model, and the page is not cached); a reload after that says it was shown once.
 */
import type { Context, Hono } from "hono";
import type { Services } from "../../../services.ts";
import { consoleCommandContext, type ConsoleEnv } from "../env.ts";
import { Badge, Csrf, Layout, Notice, PostButton, Time } from "../layout.tsx";
import { ConsoleError, requireAdmin } from "../errors.ts";
import { given } from "./forms.ts";
import type { ConsoleSession } from "../session.ts";

/** How long an issued key's secret waits, in memory, for its one showing. */
const ISSUED_KEY_SHOWN_WITHIN_MS = 5 * 60 * 1000;

type Issued = { name: string; secret: string; until: number };

/**
 * Secrets of keys just issued, by the session that issued them (a WeakMap: they go with the session),
 * then by key id. `take` hands a secret out once.
 */
function createIssuedKeys() {
  const bySession = new WeakMap<ConsoleSession, Map<string, Issued>>();
  return {
    hold(session: ConsoleSession, keyId: string, name: string, secret: string) {
      const held = bySession.get(session) ?? new Map<string, Issued>();
      for (const [id, x] of held) if (x.until < Date.now()) held.delete(id);
      held.set(keyId, { name, secret, until: Date.now() + ISSUED_KEY_SHOWN_WITHIN_MS });
      bySession.set(session, held);
    },
    take(session: ConsoleSession, keyId: string): Issued | undefined {
      const held = bySession.get(session);
      const x = held?.get(keyId);
      held?.delete(keyId);
      return x && x.until >= Date.now() ? x : undefined;
    },
  };
}

export function keyPages(app: Hono<ConsoleEnv>, services: Services) {
  const { keys } = services;
  const issuedKeys = createIssuedKeys();
  app.use("/keys/*", async (c, next) => {
    requireAdmin(c);
    await next();
  });
  app.use("/keys", async (c, next) => {
    requireAdmin(c);
    await next();
  });

  const page = (c: Context<ConsoleEnv>, options: { issued?: { name: string; secret: string }; errors?: string[]; notice?: string | undefined; status?: 200 | 400 } = {}) => {
    const session = c.get("session");
    const list = keys.list(session.principal.orgId).sort((a, b) => (a.createdAt > b.createdAt ? -1 : 1));
    return c.html(
      <Layout title="API keys" session={session} nav="keys">
        <h1>API keys</h1>
        <Notice errors={options.errors} notice={options.notice} />
        {options.issued ? (
          <section class="card issued" aria-labelledby="issued-title">
            <h2 id="issued-title">New key "{options.issued.name}"</h2>
            <p>Copy it now: it is shown once. Loupe keeps only its hash.</p>
            <output class="mono secret" id="issued-secret">
              {options.issued.secret}
            </output>
          </section>
        ) : null}
        <form method="post" action="/console/keys" class="inline-form card" id="issue-key">
          <Csrf session={session} />
          <label>
            Name
            <input name="name" required maxlength={200} />
          </label>
          <label>
            Role
            <select name="role">
              <option value="member" selected>
                member
              </option>
              <option value="admin">admin</option>
            </select>
          </label>
          <button type="submit">Issue a key</button>
        </form>
        <div class="table-wrap">
          <table id="keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Key id</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((k) => (
                <tr data-key-id={k.keyId}>
                  <th scope="row">{k.name}</th>
                  <td>{k.role}</td>
                  <td class="mono small">{k.keyId}</td>
                  <td>
                    <Time at={k.createdAt} />
                  </td>
                  <td>{k.revokedAt ? <Badge value="revoked" /> : <Badge value="active" />}</td>
                  <td>
                    {k.revokedAt || k.keyId === session.principal.keyId ? null : (
                      <PostButton action="/console/keys/revoke" session={session} fields={{ keyId: k.keyId }} label="Revoke" class="small danger" />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Layout>,
      options.status ?? 200,
    );
  };

  app.get("/keys", (c) => {
    const session = c.get("session");
    const orgId = session.principal.orgId;
    const issuedId = given(c.req.query("issued"));
    if (issuedId) {
      const issued = issuedKeys.take(session, issuedId);
      if (issued) return page(c, { issued: { name: issued.name, secret: issued.secret } });
      const info = keys.get(orgId, issuedId);
      return page(c, {
        notice: info
          ? `The secret of key "${info.name}" (${info.keyId}) was shown once and is not kept. If it was not copied, revoke the key and issue another.`
          : undefined,
      });
    }
    const revokedId = given(c.req.query("revoked"));
    const revoked = revokedId ? keys.get(orgId, revokedId) : undefined;
    return page(c, { notice: revoked?.revokedAt ? `Revoked ${revoked.name} (${revoked.keyId}).` : undefined });
  });

  app.post("/keys", async (c) => {
    const form = await c.req.parseBody();
    const name = given(form.name);
    const role = given(form.role) ?? "member";
    const errors: string[] = [];
    if (!name) errors.push("name: must not be empty");
    if (name && name.length > 200) errors.push("name: at most 200 characters");
    if (role !== "admin" && role !== "member") errors.push("role: must be admin or member");
    if (errors.length > 0) return page(c, { errors, status: 400 });
    const { key, info } = await keys.issue({ orgId: c.get("session").principal.orgId, name: name!, role: role as "admin" | "member" }, consoleCommandContext(c.var));
    issuedKeys.hold(c.get("session"), info.keyId, info.name, key);
    return c.redirect(`/console/keys?issued=${encodeURIComponent(info.keyId)}`, 303);
  });

  app.post("/keys/revoke", async (c) => {
    const keyId = given((await c.req.parseBody()).keyId);
    const orgId = c.get("session").principal.orgId;
    if (!keyId || !keys.get(orgId, keyId)) throw new ConsoleError(404, "No such key in your organisation.");
    const info = await keys.revoke(orgId, keyId, "revoked in the console", consoleCommandContext(c.var));
    return c.redirect(`/console/keys?revoked=${encodeURIComponent(info.keyId)}`, 303);
  });
}
