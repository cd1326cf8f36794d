import { configDefaults, defineConfig } from "vitest/config";

/**
 * Test files that change what a process keeps for its whole life, so each runs in a process of
 * its own: module mocks (parse-once), settings the console reads once (notify, firm-store), and
 * what the server keeps per firm or user id across databases (a firm's words by dictionary
 * version, users already identified to analytics, the demo reset in progress).
 */
const OWN_PROCESS = [
  "tests/api/parse-once.test.ts",
  "tests/api/notify.test.ts",
  "app/utils/firm-store.test.ts",
  "tests/api/dictionary.test.ts",
  "tests/api/analytics.test.ts",
  "tests/api/demo.test.ts",
  "tests/api/demo-reset.test.ts",
  "tests/api/request-ids.test.ts",
];

const ALL = ["server/**/*.test.ts", "app/**/*.test.ts", "tests/unit/**/*.test.ts", "tests/api/**/*.test.ts", "tests/dms/**/*.test.ts"];

// One config for unit and API tests; API tests start real servers on free ports.
export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    environment: "node",
    // Tags the run for its test databases and drops them at its end (api/test-run.ts).
    globalSetup: ["tests/api/test-run.ts"],
    // The product's own log lines of servers a test runs in its process: tests that read them
    // set their level and stream; processes a test starts name the level they need.
    env: { LOG_LEVEL: "silent" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default on two cores is one file at a time; most files wait on servers, processes
    // and the database rather than on the CPU, so two at a time halve the run.
    maxWorkers: 2,
    projects: [
      // Loading the server's modules again for every file took about as long as the tests that
      // use them: the other files share a process per worker and load them once.
      { extends: true, test: { name: "shared", include: ALL, exclude: [...configDefaults.exclude, ...OWN_PROCESS], isolate: false } },
      { extends: true, test: { name: "own-process", include: OWN_PROCESS, isolate: true } },
    ],
  },
});
