import { builder } from "../builder.ts";

/** The git hosts Loupe talks to. */
export const Remote = builder.enumType("Remote", { values: ["github", "gitlab", "bitbucket", "azure"] as const });
