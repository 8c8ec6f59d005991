/** search_greptile_comments (interface.md 4.2; the tool name is exact). */
import { z } from "zod";
import { defineTool, isoDate, limit, searchedComment } from "./common.ts";

export const SEARCH_COMMENTS_LIMIT = { default: 10, max: 50 } as const;

export const searchGreptileCommentsInput = z.strictObject({
  query: z.string().min(1).max(1000).describe("Text to search for in service-generated review comments"),
  limit: limit(SEARCH_COMMENTS_LIMIT.default, SEARCH_COMMENTS_LIMIT.max),
  includeAddressed: z.boolean().default(false).describe("Include comments already addressed (default false)"),
  createdAfter: isoDate.optional().describe("Only comments created after this ISO 8601 date or date-time"),
});

export const searchGreptileCommentsOutput = z.object({
  comments: z.array(searchedComment),
  query: z.string(),
  total: z.number().int().min(0),
  note: z.string(),
  summary: z.object({ addressed: z.number().int().min(0), unaddressed: z.number().int().min(0), withSuggestions: z.number().int().min(0) }),
});

export const searchGreptileComments = defineTool({
  name: "search_greptile_comments",
  title: "Search service review comments",
  description:
    "Search the review comments the service generated across your organisation's pull requests, best " +
    "match first. Unaddressed comments only unless includeAddressed is true. limit default 10, max 50.",
  input: searchGreptileCommentsInput,
  output: searchGreptileCommentsOutput,
  readOnly: true,
  run: async (args, ctx) => ctx.services.pullRequests.searchComments(ctx.principal.orgId, args),
});
