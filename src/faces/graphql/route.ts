import type { Hono } from "hono";
import { GraphQLError } from "./graphql.ts";
import { createYoga, type Plugin } from "graphql-yoga";
import type { AppEnv } from "../http/env.ts";
import type { Services } from "../../services.ts";
import type { Principal } from "../../features/access/service.ts";
import { HttpError } from "../http/errors.ts";
import { schema } from "./schema.ts";
import { adminError, badUserInput, CLIENT_ERROR_CODES, isRequestError, toAdminError, variablePathOf } from "./errors.ts";
import { documentDepthGuard, typedValidationErrors } from "./request-errors.ts";
import type { AdminContext } from "./builder.ts";
import { GRAPHIQL_PAGE_HEADERS, graphiqlAssetRoutes, renderGraphiQLPage } from "./graphiql.ts";
import { operationLimitsPlugin } from "./limits.ts";
import { hostTokenFor } from "../../features/code-search/permissions.ts";
import type { Remote } from "../../hosts/types.ts";

export const GRAPHQL_PATH = "/graphql";

/** What the route hands yoga per request (merged into the resolvers' context). */
type ServerContext = { principal: Principal; requestId: string; logger: AdminContext["logger"]; hostToken: AdminContext["hostToken"] };

const DEFAULT_QUERY = `# Loupe admin console. Put your admin API key in the Headers tab:
#   { "Authorization": "Bearer lp_..." }
query Overview {
  viewer { keyId role organisation { orgId name } }
  projections { name version generation checkpoint lag state error }
  events(last: 10) { edges { cursor node { position time type streamName actor data } } pageInfo { hasPreviousPage startCursor } }
}
`;

/** Only admin keys may run operations: a member key gets a FORBIDDEN GraphQL error, never data. */
const adminOnly: Plugin<AdminContext> = {
  onExecute({ args, setResultAndStopExecution }) {
    if (args.contextValue.principal?.role !== "admin") {
      setResultAndStopExecution({ errors: [adminError("FORBIDDEN", "The admin API needs an admin API key")] });
    }
  },
};

/**
 * `/graphql`: the admin API (graphql-yoga over the Pothos schema) and, on a browser GET
 * (`Accept: text/html`), the GraphiQL console, which loads without a key and then sends the key the
 * user types in its Headers tab. Every other request needs `Authorization: Bearer <key>` (401 JSON
 * like /v2 otherwise); non-admin keys get a GraphQL error.
 */
export function adminRoutes(app: Hono<AppEnv>, services: Services) {
  const yoga = createYoga<ServerContext, AdminContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    graphiql: services.config.graphiql
      ? {
          title: "Loupe admin console",
          headers: JSON.stringify({ Authorization: "Bearer " }, null, 2),
          defaultQuery: DEFAULT_QUERY,
          shouldPersistHeaders: false,
        }
      : false,
    // The console from Loupe's own assets (./graphiql.ts), never a CDN.
    renderGraphiQL: renderGraphiQLPage,
    landingPage: false,
    // No CORS headers (like /v2): a page of another origin cannot read the admin API's answers, and
    // credentials are never allowed for it. Clients outside a browser are not concerned.
    cors: false,
    logging: false,
    context: ({ principal, requestId, logger, hostToken }) => ({ services, principal, requestId, logger, hostToken }),
    // adminOnly first, then the operation limits (./limits.ts: a parse with a token limit, and the
    // validation rules) and the document's depth: parsing and validation, before anything runs. The depth
    // guard comes after the limits so that its refusal replaces their parse (the last parse function set
    // is the one yoga runs): a document too deep for the recursive parser must not reach it.
    plugins: [adminOnly, operationLimitsPlugin, documentDepthGuard(), typedValidationErrors(services.logger)],
    maskedErrors: {
      // Bad input (BAD_USER_INPUT naming the argument, and the request, parse and validation errors of
      // errors.ts) logs a warning without a stack; only an unexpected error is logged as an error (with
      // its stack, for the operator). Validation errors are typed and logged by typedValidationErrors.
      maskError(error, message) {
        const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
        const typed =
          (isRequestError(error) ? badUserInput(variablePathOf(error.message), error.message) : null) ??
          toAdminError(original) ??
          (error instanceof GraphQLError && !error.originalError ? toAdminError(error) : null);
        if (typed) {
          const code = String(typed.extensions.code);
          if (CLIENT_ERROR_CODES.has(code)) services.logger.warn({ code, message: typed.message }, "admin API: bad input");
          if (error instanceof GraphQLError) {
            return new GraphQLError(typed.message, { nodes: error.nodes, path: error.path, extensions: typed.extensions });
          }
          return typed;
        }
        services.logger.error(
          { err: { message: (original as Error)?.message, stack: (original as Error)?.stack } },
          "admin API: unexpected error",
        );
        return adminError("INTERNAL", message);
      },
    },
  });

  if (services.config.graphiql) graphiqlAssetRoutes(app);

  const isConsoleRequest = (request: Request) =>
    services.config.graphiql && request.method === "GET" && (request.headers.get("accept") ?? "").includes("text/html");

  app.on(["GET", "POST"], GRAPHQL_PATH, async (c) => {
    const request = c.req.raw;
    if (isConsoleRequest(request)) {
      // Yoga renders the console for this request and executes nothing; the page holds no data, but
      // admins type their key into it: a strict CSP and no framing (./graphiql.ts).
      const page = await yoga.fetch(request, { principal: null as never, requestId: c.get("requestId"), logger: c.get("logger"), hostToken: () => undefined });
      return withHeaders(page, GRAPHIQL_PAGE_HEADERS);
    }
    const header = c.req.header("authorization");
    if (!header) throw new HttpError(401, "unauthorized", "Missing Authorization header (expected: Bearer <API key>)");
    const principal = services.keys.authenticate(header);
    if (!principal) throw new HttpError(401, "unauthorized", "Invalid or revoked API key");
    const logger = c.get("logger").child({ keyId: principal.keyId, orgId: principal.orgId });
    c.set("principal", principal);
    c.set("logger", logger);
    const hostToken = (remote: Remote) => hostTokenFor((name) => c.req.header(name), remote);
    return withHeaders(await yoga.fetch(request, { principal, requestId: c.get("requestId"), logger, hostToken }), { "x-content-type-options": "nosniff" });
  });
}

/** Yoga's response with `extra` headers set (a Response's own headers may be immutable). */
function withHeaders(response: Response, extra: Readonly<Record<string, string>>): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
