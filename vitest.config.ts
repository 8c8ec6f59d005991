import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.spec.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // vitest's default is one worker fewer than the cores: one on a 2-core machine, while most test files
    // wait on the processes, servers and git commands they start. Two there run the suite in 11 minutes
    // instead of 15 (all passing); three were no faster.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
