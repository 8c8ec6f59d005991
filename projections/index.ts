import type { Projection } from "../src/projections/runner.ts";
import { apiKeysProjection, organisationsProjection } from "./access.ts";

/** Every read-model projection the service runs. */
export const allProjections: Projection[] = [apiKeysProjection, organisationsProjection];
