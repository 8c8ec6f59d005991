import { describe, expect, it } from "vitest";
import { redact } from "../../src/models/errors.ts";
import { apiUrl, backoffDelay, parseRetryAfter, retryPolicy } from "../../src/models/http.ts";
import { createLimiter } from "../../src/models/limiter.ts";

describe("apiUrl", () => {
  it.each([
    ["http://localhost:11434", "http://localhost:11434/v1/embeddings"],
    ["http://localhost:11434/", "http://localhost:11434/v1/embeddings"],
    ["https://api.openai.com/v1", "https://api.openai.com/v1/embeddings"],
    ["https://api.openai.com/v1/", "https://api.openai.com/v1/embeddings"],
    ["https://openrouter.ai/api/v1", "https://openrouter.ai/api/v1/embeddings"],
    ["http://gw:8080/llm", "http://gw:8080/llm/v1/embeddings"],
  ])("%s", (base, url) => {
    expect(apiUrl(base, "/embeddings")).toBe(url);
  });

  it("rejects a URL that is not http(s)", () => {
    expect(() => apiUrl("localhost:11434", "/x")).toThrow(/scheme|invalid/);
    expect(() => apiUrl("not a url", "/x")).toThrow(/invalid base URL/);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  it("reads seconds, HTTP dates and retry-after-ms, capped", () => {
    expect(parseRetryAfter(new Headers({ "retry-after": "2" }), 60_000, now)).toBe(2000);
    expect(parseRetryAfter(new Headers({ "retry-after": "0.5" }), 60_000, now)).toBe(500);
    expect(parseRetryAfter(new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:03 GMT" }), 60_000, now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "250", "retry-after": "9" }), 60_000, now)).toBe(250);
    expect(parseRetryAfter(new Headers({ "retry-after": "3600" }), 60_000, now)).toBe(60_000);
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }), 60_000, now)).toBeNull();
    expect(parseRetryAfter(new Headers(), 60_000, now)).toBeNull();
  });
});

describe("backoffDelay", () => {
  it("doubles per attempt, is capped and jittered into [d/2, d]", () => {
    const p = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
    expect(backoffDelay(1, p, () => 0)).toBe(50);
    expect(backoffDelay(1, p, () => 1)).toBe(100);
    expect(backoffDelay(3, p, () => 1)).toBe(400);
    expect(backoffDelay(10, p, () => 1)).toBe(1000);
    expect(backoffDelay(10, p, () => 0)).toBe(500);
  });
});

describe("redact", () => {
  it("removes every occurrence of each secret", () => {
    expect(redact("key=abcd1234 again abcd1234", ["abcd1234", undefined])).toBe("key=[redacted] again [redacted]");
  });
});

describe("createLimiter", () => {
  it("never runs more than max tasks and drops a queued task whose signal aborts", async () => {
    const limiter = createLimiter(2);
    let running = 0;
    let peak = 0;
    const ran: number[] = [];
    const task = (n: number) => async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 10));
      running--;
      ran.push(n);
      return n;
    };
    const ctl = new AbortController();
    const all = [1, 2, 3, 4, 5].map((n) => limiter.run(task(n), n === 4 ? ctl.signal : undefined));
    ctl.abort(new Error("no longer needed"));
    const settled = await Promise.allSettled(all);
    expect(peak).toBe(2);
    expect(ran.sort()).toEqual([1, 2, 3, 5]);
    expect(settled[3]).toMatchObject({ status: "rejected", reason: new Error("no longer needed") });
    expect(limiter.active).toBe(0);
    expect(limiter.queued).toBe(0);
  });

  it("keeps a running task's place when its signal aborts, until the task ends (p-queue frees it at once)", async () => {
    const limiter = createLimiter(1);
    let running = 0;
    let peak = 0;
    let release!: () => void;
    const slow = () =>
      new Promise<void>((resolve) => {
        running++;
        peak = Math.max(peak, running);
        release = () => {
          running--;
          resolve();
        };
      });
    const ctl = new AbortController();
    const first = limiter.run(slow, ctl.signal);
    const second = limiter.run(async () => {
      running++;
      peak = Math.max(peak, running);
      running--;
      return "second";
    });
    ctl.abort(new Error("client went away"));
    await new Promise((r) => setTimeout(r, 5));
    expect(limiter.active).toBe(1);
    expect(limiter.queued).toBe(1);
    release();
    await first;
    expect(await second).toBe("second");
    expect(peak).toBe(1);
  });

  it("takes queued tasks in order and drops aborted ones among many", async () => {
    const limiter = createLimiter(1);
    const order: number[] = [];
    const controllers = Array.from({ length: 1000 }, () => new AbortController());
    const all = controllers.map((ctl, n) => limiter.run(async () => void order.push(n), ctl.signal));
    for (let n = 1; n < 1000; n += 2) controllers[n]!.abort(new Error("gone"));
    const settled = await Promise.allSettled(all);
    expect(order).toEqual(Array.from({ length: 500 }, (_, i) => i * 2));
    expect(settled.filter((s) => s.status === "rejected")).toHaveLength(500);
    expect(limiter.queued).toBe(0);
  });
});
