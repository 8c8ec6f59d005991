/**
 * Kills a child process that appends to the embedded store with SIGKILL at random moments,
 * over and over on the same directory, and checks after every kill that the store opens as
 * is (no repair step), that every acknowledged event is there exactly once, and that
 * positions are 1..n and stream versions 0..k without gaps.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createEmbeddedEventStore } from "../../src/eventstore/embedded.ts";
import type { Ack } from "../support/crash-appender.ts";

const appenderScript = fileURLToPath(new URL("../support/crash-appender.ts", import.meta.url));
const KILLS = 24;

type Run = { acks: Ack[]; sawReady: boolean };

function runAndKill(dir: string, killAfterMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", appenderScript, dir, "append"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    // The delay runs from READY most of the time, from spawn sometimes (kill during open).
    const killFromSpawn = killAfterMs < 60;
    let timer = killFromSpawn ? setTimeout(() => child.kill("SIGKILL"), killAfterMs) : undefined;
    const watchReady = setInterval(() => {
      if (!timer && stdout.includes("READY\n")) timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    }, 2);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearInterval(watchReady);
      if (timer) clearTimeout(timer);
      if (signal !== "SIGKILL") return reject(new Error(`appender exited on its own (${code}): ${stderr}`));
      const lines = stdout.split("\n");
      lines.pop(); // an unterminated last line was cut by the kill
      const acks = lines.filter((line) => line.startsWith("ACK ")).map((line) => JSON.parse(line.slice(4)) as Ack);
      resolve({ acks, sawReady: lines.includes("READY") });
    });
  });
}

describe("embedded event store under SIGKILL", () => {
  // Each kill starts a Node process with tsx (about a second alone, several on a loaded two-core machine):
  // runs of 26-40 s were seen beside the rest of the suite, so the budget (120 s) leaves room for them.
  it(`keeps every acknowledged append, once, across ${KILLS} kills`, async () => {
    const dir = await mkdtemp(join(tmpdir(), "loupe-crash-"));
    const acknowledged = new Map<string, Ack>();
    let runsWithAcks = 0;
    try {
      for (let kill = 0; kill < KILLS; kill++) {
        const killAfterMs = Math.floor(Math.random() * 300);
        const run = await runAndKill(dir, killAfterMs);
        if (run.acks.length > 0) runsWithAcks++;
        for (const ack of run.acks) for (const id of ack.ids) acknowledged.set(id, ack);

        const store = createEmbeddedEventStore({ dir }); // opens without any repair step
        try {
          const all = await store.readAll();
          expect(all.map((event) => event.position)).toEqual(all.map((_, index) => index + 1));
          expect(await store.headPosition()).toBe(all.length);
          const byId = new Map<string, number>();
          for (const event of all) byId.set(event.id, (byId.get(event.id) ?? 0) + 1);
          expect([...byId.values()].every((count) => count === 1)).toBe(true);
          for (const [id, ack] of acknowledged) {
            expect(byId.get(id), `acknowledged event ${id} (kill ${kill}, position <= ${ack.lastPosition})`).toBe(1);
          }
          const streams = new Map<string, number[]>();
          for (const event of all) streams.set(event.streamName, [...(streams.get(event.streamName) ?? []), event.streamVersion]);
          for (const [name, versions] of streams) {
            expect(versions, name).toEqual(versions.map((_, index) => index));
            expect((await store.readStream(name)).currentStreamVersion).toBe(versions.length - 1);
          }
        } finally {
          await store.close();
        }
      }
      // The test is only meaningful if kills landed while appends were being acknowledged.
      expect(runsWithAcks).toBeGreaterThanOrEqual(KILLS / 2);
      expect(acknowledged.size).toBeGreaterThan(100);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
