import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BEGIN, END, type Machine, withLatestResults, writeDocs } from "../bench/report";

// `npm run bench` rewrites only the "Latest results" section of docs/benchmarks.md: how to run
// each benchmark stays as written, and earlier results are left to git.
const machine: Machine = { cpu: "Test CPU", cores: 2, memoryGb: 8, node: "v22.0.0", platform: "Linux test x64", loadAtStart: 0.5 };
const page = (section: string) => `# Benchmarks\n\n## Running them\n\nHow to run each one.\n\n${BEGIN}\n${section}\n${END}\n\n## After\n\nKept too.\n`;
let roots: string[] = [];
afterEach(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
  roots = [];
});

describe("the benchmarks page", () => {
  it("replaces the section between its markers and keeps the text around it", () => {
    const next = withLatestResults(page("## Latest results\n\nold figures"), "## Latest results\n\nnew figures");
    expect(next).toBe(page("## Latest results\n\nnew figures"));
    expect(withLatestResults(next, "## Latest results\n\nnew figures")).toBe(next);
  });

  it("adds the section to a page without markers", () => {
    expect(withLatestResults("# Benchmarks\n", "## Latest results\n\nfigures")).toBe(`# Benchmarks\n\n${BEGIN}\n## Latest results\n\nfigures\n${END}\n`);
  });

  it("writes the latest results once, naming the machine and the command, and nothing before them", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-bench-page-"));
    roots.push(root);
    fs.mkdirSync(path.join(root, "docs"));
    fs.writeFileSync(path.join(root, "docs", "benchmarks.md"), page("## Latest results\n\nMeasured 2026-01-01 on Old CPU"));
    const results = [{ backend: "postgres" as const, skipped: "no server answers", summaries: [], failures: [] }];
    const scripts = [{ title: "Notice parser", command: "npx tsx tests/bench/parse.bench.ts", output: "throughput: 3530 notices/s" }];
    const file = writeDocs(root, machine, results, scripts, "npm run bench", "2026-11-28 20:00 UTC");
    const written = fs.readFileSync(file, "utf8");
    expect(written.match(/## Latest results/g)).toHaveLength(1);
    expect(written).not.toContain("Old CPU");
    expect(written).toContain("Measured 2026-11-28 20:00 UTC with `npm run bench` on Test CPU, 2 cores");
    expect(written).toContain("| postgres | SKIPPED: no server answers |");
    expect(written).toContain("throughput: 3530 notices/s");
    expect(written.startsWith("# Benchmarks\n\n## Running them\n\nHow to run each one.\n\n")).toBe(true);
    expect(written.endsWith("\n## After\n\nKept too.\n")).toBe(true);
  });
});
