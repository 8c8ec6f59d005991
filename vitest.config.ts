import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.spec.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // vitest's default is one worker fewer than the cores: one on a 2-core machine, while most test files
    // wait on the processes, servers and git commands they start (docs/ENGINEERING.md, Tests).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker's test files share its module instances instead of importing the project again for each:
    // every file builds its own services, data directories and servers.
    isolate: false,
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
