import type { EventStore, StoredEvent, Subscription } from "../src/eventstore/port.ts";
import type { ReadStore, WriteView } from "../src/readstore/port.ts";

/**
 * A read-model projection: a plain definition. `handle` must be deterministic and idempotent
 * (replaying the same events leaves the same state); its writes and the checkpoint are committed
 * together by the runner.
 */
export type Projection<E extends { type: string } = StoredEvent> = {
  name: string;
  version: number;
  canHandle: readonly E["type"][];
  handle(events: E[], ctx: { tx: WriteView }): void;
};

/**
 * A projection over typed events (`EventOf<typeof X>` unions): the runner hands `handle` only events
 * whose type is in `canHandle`, read through the catalogue at their newest version, so each is one of `E`.
 */
export function defineProjection<E extends { type: string }>(projection: Projection<E>): Projection {
  return projection as unknown as Projection;
}

export type ProjectionStatus = {
  name: string;
  version: number;
  generation: number;
  checkpoint: number;
  head: number;
  lag: number;
  state: "starting" | "catching-up" | "live" | "rebuilding" | "failed" | "stopped";
  error: string | null;
};

export type ProjectionRunner = {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves true once every projection has handled `position`, false after `timeoutMs`. */
  waitForPosition(position: number, timeoutMs?: number): Promise<boolean>;
  status(): Promise<ProjectionStatus[]>;
  /** Replays the log from zero into a fresh generation, then switches readers to it. */
  rebuild(name: string): Promise<void>;
  isCaughtUp(): Promise<boolean>;
  projections(): readonly Projection[];
};

type Slot = {
  projection: Projection;
  generation: number;
  checkpoint: number;
  state: ProjectionStatus["state"];
  error: string | null;
  /** Serialises the live loop and the final switch of a rebuild. */
  lock: Promise<void>;
  /** The rebuild under way, if any: a second request joins it instead of racing for the same generation. */
  rebuilding: Promise<void> | null;
  /** The checkpoint moved past events this projection ignores, and is not yet stored. */
  checkpointDirty: boolean;
  lastStoredAt: number;
};

const BATCH = 500;
/**
 * A checkpoint that moved only past events a projection ignores is stored at most this often (and at
 * stop), not in a write transaction per batch. Losing it in a crash is harmless: the projection reads
 * those ignored events again.
 */
const CHECKPOINT_FLUSH_MS = 1000;
/** Recent batches kept for other projections reading from the same position. */
const SHARED_BATCHES = 16;

export function createProjectionRunner({
  eventStore,
  readStore,
  projections,
  batchSize = BATCH,
  idleMs = 250,
}: {
  eventStore: EventStore;
  readStore: ReadStore;
  projections: readonly Projection[];
  batchSize?: number;
  idleMs?: number;
}): ProjectionRunner {
  const slots = new Map<string, Slot>();
  const waiters = new Set<() => void>();
  /** Loops sleeping until the next signal (or their timer): a set, not reactions piling up on one promise. */
  const sleepers = new Set<() => void>();
  let running = false;
  let subscription: Subscription | null = null;
  const loops: Promise<void>[] = [];

  // Each projection reads the log at its own pace, but live ones are usually at the same position: a batch
  // is read (and decoded) once and shared. Events are immutable; handlers must not modify them.
  // A batch read near the head may be shorter than one read later would be: reusing it is still correct
  // (the projection continues from its end). An empty batch (at the head) is shared only until the next
  // append signal, and for at most half the idle poll (appends by other processes are not signalled).
  type SharedBatch = { read: Promise<StoredEvent[]>; epoch: number; at: number; empty: boolean };
  const sharedBatches = new Map<number, SharedBatch>();
  let epoch = 0;
  /** The newest position an append notice has announced (watchAppends). */
  let signalledHead = 0;
  const readBatch = (from: number): Promise<StoredEvent[]> => {
    const cached = sharedBatches.get(from);
    if (cached && (!cached.empty || (cached.epoch === epoch && Date.now() - cached.at < idleMs / 2))) return cached.read;
    const entry: SharedBatch = { read: eventStore.readAll({ fromPosition: from, maxCount: batchSize }), epoch, at: Date.now(), empty: false };
    sharedBatches.set(from, entry);
    if (sharedBatches.size > SHARED_BATCHES) sharedBatches.delete(sharedBatches.keys().next().value!);
    entry.read.then(
      (events) => void (entry.empty = events.length === 0),
      () => sharedBatches.get(from) === entry && sharedBatches.delete(from),
    );
    return entry.read;
  };

  const signal = () => {
    epoch++;
    const woken = [...sleepers];
    sleepers.clear();
    for (const wakeUp of woken) wakeUp();
  };
  const notifyWaiters = () => {
    for (const w of [...waiters]) w();
  };
  const withLock = async <T>(slot: Slot, fn: () => Promise<T>): Promise<T> => {
    const previous = slot.lock;
    let release!: () => void;
    slot.lock = new Promise<void>((r) => (release = r));
    await previous;
    try {
      return await fn();
    } finally {
      release();
    }
  };
  /** Resolves at the next signal or after `ms`, whichever comes first (the timer does not outlive it). */
  const wokenOrAfter = (ms: number) =>
    new Promise<void>((resolve) => {
      const wakeUp = () => {
        clearTimeout(timer);
        sleepers.delete(wakeUp);
        resolve();
      };
      const timer = setTimeout(wakeUp, ms);
      sleepers.add(wakeUp);
    });

  /**
   * Applies one batch after `from` into `generation`: the new checkpoint (and whether it was stored), or
   * null at the head. A batch with nothing for the projection is not committed (see CHECKPOINT_FLUSH_MS).
   */
  const applyBatch = async (projection: Projection, generation: number, from: number): Promise<{ checkpoint: number; stored: boolean } | null> => {
    const events = await readBatch(from);
    if (events.length === 0) return null;
    const relevant = events.filter((e) => projection.canHandle.includes(e.type));
    const checkpoint = events[events.length - 1]!.position;
    if (relevant.length === 0) return { checkpoint, stored: false };
    await readStore.commit(projection.name, generation, checkpoint, projection.version, (tx) => {
      if (relevant.length > 0) projection.handle(relevant, { tx });
    });
    return { checkpoint, stored: true };
  };

  /** Stores a checkpoint that moved past ignored events only (call under the slot's lock). */
  const storeCheckpoint = async (slot: Slot) => {
    if (!slot.checkpointDirty) return;
    await readStore.commit(slot.projection.name, slot.generation, slot.checkpoint, slot.projection.version, () => {});
    slot.checkpointDirty = false;
    slot.lastStoredAt = Date.now();
  };

  const liveLoop = async (slot: Slot) => {
    while (running) {
      let advanced = false;
      const seenEpoch = epoch; // a signal during this pass means: look again before sleeping
      try {
        advanced = await withLock(slot, async () => {
          const next = await applyBatch(slot.projection, slot.generation, slot.checkpoint);
          if (next === null) {
            if (Date.now() - slot.lastStoredAt >= CHECKPOINT_FLUSH_MS) await storeCheckpoint(slot);
            return false;
          }
          slot.checkpoint = next.checkpoint;
          if (next.stored) {
            slot.checkpointDirty = false;
            slot.lastStoredAt = Date.now();
          } else {
            slot.checkpointDirty = true;
            if (Date.now() - slot.lastStoredAt >= CHECKPOINT_FLUSH_MS) await storeCheckpoint(slot);
          }
          return true;
        });
        if (slot.state !== "rebuilding") slot.state = advanced ? "catching-up" : "live";
        slot.error = null;
      } catch (error) {
        slot.state = "failed";
        slot.error = error instanceof Error ? error.message : String(error);
        await wokenOrAfter(2000);
        continue;
      }
      notifyWaiters();
      if (!advanced && running && epoch === seenEpoch) await wokenOrAfter(idleMs);
    }
    if (slot.state !== "failed") slot.state = "stopped";
  };

  const rebuildSlot = async (slot: Slot) => {
    const { projection } = slot;
    const generation = slot.generation + 1;
    const previousState = slot.state;
    slot.state = "rebuilding";
    try {
      await readStore.clearGeneration(projection.name, generation);
      let checkpoint = 0;
      for (;;) {
        const next = await applyBatch(projection, generation, checkpoint);
        if (next === null) break;
        checkpoint = next.checkpoint;
      }
      await withLock(slot, async () => {
        for (;;) {
          const next = await applyBatch(projection, generation, checkpoint);
          if (next === null) break;
          checkpoint = next.checkpoint;
        }
        await readStore.activate(projection.name, generation, checkpoint, projection.version);
        slot.generation = generation;
        slot.checkpoint = checkpoint;
        slot.checkpointDirty = false;
        slot.lastStoredAt = Date.now();
      });
      slot.state = previousState === "rebuilding" ? "live" : previousState;
    } catch (error) {
      slot.state = "failed";
      slot.error = error instanceof Error ? error.message : String(error);
      throw error;
    }
    notifyWaiters();
  };

  for (const projection of projections) {
    if (slots.has(projection.name)) throw new Error(`Duplicate projection ${projection.name}`);
    slots.set(projection.name, {
      projection,
      generation: 0,
      checkpoint: 0,
      state: "starting",
      error: null,
      lock: Promise.resolve(),
      rebuilding: null,
      checkpointDirty: false,
      lastStoredAt: 0,
    });
  }

  const allReached = (position: number) => [...slots.values()].every((s) => s.checkpoint >= position);

  /**
   * A subscription used only to wake the loops (they read the log themselves). When it fails (a dropped
   * connection to EventStoreDB), it is opened again after a pause growing to 30 s; meanwhile the loops'
   * idle polling still finds every append, only later.
   */
  const wakeOnAppends = (from: number): Subscription => {
    let current: Subscription | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let failures = 0;
    let stopped = false;
    let seen = from;
    const open = () => {
      retry = null;
      if (stopped) return;
      current = eventStore.subscribeToAll({
        fromPosition: seen,
        onEvent: (event) => {
          seen = Math.max(seen, event.position);
          failures = 0;
          signal();
        },
        onCaughtUp: () => void (failures = 0),
        onError: () => {
          if (stopped) return;
          signal(); // look now: appends may have been missed while the subscription was down
          retry = setTimeout(open, Math.min(30_000, 500 * 2 ** Math.min(failures++, 6)));
        },
      });
    };
    open();
    return {
      async stop() {
        stopped = true;
        if (retry) clearTimeout(retry);
        await current?.stop();
      },
    };
  };

  return {
    projections: () => projections,
    async start() {
      if (running) return;
      running = true;
      const head = await eventStore.headPosition();
      for (const slot of slots.values()) {
        const meta = readStore.meta(slot.projection.name);
        if (meta) {
          slot.generation = meta.generation;
          slot.checkpoint = meta.checkpoint;
        }
        // A checkpoint past the head: the read model holds events the log no longer has (a machine crash
        // took appends that were visible but not yet durable, or the log was restored from a backup).
        if (meta && (meta.version !== slot.projection.version || meta.checkpoint > head)) await rebuildSlot(slot);
        slot.lastStoredAt = Date.now();
      }
      // Woken by appends: cheaply where the store can say so without reading the events, else through a
      // subscription (appends by other processes are found by the loops' idle polling either way).
      if (eventStore.watchAppends) {
        const watch = eventStore.watchAppends((lastPosition) => {
          signalledHead = Math.max(signalledHead, lastPosition);
          signal();
        });
        subscription = { stop: async () => watch.stop() };
      } else subscription = wakeOnAppends(head);
      for (const slot of slots.values()) loops.push(liveLoop(slot));
    },
    async stop() {
      running = false;
      signal();
      await subscription?.stop();
      await Promise.all(loops.splice(0));
      for (const slot of slots.values()) await withLock(slot, () => storeCheckpoint(slot)).catch(() => {});
      notifyWaiters();
    },
    waitForPosition(position, timeoutMs = 5000) {
      if (allReached(position)) return Promise.resolve(true);
      // An append the loops were told of is on its way; anything else (another process's) wakes them now.
      if (position > signalledHead) signal();
      return new Promise<boolean>((resolve) => {
        const done = (value: boolean) => {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(value);
        };
        const check = () => {
          if (allReached(position)) done(true);
        };
        const timer = setTimeout(() => done(allReached(position)), timeoutMs);
        waiters.add(check);
      });
    },
    async status() {
      const head = await eventStore.headPosition();
      return [...slots.values()].map((s) => ({
        name: s.projection.name,
        version: s.projection.version,
        generation: s.generation,
        checkpoint: s.checkpoint,
        head,
        lag: Math.max(0, head - s.checkpoint),
        state: s.state,
        error: s.error,
      }));
    },
    async rebuild(name) {
      const slot = slots.get(name);
      if (!slot) throw new Error(`Unknown projection ${name}`);
      slot.rebuilding ??= rebuildSlot(slot).finally(() => (slot.rebuilding = null));
      await slot.rebuilding;
    },
    async isCaughtUp() {
      const head = await eventStore.headPosition();
      return allReached(head);
    },
  };
}
