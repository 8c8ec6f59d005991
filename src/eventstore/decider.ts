import type { EventStore, StoredEvent } from "./port.ts";
import { newEvent, type CommandContext } from "./new-event.ts";

/** An event as a decider emits it, before the envelope is added. */
export type DomainEvent = { type: string; data: Record<string, unknown> };

export type Decider<Command, State> = {
  initialState(): State;
  evolve(state: State, event: StoredEvent | DomainEvent): State;
  /** Pure: returns the events the command causes, or throws a DomainError. */
  decide(command: Command, state: State): DomainEvent[];
};

/** A command the current state refuses (maps to HTTP 409/404, JSON-RPC -32000). */
export class DomainError extends Error {
  constructor(
    readonly code: "not_found" | "conflict" | "invalid" | "forbidden",
    message: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/**
 * Loads a stream, folds it into state, decides, and appends with the version it read
 * (optimistic concurrency: a concurrent writer makes this throw ExpectedVersionConflictError).
 */
export async function handleCommand<Command, State>(
  eventStore: EventStore,
  streamName: string,
  decider: Decider<Command, State>,
  command: Command,
  context: CommandContext,
): Promise<{ events: DomainEvent[]; state: State; lastPosition: number | null }> {
  const { events: history, currentStreamVersion } = await eventStore.readStream(streamName);
  const state = history.reduce(decider.evolve, decider.initialState());
  const decided = decider.decide(command, state);
  if (decided.length === 0) return { events: [], state, lastPosition: null };
  const result = await eventStore.appendToStream(
    streamName,
    decided.map((e) => newEvent(e.type, e.data, context)),
    { expectedStreamVersion: currentStreamVersion },
  );
  return { events: decided, state: decided.reduce(decider.evolve, state), lastPosition: result.lastPosition };
}
