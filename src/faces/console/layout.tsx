/** @jsxImportSource hono/jsx */
/**
 * The page shell: header with the navigation the caller may use (admin links only for admin keys),
 * the CSRF token for the client script, one stylesheet, one script and the icon, all served by Loupe
 * (/console/assets/...): the Content-Security-Policy allows nothing inline, and the browser has no
 * reason to ask for /favicon.ico.
 */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import type { ConsoleSession } from "./session.ts";
import { ASSET_PATHS } from "./assets.ts";

export type NavKey = "repositories" | "search" | "pull-requests" | "custom-context" | "audit" | "keys";

const NAV: { key: NavKey; href: string; label: string; admin?: boolean }[] = [
  { key: "repositories", href: "/console/repositories", label: "Repositories" },
  { key: "search", href: "/console/search", label: "Search & ask" },
  { key: "pull-requests", href: "/console/pull-requests", label: "Pull requests" },
  { key: "custom-context", href: "/console/custom-context", label: "Custom context" },
  { key: "audit", href: "/console/audit/events", label: "Audit", admin: true },
  { key: "keys", href: "/console/keys", label: "API keys", admin: true },
];

export function Layout(props: { title: string; session?: ConsoleSession | undefined; nav?: NavKey; children?: Child }) {
  const session = props.session;
  const admin = session?.principal.role === "admin";
  return (
    <>
      {raw("<!doctype html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="referrer" content="same-origin" />
          {session ? <meta name="csrf-token" content={session.csrf} /> : null}
          <title>{`${props.title} · Loupe`}</title>
          <link rel="icon" type="image/svg+xml" href={ASSET_PATHS.icon} />
          <link rel="stylesheet" href={ASSET_PATHS.css} />
          <script src={ASSET_PATHS.js} defer></script>
        </head>
        <body>
          <a class="skip" href="#main">Skip to content</a>
          <header class="top">
            <a class="brand" href="/console">Loupe</a>
            {session ? (
              <nav aria-label="Main">
                <ul>
                  {NAV.filter((n) => !n.admin || admin).map((n) => (
                    <li>
                      <a href={n.href} aria-current={props.nav === n.key ? "page" : undefined}>{n.label}</a>
                    </li>
                  ))}
                </ul>
              </nav>
            ) : null}
            {session ? (
              <form class="who" method="post" action="/console/sign-out">
                <span title={`key ${session.principal.keyId}`}>
                  {session.principal.role} · org {session.principal.orgId.slice(-6)}
                </span>
                <input type="hidden" name="_csrf" value={session.csrf} />
                <button type="submit" class="link">Sign out</button>
              </form>
            ) : null}
          </header>
          <main id="main" tabindex={-1}>
            {props.children}
          </main>
        </body>
      </html>
    </>
  );
}

/** A hidden CSRF field for a form of the signed-in session. */
export const Csrf = (props: { session: ConsoleSession }) => <input type="hidden" name="_csrf" value={props.session.csrf} />;

/** Messages above a form: errors (role=alert) or a notice. */
export function Notice(props: { errors?: string[] | undefined; notice?: string | undefined | null }) {
  return (
    <>
      {props.errors && props.errors.length > 0 ? (
        <div class="errors" role="alert">
          <ul>
            {props.errors.map((e) => (
              <li>{e}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {props.notice ? (
        <p class="notice" role="status">
          {props.notice}
        </p>
      ) : null}
    </>
  );
}

export function Progress(props: { value: number; max: number; label: string; field?: string }) {
  const max = Math.max(props.max, 0);
  return (
    <span class="progress-wrap">
      <progress data-field={props.field ?? "progress"} value={Math.min(props.value, max)} max={max || 1} aria-label={props.label}></progress>
      <span data-field={`${props.field ?? "progress"}-text`}>{`${props.value} / ${props.max}`}</span>
    </span>
  );
}

export const Time = (props: { at: string | null | undefined }) =>
  props.at ? <time datetime={props.at}>{props.at.replace("T", " ").replace(/\.\d+Z$/, "Z")}</time> : <span class="muted">-</span>;

export const Badge = (props: { value: string; field?: string }) => (
  <span class={`badge badge-${props.value.toLowerCase().replace(/[^a-z_-]/g, "")}`} data-field={props.field}>
    {props.value}
  </span>
);

/** Pretty JSON, escaped. */
export const Json = (props: { value: unknown }) => <pre class="json">{JSON.stringify(props.value, null, 2)}</pre>;

/** A one-button form that posts `fields` (with the session's CSRF token) to `action`. */
export function PostButton(props: { action: string; session: ConsoleSession; fields: Record<string, string>; label: string; class?: string }) {
  return (
    <form method="post" action={props.action}>
      <Csrf session={props.session} />
      {Object.entries(props.fields).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={props.class ?? "small"}>
        {props.label}
      </button>
    </form>
  );
}

/** A labelled select; `any` adds an empty first choice shown as "any". */
export function Choice(props: { label: string; name: string; options: readonly string[]; value: string | undefined; any?: boolean }) {
  const options = props.any ? ["", ...props.options] : props.options;
  return (
    <label>
      {props.label}
      <select name={props.name}>
        {options.map((o) => (
          <option value={o} selected={(props.value ?? "") === o}>
            {o || "any"}
          </option>
        ))}
      </select>
    </label>
  );
}
