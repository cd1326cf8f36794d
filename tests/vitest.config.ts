import { defineConfig } from "vitest/config";

// One config for unit and API tests; API tests start real servers on free ports.
export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    include: ["server/**/*.test.ts", "app/**/*.test.ts", "tests/unit/**/*.test.ts", "tests/api/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
