import type { Projection } from "../src/projections/runner.ts";
import { apiKeysProjection, organisationsProjection } from "./access.ts";
import { repositoriesProjection } from "./repositories.ts";
import { pullRequestsProjection, webhookDeliveriesProjection } from "./pull-requests.ts";
import { codeReviewsProjection } from "./code-reviews.ts";
import { commentsProjection } from "./comments.ts";
import { customContextProjection } from "./custom-context.ts";
import { querySessionsProjection } from "./query-sessions.ts";

/** Every read-model projection the service runs. */
export const allProjections: Projection[] = [apiKeysProjection, organisationsProjection, repositoriesProjection, pullRequestsProjection, webhookDeliveriesProjection, codeReviewsProjection, commentsProjection, customContextProjection, querySessionsProjection];
