import { describe, expect, it } from "vitest";
import { customContextDecider, customContextStream } from "../../src/features/custom-context/decider.ts";
import type { CustomContextDecidedEvent } from "../../src/features/custom-context/events.ts";
import { deciderSpec } from "../support/decider.ts";

const { given } = deciderSpec(customContextDecider);
const id = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";
const scopes = { AND: [{ field: "filepath", operator: "MATCHES" as const, value: "**/*.py" }] };
const create = { type: "CreateCustomContext" as const, id, contextType: "PATTERN" as const, body: "`print(`", status: "ACTIVE" as const, scopes, metadata: {}, source: "user" as const };
const created: CustomContextDecidedEvent = { type: "CustomContextCreated", data: { id, body: "`print(`", status: "ACTIVE", scopes, metadata: {}, source: "user", type: "PATTERN" } };

describe("custom context decider", () => {
  it("names its stream by organisation and id", () => expect(customContextStream("org1", id)).toBe(`customcontext-org1-${id}`));

  it("creates a context once", () => {
    given([]).when(create).then([created]);
    given([created]).when(create).thenFails("conflict");
  });

  it("changes the status, recording the previous one; the same status records nothing", () => {
    given([created]).when({ type: "ChangeCustomContextStatus", id, status: "INACTIVE" }).then([{ type: "CustomContextStatusChanged", data: { id, status: "INACTIVE", previousStatus: "ACTIVE" } }]);
    given([created]).when({ type: "ChangeCustomContextStatus", id, status: "ACTIVE" }).then([]);
    const deactivated: CustomContextDecidedEvent = { type: "CustomContextStatusChanged", data: { id, status: "INACTIVE", previousStatus: "ACTIVE" } };
    given([created, deactivated]).when({ type: "ChangeCustomContextStatus", id, status: "ACTIVE" }).then([{ type: "CustomContextStatusChanged", data: { id, status: "ACTIVE", previousStatus: "INACTIVE" } }]);
  });

  it("updates what is given, and records nothing when nothing is", () => {
    given([created]).when({ type: "UpdateCustomContext", id, body: "`breakpoint(`" }).then([{ type: "CustomContextUpdated", data: { id, body: "`breakpoint(`" } }]);
    given([created]).when({ type: "UpdateCustomContext", id }).then([]);
  });

  it("refuses status changes and updates of an unknown context", () => {
    given([]).when({ type: "ChangeCustomContextStatus", id, status: "ACTIVE" }).thenFails("not_found");
    given([]).when({ type: "UpdateCustomContext", id, body: "x" }).thenFails("not_found");
  });
});
