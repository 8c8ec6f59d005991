import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLmdbReadStore } from "../../src/readstore/lmdb.ts";
import { createMemoryReadStore } from "../../src/readstore/memory.ts";
import type { ReadStore } from "../../src/readstore/port.ts";
import { createReadMemo } from "../../src/readstore/memo.ts";

/**
 * Decoded values kept per read-model version (src/readstore/memo.ts): a reader never sees a value older
 * than the last commit, activation or cleared generation, and the shared values cannot be changed.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const stores: [string, () => ReadStore][] = [
  ["lmdb", () => {
    const dir = mkdtempSync(join(tmpdir(), "loupe-memo-"));
    dirs.push(dir);
    return createLmdbReadStore({ dir });
  }],
  ["memory", () => createMemoryReadStore()],
];

describe.each(stores)("read memo over the %s read store", (_name, open) => {
  type Rec = { name: string; tags: string[] };

  it("serves the newest committed value, frozen, and re-reads only after a change", async () => {
    const store = open();
    const memo = createReadMemo<Rec>(() => store.version("things"));
    let loads = 0;
    const get = (id: string) => memo.get(id, () => (loads++, store.view("things").get<Rec>(["thing", id])));

    await store.commit("things", 0, 1, 1, (tx) => tx.put(["thing", "a"], { name: "first", tags: ["x"] }));
    expect(get("a")).toEqual({ name: "first", tags: ["x"] });
    expect(get("a")).toEqual({ name: "first", tags: ["x"] });
    expect(get("missing")).toBeUndefined();
    expect(loads).toBe(2); // "a" once, "missing" once

    const shared = get("a")!;
    expect(() => ((shared as { name: string }).name = "changed")).toThrow(TypeError);
    expect(() => shared.tags.push("y")).toThrow(TypeError);

    await store.commit("things", 0, 2, 1, (tx) => tx.put(["thing", "a"], { name: "second", tags: [] }));
    expect(get("a")).toEqual({ name: "second", tags: [] });
    await store.commit("things", 0, 3, 1, (tx) => tx.put(["thing", "missing"], { name: "now here", tags: [] }));
    expect(get("missing")?.name).toBe("now here");

    // Another read model's commits leave this one's values in place.
    get("a");
    const before = loads;
    await store.commit("others", 0, 4, 1, (tx) => tx.put(["other"], 1));
    get("a");
    expect(loads).toBe(before);
    await store.close();
  });

  it("changes the version on every commit, activation and cleared generation", async () => {
    const store = open();
    const seen = [store.version("things")];
    await store.commit("things", 1, 1, 1, (tx) => tx.put(["k"], 1));
    seen.push(store.version("things"));
    await store.activate("things", 1, 1, 1);
    seen.push(store.version("things"));
    await store.clearGeneration("things", 1);
    seen.push(store.version("things"));
    expect(new Set(seen).size).toBe(seen.length);
    await store.close();
  });
});
