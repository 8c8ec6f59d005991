/**
 * The GraphiQL console from Loupe's own assets: no CDN, so it works on a server with no internet
 * access. The page is small; its script, style and editor workers are the built files of
 * `@graphql-yoga/render-graphiql` (the same GraphiQL graphql-yoga ships, bundled as strings), served
 * by Loupe under `/graphql/assets/<version>/` with long-lived caching. The module holding them (~9 MB
 * of JavaScript) is loaded on the first request for the console, not at start-up.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/env.ts";
import { describeRoute } from "../http/route-docs.ts";

/** Version of the bundled GraphiQL build: part of the asset URLs, so a new build is never served stale. */
const VERSION = "5.24.1";
export const GRAPHIQL_ASSETS = `/graphql/assets/${VERSION}`;

type Bundle = { js: string; css: string; editorWorkerService: string; jsonWorker: string; graphqlWorker: string; favicon: string };
let bundle: Promise<Bundle> | undefined;
const loadBundle = () => (bundle ??= import("@graphql-yoga/render-graphiql/graphiql") as Promise<Bundle>);

const ASSETS: Record<string, { type: string; pick: (b: Bundle) => string }> = {
  "graphiql.js": { type: "text/javascript; charset=utf-8", pick: (b) => b.js },
  "graphiql.css": { type: "text/css; charset=utf-8", pick: (b) => b.css },
  "editor.worker.js": { type: "text/javascript; charset=utf-8", pick: (b) => b.editorWorkerService },
  "json.worker.js": { type: "text/javascript; charset=utf-8", pick: (b) => b.jsonWorker },
  "graphql.worker.js": { type: "text/javascript; charset=utf-8", pick: (b) => b.graphqlWorker },
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a <script>: no `</script>` or `<!--` can end it early. */
const scriptJson = (value: unknown) => JSON.stringify(value ?? {}).replace(/</g, "\\u003c");

/** The console page (yoga's `renderGraphiQL` hook): every URL on it is Loupe's own. */
export async function renderGraphiQLPage(options: { title?: string } & Record<string, unknown>): Promise<string> {
  const { favicon } = await loadBundle();
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(options.title ?? "GraphiQL")}</title>
    <link rel="icon" href="${favicon}" />
    <link rel="stylesheet" href="${GRAPHIQL_ASSETS}/graphiql.css" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run this console.</noscript>
    <div id="root"></div>
    <script>
      const workers = {
        editorWorkerService: "${GRAPHIQL_ASSETS}/editor.worker.js",
        json: "${GRAPHIQL_ASSETS}/json.worker.js",
        graphql: "${GRAPHIQL_ASSETS}/graphql.worker.js",
      };
      self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => workers[label] };
    </script>
    <script src="${GRAPHIQL_ASSETS}/graphiql.js"></script>
    <script>
      YogaGraphiQL.renderYogaGraphiQL(document.querySelector("#root"), ${scriptJson(options)});
    </script>
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
    const asset = ASSETS[c.req.param("file")];
    if (!asset) return c.json({ error: { code: "not_found", message: "No such console asset", details: null } }, 404);
    const body = asset.pick(await loadBundle());
    return c.body(body, 200, { "content-type": asset.type, "cache-control": "public, max-age=31536000, immutable" });
  });
}
