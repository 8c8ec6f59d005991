import { describe, expect, it } from "vitest";
import { projectionRebuildDecider, projectionRebuildStream } from "../../src/features/operations/decider.ts";
import { deciderSpec } from "../support/decider.ts";

const rebuilds = deciderSpec(projectionRebuildDecider);
const started = { type: "ProjectionRebuildStarted" as const, data: { rebuildId: "r1", projection: "api-keys" } };

describe("projection rebuild decider", () => {
  it("names its stream by rebuild", () => expect(projectionRebuildStream("r1")).toBe("projectionrebuild-r1"));
  it("starts once", () => {
    rebuilds.given([]).when({ type: "StartRebuild", rebuildId: "r1", projection: "api-keys" }).then([started]);
    rebuilds.given([started]).when({ type: "StartRebuild", rebuildId: "r1", projection: "api-keys" }).thenFails("conflict");
  });
  it("completes or fails a started rebuild once, naming its projection", () => {
    rebuilds.given([started]).when({ type: "CompleteRebuild", generation: 3 }).then([{ type: "ProjectionRebuildCompleted", data: { rebuildId: "r1", projection: "api-keys", generation: 3 } }]);
    rebuilds.given([started]).when({ type: "FailRebuild", reason: "boom" }).then([{ type: "ProjectionRebuildFailed", data: { rebuildId: "r1", projection: "api-keys", reason: "boom" } }]);
    const completed = { type: "ProjectionRebuildCompleted" as const, data: { rebuildId: "r1", projection: "api-keys", generation: 3 } };
    rebuilds.given([started, completed]).when({ type: "FailRebuild", reason: "late" }).then([]);
    rebuilds.given([]).when({ type: "CompleteRebuild", generation: 1 }).then([]);
  });
});
