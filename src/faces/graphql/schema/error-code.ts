import { builder } from "../builder.ts";
import { adminErrorCodes } from "../errors.ts";

/** Documents the `extensions.code` of admin errors (errors are GraphQL errors, not data). */
builder.enumType("AdminErrorCode", {
  description:
    "The `extensions.code` of every error the admin API answers with (a missing, unknown or revoked key is HTTP 401 with the /v2 JSON error body, before GraphQL). BAD_REQUEST, GRAPHQL_PARSE_FAILED and GRAPHQL_VALIDATION_FAILED are the request's or the document's (the codes graphql-yoga and other GraphQL servers use); BAD_USER_INPUT an argument's; the others the command's.",
  values: adminErrorCodes,
});
