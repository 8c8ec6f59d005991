import { builder } from "../builder.ts";
import { adminErrorCodes } from "../errors.ts";

/** Documents the `extensions.code` of admin errors (errors are GraphQL errors, not data). */
builder.enumType("AdminErrorCode", {
  description:
    "The `extensions.code` of every error the admin API returns. UNAUTHENTICATED and FORBIDDEN: the key is missing, invalid or not an admin key; BAD_USER_INPUT: an argument failed validation (`extensions.details.issues`); NOT_FOUND, CONFLICT, INVALID: the command was refused; INTERNAL: an unexpected failure (details are logged, not returned).",
  values: adminErrorCodes,
});
