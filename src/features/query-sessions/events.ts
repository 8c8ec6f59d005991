import { z } from "zod";
import { defineEvent, type DecidedEventOf, type EventOf } from "../../eventstore/catalogue.ts";

/**
 * Query sessions (POST /v2/query and POST /v2/search): every question and its answer, under the
 * session id the client sent or the one the service made (returned in `x-session-id`).
 * Stream: `querysession-<orgId>-<sessionId>` (./decider.ts). Host tokens never enter these events.
 */
const repositoryRef = z.object({ remote: z.string().max(20), repository: z.string().max(300), branch: z.string().max(255) });
const source = z.object({
  repository: z.string().max(300),
  remote: z.string().max(20),
  branch: z.string().max(255),
  filepath: z.string().max(4096),
  linestart: z.number().int().nullable(),
  lineend: z.number().int().nullable(),
  summary: z.string().max(2000),
  distance: z.number().nullable(),
});

export const QuerySessionQuestionAsked = defineEvent(
  "QuerySessionQuestionAsked",
  1,
  z.object({
    sessionId: z.string().min(1).max(128),
    turnId: z.string().min(1).max(64),
    /** "query" (an answer was asked for) or "search" (references only). */
    kind: z.enum(["query", "search"]),
    /** The newest user message (query) or the search text, capped. */
    question: z.string().max(100_000),
    /** Messages the client sent in this request (query), contents capped. */
    messages: z.array(z.object({ role: z.enum(["user", "assistant", "system"]), content: z.string().max(100_000) })).max(200),
    repositories: z.array(repositoryRef).max(100),
    genius: z.boolean(),
  }),
);

export const QuerySessionAnswered = defineEvent(
  "QuerySessionAnswered",
  1,
  z.object({
    sessionId: z.string().min(1).max(128),
    turnId: z.string().min(1).max(64),
    /** The answer (query); empty for a search. */
    message: z.string().max(200_000),
    sources: z.array(source).max(100),
    /** Chat model that wrote the answer, or null for the offline extractive answer / a search. */
    model: z.string().max(200).nullable(),
    notes: z.array(z.string().max(1000)).max(50),
    ms: z.number().int().nonnegative(),
  }),
);

/**
 * A reference as a search turn records it: where it points, not the file's summary. The summary is the
 * code index's (derived from the file), up to 1,000 characters per file: with it, a search turn cost
 * ~8 KB of log on average, four times what the question and the references take. GET
 * /v2/query/{sessionId} reads summaries back from the index.
 */
const reference = source.omit({ summary: true });

const searchedFields = {
  sessionId: z.string().min(1).max(128),
  turnId: z.string().min(1).max(64),
  /** The search text, capped. */
  question: z.string().max(100_000),
  repositories: z.array(repositoryRef).max(100),
  genius: z.boolean(),
  notes: z.array(z.string().max(1000)).max(50),
  ms: z.number().int().nonnegative(),
};

/** v1: each reference carried its file's summary. */
const QuerySessionSearchedV1 = defineEvent("QuerySessionSearched", 1, z.object({ ...searchedFields, sources: z.array(source).max(100) }));

/**
 * A search (POST /v2/search) and its references in one event: the question and answer of a search turn.
 * v2: references without summaries. v1 events read as v2 unchanged: their references keep the summary
 * they were answered with, and readers use it instead of the index's.
 */
export const QuerySessionSearched = defineEvent(
  "QuerySessionSearched",
  2,
  z.object({ ...searchedFields, sources: z.array(reference).max(100) }),
  (v1) => v1,
);

export const querySessionEvents = [QuerySessionQuestionAsked, QuerySessionAnswered, QuerySessionSearchedV1, QuerySessionSearched];

/** A session's events as readers see them (QuerySessionSearched at its newest version). */
export type QuerySessionEvent = EventOf<typeof QuerySessionQuestionAsked> | EventOf<typeof QuerySessionAnswered> | EventOf<typeof QuerySessionSearched>;
export type QuerySessionDecidedEvent =
  | DecidedEventOf<typeof QuerySessionQuestionAsked>
  | DecidedEventOf<typeof QuerySessionAnswered>
  | DecidedEventOf<typeof QuerySessionSearched>;
