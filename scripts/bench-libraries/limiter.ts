/**
 * The concurrency limiter (src/models/limiter.ts) against p-queue (per-task AbortSignal:
 * `queue.add(fn, { signal })`) and p-limit (no per-task signal): the limiter's behaviour, checked the
 * same way on each, and the overhead per task (100,000 tasks that resolve at once, 4 at a time).
 */
import PQueue from "p-queue";
import pLimit from "p-limit";
import { createLimiter, type Limiter } from "../../src/models/limiter.ts";
import { median } from "./timing.ts";

type Run = <T>(task: () => Promise<T>, signal?: AbortSignal) => Promise<T>;

const viaOwn = (max: number): Run => createLimiter(max).run as Limiter["run"];
const viaPQueue = (max: number): Run => {
  const queue = new PQueue({ concurrency: max });
  return (task, signal) => queue.add(() => task(), { signal });
};
const viaPLimit = (max: number): Run => {
  const limit = pLimit(max);
  return (task) => limit(task);
};

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The unit test's case: 5 tasks, at most 2 at a time, the 4th aborted while queued. */
async function queuedAbort(run: Run): Promise<boolean> {
  let running = 0;
  let peak = 0;
  const ran: number[] = [];
  const task = (n: number) => async () => {
    running++;
    peak = Math.max(peak, running);
    await pause(10);
    running--;
    ran.push(n);
    return n;
  };
  const ctl = new AbortController();
  const all = [1, 2, 3, 4, 5].map((n) => run(task(n), n === 4 ? ctl.signal : undefined));
  ctl.abort(new Error("no longer needed"));
  const settled = await Promise.allSettled(all);
  const fourth = settled[3];
  return peak === 2 && ran.sort().join() === "1,2,3,5" && fourth?.status === "rejected" && (fourth.reason as Error).message === "no longer needed";
}

/**
 * A running task whose signal aborts keeps its place until it ends: the bound is on calls in flight,
 * and a provider call that has not yet noticed the abort still counts.
 */
async function runningAbortKeepsSlot(run: Run): Promise<boolean> {
  let running = 0;
  let peak = 0;
  const task = async () => {
    running++;
    peak = Math.max(peak, running);
    await pause(30); // does not watch the signal
    running--;
  };
  const ctl = new AbortController();
  const first = run(task, ctl.signal).catch(() => undefined);
  const second = run(task);
  await pause(5);
  ctl.abort(new Error("client went away"));
  await Promise.all([first, second]);
  return peak === 1;
}

async function overheadNs(make: (max: number) => Run, tasks: number): Promise<number> {
  const once = async () => {
    const run = make(4);
    const t = performance.now();
    await Promise.all(Array.from({ length: tasks }, () => run(() => Promise.resolve(1))));
    return performance.now() - t;
  };
  await once();
  const ms: number[] = [];
  for (let i = 0; i < 7; i++) ms.push(await once());
  return Math.round((median(ms) * 1e6) / tasks);
}

export async function benchLimiter() {
  const TASKS = 100_000;
  const candidates: [string, (max: number) => Run, boolean][] = [
    ["createLimiter", viaOwn, true],
    ["p-queue", viaPQueue, true],
    ["p-limit (no per-task signal)", viaPLimit, false],
  ];
  const out: Record<string, unknown> = { input: `${TASKS} tasks resolving at once, concurrency 4; overhead = wall time / task` };
  for (const [name, make, hasSignal] of candidates) {
    out[name] = {
      queuedTaskLeavesOnAbort: hasSignal ? await queuedAbort(make(2)) : "no per-task signal",
      runningTaskKeepsPlaceOnAbort: hasSignal ? await runningAbortKeepsSlot(make(1)) : "no per-task signal",
      nsPerTask: await overheadNs(make, TASKS),
    };
  }
  return out;
}
