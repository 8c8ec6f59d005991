/**
 * Given / when / then for deciders (pure, no I/O): `given(events).when(command).then(events)` folds the
 * events into the state with `evolve`, decides the command and compares the events; `.thenFails(code)`
 * expects a DomainError of that code.
 */
import { expect } from "vitest";
import { DomainError, type Decider, type DomainEvent } from "../../src/eventstore/decider.ts";

export function deciderSpec<Command, State, Event extends DomainEvent>(decider: Decider<Command, State, Event>) {
  return {
    given(history: Event[]) {
      const state = history.reduce(decider.evolve, decider.initialState());
      return {
        state,
        when(command: Command) {
          const run = () => decider.decide(command, state);
          return {
            then(expected: Event[]) {
              expect(run()).toEqual(expected);
            },
            thenFails(code: DomainError["code"], message?: RegExp) {
              let error: unknown;
              try {
                run();
              } catch (e) {
                error = e;
              }
              expect(error).toBeInstanceOf(DomainError);
              expect((error as DomainError).code).toBe(code);
              if (message) expect((error as DomainError).message).toMatch(message);
            },
          };
        },
      };
    },
  };
}
