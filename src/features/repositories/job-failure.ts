/**
 * Recording an indexing job's failure when the data directory refuses writes (a full disk).
 *
 * The refusal that ended the job gave back the space reserve (src/data-dir-reserve.ts), so the failure
 * event usually goes through at once; when it does not (the reserve was used up), it is tried again
 * after growing pauses, about two and a half minutes in all, since room may come back. Readers see the
 * job failed meanwhile (./ended-jobs.ts). Given up, or cut short by a stop, the failure is in no store:
 * the next start resumes the job, which fails again while there is no room.
 */
import type { Logger } from "../../logging.ts";
import { StorageFullError, StorageWriteError } from "../../storage-errors.ts";

const FAILURE_RETRY_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 30_000, 30_000, 30_000];

export async function recordJobFailure(
  append: () => Promise<unknown>,
  { logger, signal, isClosed }: { logger: Logger; signal: AbortSignal; isClosed(): boolean },
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await append();
      return;
    } catch (error) {
      if (!(error instanceof StorageFullError || error instanceof StorageWriteError)) throw error;
      const pause = FAILURE_RETRY_MS[attempt];
      const refused = { path: error.path, detail: error.detail };
      if (pause === undefined || signal.aborted || isClosed()) {
        logger.error(refused, "the indexing job's failure could not be recorded (the data directory refuses writes): it reads failed until the server stops, and the next start resumes the job");
        return;
      }
      logger.warn({ ...refused, retryInMs: pause }, "the indexing job's failure could not be recorded yet (the data directory refuses writes): trying again");
      await pauseUnlessAborted(pause, signal);
    }
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (the indexer is closing). */
function pauseUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
