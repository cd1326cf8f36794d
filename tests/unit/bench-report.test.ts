import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BEGIN, END, type Machine, postgresAims, withLatestResults, writeDocs } from "../bench/report";

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

describe("PostgreSQL against SQLite in one run", () => {
  const script = (command: string, output: string) => ({ title: command, command: `npx tsx tests/bench/${command}`, output });
  const pipeline = (statements: number, cpu: number) =>
    `  statements per notice, until filed and mailed: ${statements}\n  CPU per notice until filed and mailed: ${cpu} ms (this process, 20.0; database backends 0.0)`;
  /** A run's lines at each rate, `bareMs` its bare pipeline's CPU per notice. */
  const rates = (cpu: Record<number, number>, bareMs = 10) =>
    Object.entries(cpu)
      .map(
        ([rate, ms]) =>
          `   ${rate}/s: p50 100 ms, p95 200 ms, CPU ${ms} ms per notice (${(ms / bareMs).toFixed(1)}× the bare pipeline: API and SMTP 3.0, workers 20.0)`,
      )
      .join("\n");

  it("gives each aim's figures and their ratio, rate by rate", () => {
    const table = postgresAims([
      script("pipeline.bench.ts 400 sqlite 12", pipeline(145.3, 30)),
      script("pipeline.bench.ts 400 postgres 12", pipeline(40.1, 45)),
      script("delivery-processes.bench.ts sqlite 1 10,15 10", rates({ 10: 25, 15: 26 })),
      script("delivery-processes.bench.ts sqlite 2 10,15 10", rates({ 10: 99, 15: 99 })),
      script("delivery-processes.bench.ts postgres 1 10,15 10", rates({ 10: 50, 15: 52 })),
      // The three workers' run on a host a tenth slower: its bare pipeline cost 11 ms, not 10.
      script("delivery-processes.bench.ts postgres 3 10 10", rates({ 10: 55 }, 11)),
    ]);
    expect(table.split("\n").slice(2)).toEqual([
      "| statements per notice (the burst, one process) | 145.3 | 40.1 |  | PostgreSQL at most 40 |",
      "| CPU per notice, ms (the burst, one process, with its backends) | 30 | 45 | 1.50× | at most 1.2× |",
      "| CPU per notice, ms, separate processes, 1 worker, 10/s | 25 | 50 | 2.00× | at most 1.2× |",
      "| CPU per notice, ms, separate processes, 1 worker, 15/s | 26 | 52 | 2.00× | at most 1.2× |",
      "| PostgreSQL CPU per notice, ms, 3 workers against 1, 10/s |  | 50 → 55 | 1.10× | at most 1.10× |",
      "| the same, each as a multiple of its own run's bare pipeline, 10/s |  | 5× → 5× | 1.00× | at most 1.10× |",
    ]);
  });

  it("says nothing when PostgreSQL was not measured", () => {
    expect(postgresAims([script("pipeline.bench.ts 400 sqlite 12", pipeline(145.3, 30))])).toBe("");
  });
});
