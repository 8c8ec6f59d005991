/** Timing helpers of the library benchmarks: the median of a few runs, so one slow run does not count. */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median milliseconds of `runs` calls of a synchronous function. */
export function time(fn: () => void, runs = 5): number {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

/** Median milliseconds of `runs` calls of an asynchronous function. */
export async function timeAsync(fn: () => Promise<void>, runs = 5): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}
