import { defineConfig } from "vitest/config";

// One config for unit and API tests; API tests start real servers on free ports.
export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    include: ["server/**/*.test.ts", "app/**/*.test.ts", "tests/unit/**/*.test.ts", "tests/api/**/*.test.ts", "tests/dms/**/*.test.ts"],
    environment: "node",
    // Tags the run for its test databases and drops them at its end (api/test-run.ts).
    globalSetup: ["tests/api/test-run.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default on two cores is one file at a time; most files wait on servers, processes
    // and the database rather than on the CPU, so two at a time halve the run.
    maxWorkers: 2,
  },
});
