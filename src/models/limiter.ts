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
  const queue: (() => void)[] = [];

  const next = () => {
    active--;
    queue.shift()?.();
  };

  return {
    get active() {
      return active;
    },
    get queued() {
      return queue.length;
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
          p.then(resolve, reject).finally(next);
        };
        const onAbort = () => {
          const i = queue.indexOf(start);
          if (i !== -1) queue.splice(i, 1);
          reject(signal?.reason);
        };
        if (active < max) {
          start();
        } else {
          queue.push(start);
          signal?.addEventListener("abort", onAbort, { once: true });
        }
      });
    },
  };
}
