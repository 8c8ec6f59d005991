/** A concurrency bound shared by every call that goes through it. */
export type Limiter = {
  /** Runs `task` once fewer than `max` tasks are running; rejects with the signal's reason if it aborts while queued. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  readonly active: number;
  readonly queued: number;
};

export function createLimiter(max: number): Limiter {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency must be a positive integer, got ${max}`);
  let active = 0;
  // Waiting tasks in arrival order. An aborted one is emptied in place (no search, no splice) and
  // skipped when its turn comes; taken entries are dropped from the front in blocks.
  type Waiting = { start: (() => void) | null };
  let waiting: Waiting[] = [];
  let head = 0;
  let queued = 0;

  const next = () => {
    active--;
    while (head < waiting.length) {
      const entry = waiting[head++]!;
      if (entry.start) {
        const start = entry.start;
        entry.start = null;
        queued--;
        start();
        break;
      }
    }
    if (head === waiting.length) {
      waiting = [];
      head = 0;
    } else if (head >= 1024 && head * 2 >= waiting.length) {
      waiting = waiting.slice(head);
      head = 0;
    }
  };

  return {
    get active() {
      return active;
    },
    get queued() {
      return queued;
    },
    run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const start = () => {
          signal?.removeEventListener("abort", onAbort);
          active++;
          let p: Promise<T>;
          try {
            p = task();
          } catch (err) {
            p = Promise.reject(err);
          }
          p.then(
            (value) => {
              resolve(value);
              next();
            },
            (error: unknown) => {
              reject(error);
              next();
            },
          );
        };
        const entry: Waiting = { start };
        const onAbort = () => {
          if (entry.start) {
            entry.start = null;
            queued--;
          }
          reject(signal?.reason);
        };
        if (active < max) {
          start();
        } else {
          waiting.push(entry);
          queued++;
          signal?.addEventListener("abort", onAbort, { once: true });
        }
      });
    },
  };
}
