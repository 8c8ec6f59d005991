import { GraphQLError } from "./graphql.ts";
import { DomainError } from "../../eventstore/decider.ts";
import { DuplicateEventIdError, ExpectedVersionConflictError } from "../../eventstore/port.ts";
import { InvalidEventError, UnknownEventTypeError } from "../../eventstore/catalogue.ts";
import { GitNameError } from "../../git/names.ts";
import { HostError, hostErrorAnswer } from "../../hosts/errors.ts";

/**
 * Every `extensions.code` the admin API answers with (the enum `AdminErrorCode` in the schema prints
 * these descriptions). A missing, unknown or revoked key never reaches GraphQL: it is HTTP 401 with the
 * /v2 JSON error body.
 */
export const adminErrorCodes = {
  BAD_REQUEST: {
    description:
      "The HTTP request is not one GraphQL request the API runs: a body that is not JSON, no `query`, a batch (an array of operations; not supported), a mutation sent with GET. HTTP 400 (405 for the GET).",
  },
  GRAPHQL_PARSE_FAILED: {
    description:
      "The document is not GraphQL: a syntax error (the message gives line and column), or it nests deeper than 128 levels (pass deeply nested JSON as a variable).",
  },
  GRAPHQL_VALIDATION_FAILED: {
    description:
      "The document does not fit the schema: an unknown field, argument or type, a fragment or variable used wrongly (`locations` point at it). Nothing ran. A wrong argument value is BAD_USER_INPUT.",
  },
  BAD_USER_INPUT: {
    description:
      "An argument was refused, written in the document or given as a variable: a value of the wrong type or out of range, a required argument left out, or a rule the service checks (a scopes expression, name, remote and defaultBranch given together, free-form JSON within its depth and size). `extensions.details.issues` lists `{path, message}`: `path` names the argument (dotted into input objects) or the `$variable`. Nothing was recorded.",
  },
  FORBIDDEN: { description: "The key is not an admin key, or the command needs the bootstrap organisation's admin (creating organisations)." },
  NOT_FOUND: { description: "The command names something the caller's organisation does not have." },
  CONFLICT: { description: "The command conflicts with the current state (it exists already, a review is not in that state), or the resource changed concurrently: retry." },
  INVALID: {
    description:
      "An event the command would record was refused by the event catalogue's schema (`extensions.details.issues`). The arguments passed validation, so this is a defect to report.",
  },
  HOST_UNAVAILABLE: {
    description:
      "The git host did not give an answer the command needed: it refused the call for its rate limit (`extensions.details.reason` host_rate_limited: try again later, or send a host token, whose limit is higher than an anonymous caller's), said the repository is not there or not readable (repository_not_found), or could not be reached (host_unavailable). Nothing was recorded.",
  },
  INTERNAL: { description: "An unexpected failure; the details are logged with the request id, not returned." },
} as const;
export type AdminErrorCode = keyof typeof adminErrorCodes;

/** The codes that mean the caller's request was wrong: each is logged as one warning, without a stack. */
export const CLIENT_ERROR_CODES: ReadonlySet<string> = new Set<AdminErrorCode>(["BAD_REQUEST", "GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED", "BAD_USER_INPUT"]);

export function adminError(code: AdminErrorCode, message: string, details?: unknown): GraphQLError {
  return new GraphQLError(message, { extensions: details === undefined ? { code } : { code, details } });
}

/** BAD_USER_INPUT about one argument (or `$variable`): `details.issues` names it. */
export const badUserInput = (path: string, message: string, text = message): GraphQLError =>
  adminError("BAD_USER_INPUT", text, { issues: [{ path, message }] });

/** Maps an error thrown below the face to a typed admin error; null when it is unexpected. */
export function toAdminError(error: unknown): GraphQLError | null {
  if (error instanceof GraphQLError && typeof error.extensions?.code === "string") return error;
  if (error instanceof GitNameError) return badUserInput(error.field, error.problem, `${error.field}: ${error.problem}`);
  if (error instanceof DomainError) {
    // A service's `invalid` is the caller's input (as on the other faces: HTTP 400, JSON-RPC -32602).
    if (error.code === "invalid") return badUserInput(error.field ?? "(arguments)", error.message);
    const code = ({ not_found: "NOT_FOUND", conflict: "CONFLICT", forbidden: "FORBIDDEN" } as const)[error.code];
    return adminError(code, error.message);
  }
  if (error instanceof ExpectedVersionConflictError || error instanceof DuplicateEventIdError) {
    return adminError("CONFLICT", "The resource changed concurrently; retry the request");
  }
  if (error instanceof HostError) {
    const { reason, message } = hostErrorAnswer(error);
    return adminError("HOST_UNAVAILABLE", message, { reason });
  }
  if (error instanceof InvalidEventError) return adminError("INVALID", error.message, { issues: error.issues });
  if (error instanceof UnknownEventTypeError) return adminError("INVALID", error.message);
  return null;
}

/**
 * A custom scalar's refusal of an input value. Not a GraphQLError, so that graphql-js wraps it with the
 * place it was found: the literal's node (`Expected value of type "DateTime", found "x"; ...`), or the
 * variable and the path inside it (`Variable "$f" got invalid value "x" at "f.since"; ...`).
 */
export class ScalarInputError extends TypeError {
  override name = "ScalarInputError";
}

/**
 * graphql-js's own request errors (a variable of the wrong type or missing): a GraphQLError with no
 * code whose cause, if any, is another such error or a scalar's refusal. They are the client's mistake,
 * and the outer message names the variable. (Checked by name: graphql's CommonJS and ESM builds each
 * have their own GraphQLError class.)
 */
const isBareGraphQLError = (error: unknown): error is GraphQLError =>
  error instanceof Error && error.name === "GraphQLError" && typeof (error as GraphQLError).extensions?.code !== "string";
export const isRequestError = (error: unknown): error is GraphQLError =>
  isBareGraphQLError(error) &&
  (!error.originalError || isBareGraphQLError(error.originalError) || error.originalError.name === "ScalarInputError");

/**
 * `$filter.since` for `Variable "$filter" got invalid value "x" at "filter.since"; ...`, `$i` for
 * `Variable "$i" got invalid value ...` or `Variable "$i" of required type "String!" was not provided.`
 */
export function variablePathOf(message: string): string {
  const at = /^Variable "\$[^"]+" got invalid value .*? at "([^"]+)"/s.exec(message);
  if (at) return `$${at[1]}`;
  const name = /^Variable "(\$[^"]+)"/.exec(message);
  return name ? name[1]! : "(variables)";
}
