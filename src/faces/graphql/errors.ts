import { GraphQLError } from "./graphql.ts";
import { DomainError } from "../../eventstore/decider.ts";
import { DuplicateEventIdError, ExpectedVersionConflictError } from "../../eventstore/port.ts";
import { InvalidEventError, UnknownEventTypeError } from "../../eventstore/catalogue.ts";
import { GitNameError } from "../../git/names.ts";

/**
 * Typed errors of the admin API: a GraphQL error whose `extensions.code` is one of these (the enum
 * `AdminErrorCode` in the schema documents them) and, for some, `extensions.details`.
 */
export const adminErrorCodes = [
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "BAD_USER_INPUT",
  "NOT_FOUND",
  "CONFLICT",
  "INVALID",
  "INTERNAL",
] as const;
export type AdminErrorCode = (typeof adminErrorCodes)[number];

export function adminError(code: AdminErrorCode, message: string, details?: unknown): GraphQLError {
  return new GraphQLError(message, { extensions: details === undefined ? { code } : { code, details } });
}

/** Maps an error thrown below the face to a typed admin error; null when it is unexpected. */
export function toAdminError(error: unknown): GraphQLError | null {
  if (error instanceof GraphQLError && typeof error.extensions?.code === "string") return error;
  if (error instanceof GitNameError) {
    return adminError("BAD_USER_INPUT", `${error.field}: ${error.problem}`, { issues: [{ path: error.field, message: error.problem }] });
  }
  if (error instanceof DomainError) {
    const code = ({ not_found: "NOT_FOUND", conflict: "CONFLICT", invalid: "INVALID", forbidden: "FORBIDDEN" } as const)[error.code];
    return adminError(code, error.message);
  }
  if (error instanceof ExpectedVersionConflictError || error instanceof DuplicateEventIdError) {
    return adminError("CONFLICT", "The resource changed concurrently; retry the request");
  }
  if (error instanceof InvalidEventError) return adminError("INVALID", error.message, { issues: error.issues });
  if (error instanceof UnknownEventTypeError) return adminError("INVALID", error.message);
  return null;
}

/**
 * graphql-js's own request errors (a variable of the wrong type, an unknown argument): a GraphQLError
 * with no code whose cause, if any, is another such error (a scalar's refusal). They are the client's
 * mistake, and the outer message names the variable or field. (Checked by name: graphql's CommonJS and
 * ESM builds each have their own GraphQLError class.)
 */
const isBareGraphQLError = (error: unknown): error is GraphQLError =>
  error instanceof Error && error.name === "GraphQLError" && typeof (error as GraphQLError).extensions?.code !== "string";
export const isRequestError = (error: unknown): error is GraphQLError =>
  isBareGraphQLError(error) && (!error.originalError || isBareGraphQLError(error.originalError));
