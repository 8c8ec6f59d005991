/**
 * The GraphiQL console from Loupe's own assets: no CDN, so it works on a server with no internet
 * access. The page is small and runs no inline script (its options are a JSON data block that
 * `start.js` reads), so it is served with a strict Content-Security-Policy and no framing
 * (GRAPHIQL_PAGE_HEADERS). Its script, style and editor workers are the built files of
 * `@graphql-yoga/render-graphiql` (the same GraphiQL graphql-yoga ships, bundled as strings), served
 * by Loupe under `/graphql/assets/<version>/` with long-lived caching. The module holding them (~9 MB
 * of JavaScript) is loaded on the first request for the console, not at start-up.
 */
import { Buffer } from "node:buffer";
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.ts";
import { describeRoute } from "../http/route-docs.ts";

/** Version of the bundled GraphiQL build: part of the asset URLs, so a new build is never served stale. */
const VERSION = "5.24.1";
export const GRAPHIQL_ASSETS = `/graphql/assets/${VERSION}`;

type Bundle = { js: string; css: string; editorWorkerService: string; jsonWorker: string; graphqlWorker: string; favicon: string };
let bundle: Promise<Bundle> | undefined;
const loadBundle = () => (bundle ??= import("@graphql-yoga/render-graphiql/graphiql") as Promise<Bundle>);

/** Before graphiql.js: where the editor's workers are (Loupe's own URLs). */
const SETUP_JS = `"use strict";
(() => {
  const workers = {
    editorWorkerService: "${GRAPHIQL_ASSETS}/editor.worker.js",
    json: "${GRAPHIQL_ASSETS}/json.worker.js",
    graphql: "${GRAPHIQL_ASSETS}/graphql.worker.js",
  };
  self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => workers[label] };
})();
`;

/** After graphiql.js: renders the console with the options the page carries as data (a JSON block, never run). */
const START_JS = `"use strict";
YogaGraphiQL.renderYogaGraphiQL(document.querySelector("#root"), JSON.parse(document.getElementById("graphiql-options").textContent || "{}"));
`;

/** The favicon, from the bundle's data: URL, as bytes. */
const faviconOf = (b: Bundle) => {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(b.favicon);
  return match ? { type: match[1]!, body: Buffer.from(match[2]!, "base64") } : { type: "image/x-icon", body: Buffer.alloc(0) };
};

const ASSETS: Record<string, { type: string; pick: (b: Bundle) => string | Uint8Array }> = {
  "graphiql.js": { type: "text/javascript; charset=utf-8", pick: (b) => b.js },
  "graphiql.css": { type: "text/css; charset=utf-8", pick: (b) => b.css },
  "editor.worker.js": { type: "text/javascript; charset=utf-8", pick: (b) => b.editorWorkerService },
  "json.worker.js": { type: "text/javascript; charset=utf-8", pick: (b) => b.jsonWorker },
  "graphql.worker.js": { type: "text/javascript; charset=utf-8", pick: (b) => b.graphqlWorker },
  "setup.js": { type: "text/javascript; charset=utf-8", pick: () => SETUP_JS },
  "start.js": { type: "text/javascript; charset=utf-8", pick: () => START_JS },
  "favicon.ico": { type: "image/x-icon", pick: (b) => faviconOf(b).body },
};

/**
 * The console page's Content-Security-Policy: scripts, workers and requests only from Loupe itself, no
 * inline script, no framing. Styles allow inline: the editor (Monaco) writes its styles at run time;
 * images and fonts allow data: URLs, which the bundled stylesheet embeds.
 */
export const GRAPHIQL_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers of the console page: the policy above, no framing, no sniffing, no referrer elsewhere, not cached. */
export const GRAPHIQL_PAGE_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": GRAPHIQL_CONTENT_SECURITY_POLICY,
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
  "cache-control": "no-store",
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a <script> element: no `</script>` or `<!--` can end it early. */
const scriptJson = (value: unknown) => JSON.stringify(value ?? {}).replace(/</g, "\\u003c");

/** The console page (yoga's `renderGraphiQL` hook): every URL on it is Loupe's own, and it runs no inline script. */
export async function renderGraphiQLPage(options: { title?: string } & Record<string, unknown>): Promise<string> {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(options.title ?? "GraphiQL")}</title>
    <link rel="icon" href="${GRAPHIQL_ASSETS}/favicon.ico" />
    <link rel="stylesheet" href="${GRAPHIQL_ASSETS}/graphiql.css" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run this console.</noscript>
    <div id="root"></div>
    <script type="application/json" id="graphiql-options">${scriptJson(options)}</script>
    <script src="${GRAPHIQL_ASSETS}/setup.js"></script>
    <script src="${GRAPHIQL_ASSETS}/graphiql.js"></script>
    <script src="${GRAPHIQL_ASSETS}/start.js"></script>
  </body>
</html>
`;
}

/** GET /graphql/assets/<version>/<file>: the console's script, style and workers (no key needed: they hold no data). */
export function graphiqlAssetRoutes(app: Hono<AppEnv>) {
  describeRoute(app, {
    method: "get",
    path: `${GRAPHIQL_ASSETS}/:file`,
    summary: "The GraphiQL console's own script, style and editor workers (no CDN; cached for a year, the version is in the path)",
    tags: ["admin"],
    auth: "none",
    params: { file: Object.keys(ASSETS).join(", ") },
    responses: { 200: { description: "The asset", rawSchema: { type: "string" } }, 404: { description: "No such asset" } },
  });
  app.get(`${GRAPHIQL_ASSETS}/:file`, async (c) => {
    const name = c.req.param("file");
    const asset = ASSETS[name];
    if (!asset) return c.json({ error: { code: "not_found", message: "No such console asset", details: null } }, 404);
    const bundle = await loadBundle();
    const body = asset.pick(bundle);
    const type = name === "favicon.ico" ? faviconOf(bundle).type : asset.type;
    return c.body(typeof body === "string" ? body : new Uint8Array(body), 200, {
      "content-type": type,
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    });
  });
}
