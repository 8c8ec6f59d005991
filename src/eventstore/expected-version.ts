import type { ExpectedStreamVersion } from "./port.ts";

/** Whether a stream at `current` (-1 = no stream) satisfies the expected version. */
export function matchesExpectedVersion(expected: ExpectedStreamVersion, current: number): boolean {
  switch (expected) {
    case "any":
      return true;
    case "no_stream":
      return current === -1;
    case "stream_exists":
      return current >= 0;
    default:
      return current === expected;
  }
}
