import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { COPY_NODE_OPTIONS } from "../../server/lib/server-copies";

// The copies' V8 options (decisions 079 and 083) do what they are there for, in the Node that runs
// the product, and an operator's own option, given to the process that starts them, comes last.

/** The young generation's capacity, in MB, of a Node process with `options` once it has been busy. */
function youngGenerationMb(options: readonly string[]): number {
  const script = `let keep = []; for (let i = 0; i < 4e6; i++) { keep.push({ i }); if (keep.length > 300000) keep = []; }
    process.stdout.write(String(require("node:v8").getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size / 1048576));`;
  const run = spawnSync(process.execPath, [...options, "-e", script], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
  expect(run.status, run.stderr).toBe(0);
  return Number(run.stdout);
}

describe("a copy's V8 options", () => {
  it("give it a larger young generation than V8's default", () => {
    expect(youngGenerationMb(COPY_NODE_OPTIONS)).toBeGreaterThan(youngGenerationMb([]));
  });

  it("yield to the same option given after them", () => {
    expect(youngGenerationMb([...COPY_NODE_OPTIONS, "--max-semi-space-size=8"])).toBe(youngGenerationMb(["--max-semi-space-size=8"]));
  });
});
