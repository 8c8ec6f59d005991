import { describe, expect, it } from "vitest";
import { querySessionDecider, querySessionStream } from "../../src/features/query-sessions/decider.ts";
import { deciderSpec } from "../support/decider.ts";

const { given } = deciderSpec(querySessionDecider);
const asked = { turnId: "t1", kind: "query" as const, question: "where are webhooks verified?", messages: [{ role: "user" as const, content: "where are webhooks verified?" }], repositories: [{ remote: "github", repository: "acme/api", branch: "main" }], genius: false };
const answer = { turnId: "t1", message: "In `verify.ts`.", sources: [], model: null, notes: [], ms: 12 };
const search = { turnId: "t2", question: "verify signature", repositories: asked.repositories, genius: false, sources: [{ repository: "acme/api", remote: "github", branch: "main", filepath: "src/verify.ts", linestart: 3, lineend: 9, distance: 0 }], notes: [], ms: 4 };

describe("query session decider", () => {
  it("names the stream by organisation and session", () => {
    expect(querySessionStream("org1", "s1")).toBe("querysession-org1-s1");
  });

  it("asks a question in a new session", () => {
    given([]).when({ type: "AskQuestion", sessionId: "s1", turn: asked }).then([{ type: "QuerySessionQuestionAsked", data: { sessionId: "s1", ...asked } }]);
  });

  it("answers a question that was asked", () => {
    given([{ type: "QuerySessionQuestionAsked", data: { sessionId: "s1", ...asked } }])
      .when({ type: "RecordAnswer", sessionId: "s1", answer })
      .then([{ type: "QuerySessionAnswered", data: { sessionId: "s1", ...answer } }]);
  });

  it("refuses an answer to a turn that was never asked", () => {
    given([]).when({ type: "RecordAnswer", sessionId: "s1", answer }).thenFails("not_found", /t1 was not asked in session s1/);
  });

  it("refuses a second answer to the same turn", () => {
    given([
      { type: "QuerySessionQuestionAsked", data: { sessionId: "s1", ...asked } },
      { type: "QuerySessionAnswered", data: { sessionId: "s1", ...answer } },
    ])
      .when({ type: "RecordAnswer", sessionId: "s1", answer })
      .thenFails("conflict");
  });

  it("records a search and its references as one event", () => {
    given([]).when({ type: "RecordSearch", sessionId: "s1", turn: search }).then([{ type: "QuerySessionSearched", data: { sessionId: "s1", ...search } }]);
  });

  it("refuses a turn id used twice", () => {
    given([{ type: "QuerySessionSearched", data: { sessionId: "s1", ...search } }])
      .when({ type: "AskQuestion", sessionId: "s1", turn: { ...asked, turnId: "t2" } })
      .thenFails("conflict");
    given([{ type: "QuerySessionQuestionAsked", data: { sessionId: "s1", ...asked } }])
      .when({ type: "RecordSearch", sessionId: "s1", turn: { ...search, turnId: "t1" } })
      .thenFails("conflict");
  });
});
