import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logging.ts";
import { createLoupe } from "../../src/loupe.ts";
import { spawnProcess } from "../support/process.ts";

const KILLS = Number(process.env.CRASH_KILLS ?? 20);

describe("the service under SIGKILL", () => {
  it(`keeps every acknowledged write once and converges its projections across ${KILLS} kills`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "loupe-crash-"));
    const acknowledged = new Set<string>();
    try {
      for (let round = 0; round < KILLS; round++) {
        // node --import tsx, not the tsx wrapper: SIGKILL must hit the process that writes.
        const proc = spawnProcess(process.execPath, ["--import", "tsx", "test/support/crash-service.ts", dataDir]);
        const deadline = Date.now() + 30_000;
        while (!proc.output().includes("READY")) {
          if (Date.now() > deadline) throw new Error(`child never became ready:\n${proc.output()}`);
          await new Promise((r) => setTimeout(r, 20));
        }
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 350));
        proc.child.kill("SIGKILL");
        await proc.exited;
        for (const match of proc.output().matchAll(/^ACK (\S+)$/gm)) acknowledged.add(match[1]!);
      }
      expect(acknowledged.size).toBeGreaterThan(KILLS);

      // Restart on the same directory: no repair by hand, projections catch up and agree with the log.
      const config = loadConfig({ LOUPE_DATA_DIR: dataDir, LOUPE_API_KEY: "lp_crash_test_bootstrap_key_000000" });
      const loupe = await createLoupe(config, { logger: createLogger("silent"), announce: () => {} });
      try {
        const { eventStore, readStore, runner, keys } = loupe.services;
        expect(await runner.waitForPosition(await eventStore.headPosition(), 20_000)).toBe(true);
        const events = await eventStore.readAll({ maxCount: 1_000_000 });
        const issued = events.filter((e) => e.type === "ApiKeyIssued").map((e) => e.data.keyId as string);
        expect(new Set(issued).size).toBe(issued.length);
        const orgId = keys.organisations()[0]!.orgId;
        const projected = new Set(keys.list(orgId).map((k) => k.keyId));
        for (const keyId of acknowledged) {
          expect(issued.filter((id) => id === keyId)).toHaveLength(1);
          expect(projected.has(keyId)).toBe(true);
        }
        expect(projected.size).toBe(issued.length);
        expect(events.map((e) => e.position)).toEqual(events.map((_, i) => i + 1));

        const liveHash = readStore.contentHash("api-keys");
        await runner.rebuild("api-keys");
        expect(readStore.contentHash("api-keys")).toBe(liveHash);
      } finally {
        await loupe.close();
      }
    } finally {
      if (!process.env.KEEP_CRASH_DIR) rmSync(dataDir, { recursive: true, force: true });
      else console.log("DATA DIR", dataDir);
    }
  }, 180_000);
});
