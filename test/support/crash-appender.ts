/**
 * Child process for crash and multi-process tests of the embedded event store.
 *
 *   node --import tsx test/support/crash-appender.ts <dir> [mode] [count]
 *
 * Modes:
 *   append (default)  append forever until killed
 *   count             append `count` events (default 20), then close and exit 0
 *
 * Protocol on stdout, one line each: `READY` once the store is open, then
 * `ACK {"stream":..,"ids":[..],"lastPosition":..}` after each append's promise resolved
 * (so an ACK line means the append was acknowledged as durable). Lines are written only after
 * acknowledgement; a kill may lose ACK lines, never produce one for an unacknowledged append.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ulid } from "ulid";
import { createEmbeddedEventStore } from "../../src/eventstore/embedded.ts";
import type { AppendResult, EventStore, NewEvent } from "../../src/eventstore/port.ts";

export type Ack = { stream: string; ids: string[]; lastPosition: number };

export type AppendLoopOptions = {
  /** Stop after this many events (default: never). */
  maxEvents?: number;
  onAck(ack: Ack): void;
  streams?: string[];
};

function makeEvent(n: number): NewEvent {
  return {
    id: ulid(),
    type: n % 2 === 0 ? "CrashTestEven" : "CrashTestOdd",
    schemaVersion: 1,
    time: new Date().toISOString(),
    data: { n, padding: "x".repeat(n % 200) },
    metadata: { orgId: "crash", actor: "system", correlationId: ulid(), causationId: null },
  };
}

/**
 * Appends a mix of single events and batches to a few streams, some with an exact expected
 * version, some `any`, some several in flight at once.
 */
export async function appendLoop(store: EventStore, options: AppendLoopOptions): Promise<number> {
  const streams = options.streams ?? ["crash-a", "crash-b", "crash-c", "crash-d"];
  const versions = new Map<string, number>();
  for (const stream of streams) versions.set(stream, (await store.readStream(stream, { maxCount: 0 })).currentStreamVersion);
  const limit = options.maxEvents ?? Infinity;
  let written = 0;
  let round = 0;

  const appendOne = async (stream: string, size: number, withExpectation: boolean) => {
    const events = Array.from({ length: size }, () => makeEvent(written++));
    const expected = withExpectation ? (versions.get(stream) ?? -1) : undefined;
    const result: AppendResult = await store.appendToStream(
      stream,
      events,
      expected === undefined ? {} : { expectedStreamVersion: expected === -1 ? "no_stream" : expected },
    );
    versions.set(stream, Math.max(versions.get(stream) ?? -1, result.nextExpectedStreamVersion));
    options.onAck({ stream, ids: events.map((event) => event.id), lastPosition: result.lastPosition });
  };

  while (written < limit) {
    round++;
    const stream = streams[round % streams.length] as string;
    const room = limit - written;
    if (round % 5 === 0 && room >= 3) {
      // Several appends in flight at once, to different streams, without expectations.
      await Promise.all(streams.slice(0, 3).map((name) => appendOne(name, 1, false)));
    } else {
      const size = Math.min(room, 1 + (round % 4));
      await appendOne(stream, size, round % 3 === 0);
    }
  }
  return written;
}

async function main(): Promise<void> {
  const [dir, mode = "append", countArg] = process.argv.slice(2);
  if (!dir) throw new Error("usage: crash-appender.ts <dir> [append|count] [count]");
  const store = createEmbeddedEventStore({ dir });
  process.stdout.write("READY\n");
  const onAck = (ack: Ack) => process.stdout.write(`ACK ${JSON.stringify(ack)}\n`);
  if (mode === "append") {
    await appendLoop(store, { onAck });
  } else if (mode === "count") {
    await appendLoop(store, { onAck, maxEvents: Number(countArg ?? 20), streams: ["multi-a", "multi-b"] });
    await store.close();
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
}

const isEntryPoint = process.argv[1] !== undefined && pathToFileURL(resolve(process.argv[1])).href === import.meta.url;
if (isEntryPoint) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
