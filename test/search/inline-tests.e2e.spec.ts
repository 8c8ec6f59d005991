import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * A Rust source file holds the code and, by the language's convention, its tests (`#[cfg(test)] mod tests`).
 * A question about what the code does gets the code first: the test module's functions, which repeat the
 * question's words in their names and assertions, weigh like a test file's. A question that asks for the
 * tests gets them.
 */
const LIMITER = [
  "/// A token bucket that limits how many requests pass per second.", // 1
  "pub struct RateLimiter {",
  "    capacity: u32,",
  "    tokens: u32,",
  "}",
  "",
  "impl RateLimiter {",
  "    /// Takes one token when a request may pass; refills are done by the caller.",
  "    pub fn try_acquire(&mut self) -> bool {", // 9
  "        if self.tokens == 0 {",
  "            return false;",
  "        }",
  "        self.tokens -= 1;",
  "        true",
  "    }", // 15
  "}",
  "",
  "#[cfg(test)]",
  "mod tests {",
  "    use super::*;",
  "",
  "    #[test]",
  "    fn rate_limiter_rejects_request_when_no_tokens_left() {", // 23
  "        let mut limiter = RateLimiter { capacity: 1, tokens: 1 };",
  "        assert!(limiter.try_acquire(), \"first request passes\");",
  "        assert!(!limiter.try_acquire(), \"rate limiter rejects the request when no tokens are left\");",
  "        assert_eq!(limiter.tokens, 0, \"no tokens left after the request\");",
  "    }",
  "}",
  "",
].join("\n");

describe("Rust's inline test modules weigh like test files (e2e)", () => {
  const { search } = withIndexedRepository("acme/limits", {
    "src/limiter.rs": LIMITER,
    "src/lib.rs": "pub mod limiter;\n",
  });

  it("a question about the code gets the code before the test that repeats its words", async () => {
    const refs = (await search("How does the rate limiter reject a request when no tokens are left?")).filter((s) => s.filepath === "src/limiter.rs");
    expect(refs.length).toBeGreaterThan(0);
    expect(refs[0]!.linestart).toBeLessThanOrEqual(9);
    expect(refs[0]!.lineend).toBeGreaterThanOrEqual(15);
    expect(refs[0]!.linestart).toBeLessThan(18);
  });

  it("a question that asks for the tests gets the test", async () => {
    const refs = (await search("Which test checks that the rate limiter rejects a request when no tokens are left?")).filter((s) => s.filepath === "src/limiter.rs");
    expect(refs[0]!.linestart).toBeGreaterThanOrEqual(18); // the test module, from its `#[cfg(test)]`
  });
});
