import { ExpectedVersionConflictError, type EventStore, type StoredEvent } from "./port.ts";
import { newEvent, type CommandContext } from "./new-event.ts";

/** An event as a decider emits it, before the envelope is added. */
export type DomainEvent = { type: string; data: Record<string, unknown> };

/**
 * One aggregate's business rules, pure (after Emmett): `decide(command, state)` returns the events a
 * command causes or throws a DomainError; `evolve(state, event)` folds an event into the state. `Event`
 * is the union of the aggregate's events typed by their schemas (`DecidedEventOf<typeof X>`); a stored
 * event of the stream is handed to `evolve` as one of them.
 */
export type Decider<Command, State, Event extends DomainEvent = DomainEvent> = {
  initialState(): State;
  evolve(state: State, event: Event): State;
  /** Pure: returns the events the command causes, or throws a DomainError. */
  decide(command: Command, state: State): Event[];
};

/**
 * A command the current state refuses (HTTP 404/409/403, JSON-RPC -32000), or input a service found
 * wrong (`invalid`: HTTP 400, JSON-RPC -32602, GraphQL BAD_USER_INPUT), with the `field` (the parameter
 * or argument) it concerns, which the faces name in their error details.
 */
export class DomainError extends Error {
  constructor(
    readonly code: "not_found" | "conflict" | "invalid" | "forbidden",
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** Attempts of a command whose append lost a race to a concurrent writer (it decides again on the new state). */
const COMMAND_ATTEMPTS = 5;

/**
 * Loads a stream, folds it into state, decides, and appends with the version it read (optimistic
 * concurrency). When a concurrent writer appended first, the command is decided again on the new state
 * (up to COMMAND_ATTEMPTS times; then the ExpectedVersionConflictError is thrown): a command the winning
 * write made a no-op (revoking a key another request has just revoked) then decides nothing.
 *
 * `lastPosition` is what a read that follows must wait for (`runner.waitForPosition`): the position of
 * the stream's newest event after the command, i.e. the last appended event or, when the decider
 * decided nothing, the event already in the stream that made the command a no-op (its read model may
 * not show it yet: a concurrent request appended it a moment ago). null only for an empty stream.
 */
export async function handleCommand<Command, State, Event extends DomainEvent>(
  eventStore: EventStore,
  streamName: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  context: CommandContext,
): Promise<{ events: Event[]; state: State; lastPosition: number | null }> {
  for (let attempt = 1; ; attempt++) {
    const { events: history, currentStreamVersion } = await eventStore.readStream(streamName);
    const state = foldStream(decider, history);
    const decided = decider.decide(command, state);
    if (decided.length === 0) return { events: [], state, lastPosition: history.at(-1)?.position ?? null };
    try {
      const result = await eventStore.appendToStream(
        streamName,
        decided.map((e) => newEvent(e.type, e.data, context)),
        { expectedStreamVersion: currentStreamVersion },
      );
      return { events: decided, state: decided.reduce(decider.evolve, state), lastPosition: result.lastPosition };
    } catch (error) {
      if (!(error instanceof ExpectedVersionConflictError) || attempt >= COMMAND_ATTEMPTS) throw error;
    }
  }
}

/**
 * The state of an aggregate from its stream. The stream holds only this aggregate's events, written
 * through the catalogue (validated, read back upcast), so each is one of the decider's `Event`s.
 */
export function foldStream<Command, State, Event extends DomainEvent>(decider: Decider<Command, State, Event>, history: readonly StoredEvent[]): State {
  return history.reduce((state, event) => decider.evolve(state, event as unknown as Event), decider.initialState());
}
