import type { Projection } from "../../projections/runner.ts";
import { apiKeysProjection, organisationsProjection } from "./access/projection.ts";
import { repositoriesProjection } from "./repositories/projection.ts";
import { pullRequestsProjection, webhookDeliveriesProjection } from "./pull-requests/projection.ts";
import { codeReviewsProjection } from "./code-reviews/projection.ts";
import { commentsProjection } from "./review-comments/projection.ts";
import { customContextProjection } from "./custom-context/projection.ts";
import { querySessionsProjection } from "./query-sessions/projection.ts";

/** Every read-model projection the service runs. */
export const allProjections: Projection[] = [apiKeysProjection, organisationsProjection, repositoriesProjection, pullRequestsProjection, webhookDeliveriesProjection, codeReviewsProjection, commentsProjection, customContextProjection, querySessionsProjection];
