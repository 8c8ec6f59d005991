import { builder } from "./builder.ts";
// One file per type; each adds its own query and mutation fields. A new read model adds one file here.
import "./schema/scalars.ts";
import "./schema/error-code.ts";
import "./schema/event.ts";
import "./schema/audit.ts";
import "./schema/api-key.ts";
import "./schema/organisation.ts";
import "./schema/viewer.ts";
import "./schema/projection.ts";
import "./schema/remote.ts";
import "./schema/repository.ts";
import "./schema/review-comment.ts";
import "./schema/pull-request.ts";
import "./schema/code-review.ts";
import "./schema/custom-context.ts";

/** The admin GraphQL schema (printed, sorted, in schema/admin.graphql; a test fails when it drifts). */
export const schema = builder.toSchema();
