/**
 * Recording an indexing job's failure when the data directory refuses the write: tried again after
 * growing pauses until it is recorded (room came back), cut short by a stop, and never swallowing an
 * error that is not the file system's. (Before: a refused failure escaped the job, which then read
 * "processing" with no worker on it until the next start resumed it.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/logging.ts";
import { StorageFullError } from "../../src/storage-errors.ts";
import { recordJobFailure } from "../../src/features/repositories/job-failure.ts";

const logger = createLogger("silent");
const refusal = () => new StorageFullError("/data/events", "No space left on device");

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe("recording a job's failure on a full disk", () => {
  it("tries a refused failure again until it is recorded", async () => {
    let attempts = 0;
    const recorded = recordJobFailure(
      async () => {
        if (++attempts <= 3) throw refusal();
      },
      { logger, signal: new AbortController().signal, isClosed: () => false },
    );
    await vi.runAllTimersAsync();
    await expect(recorded).resolves.toBeUndefined();
    expect(attempts).toBe(4);
  });

  it("stops trying when the indexer closes (the next start resumes the job)", async () => {
    const abort = new AbortController();
    let attempts = 0;
    const recorded = recordJobFailure(
      async () => {
        attempts++;
        throw refusal();
      },
      { logger, signal: abort.signal, isClosed: () => abort.signal.aborted },
    );
    await vi.advanceTimersByTimeAsync(0);
    abort.abort();
    await vi.runAllTimersAsync();
    await expect(recorded).resolves.toBeUndefined();
    expect(attempts).toBe(2); // the first, then the one the stop woke, which gives up
  });

  it("gives up after its pauses while the disk stays full", async () => {
    let attempts = 0;
    const recorded = recordJobFailure(
      async () => {
        attempts++;
        throw refusal();
      },
      { logger, signal: new AbortController().signal, isClosed: () => false },
    );
    await vi.runAllTimersAsync();
    await expect(recorded).resolves.toBeUndefined();
    expect(attempts).toBe(10);
  });

  it("passes on an error that is not the file system's", async () => {
    const conflict = new Error("Job j1 was superseded by job j2");
    await expect(
      recordJobFailure(async () => Promise.reject(conflict), { logger, signal: new AbortController().signal, isClosed: () => false }),
    ).rejects.toBe(conflict);
  });
});
