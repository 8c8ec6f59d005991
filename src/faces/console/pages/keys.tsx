/** @jsxImportSource hono/jsx */
/**
 * API keys (admin keys only): list, issue (the secret is shown once, on the response to the POST,
 * never in a URL, and the page is not cached), revoke.
 */
import type { Context, Hono } from "hono";
import type { Services } from "../../../services.ts";
import { consoleCommandContext, type ConsoleEnv } from "../env.ts";
import { Badge, Csrf, Layout, Notice, PostButton, Time } from "../layout.tsx";
import { ConsoleError, requireAdmin } from "../errors.ts";
import { given } from "./forms.ts";

export function keyPages(app: Hono<ConsoleEnv>, services: Services) {
  const { keys } = services;
  app.use("/keys/*", async (c, next) => {
    requireAdmin(c);
    await next();
  });
  app.use("/keys", async (c, next) => {
    requireAdmin(c);
    await next();
  });

  const page = (c: Context<ConsoleEnv>, options: { issued?: { name: string; secret: string }; errors?: string[]; notice?: string; status?: 200 | 201 | 400 } = {}) => {
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

  app.get("/keys", (c) => page(c));

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
    return page(c, { issued: { name: info.name, secret: key }, status: 201 });
  });

  app.post("/keys/revoke", async (c) => {
    const keyId = given((await c.req.parseBody()).keyId);
    const orgId = c.get("session").principal.orgId;
    if (!keyId || !keys.get(orgId, keyId)) throw new ConsoleError(404, "No such key in your organisation.");
    const info = await keys.revoke(orgId, keyId, "revoked in the console", consoleCommandContext(c.var));
    return page(c, { notice: `Revoked ${info.name} (${info.keyId}).` });
  });
}
