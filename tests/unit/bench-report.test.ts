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
  /** One run of the comparison, as delivery-processes.bench.ts prints it. */
  const run = (rate: number, round: number, setup: string, cpu: number, retries = 0, lockWaits = 0) =>
    `  ${rate}/s, round ${round}, ${setup}: p50 100 ms, p95 200 ms, CPU ${cpu} ms per notice (5.0× the bare pipeline: API and SMTP 3.0, workers 20.0)\n` +
    `        per notice: ${retries.toFixed(2)} stages tried again, ${lockWaits.toFixed(2)} lock waits seen (sampled every 100 ms), 30.0 commits, 0.00 rollbacks; 0 deadlocks; 1 connections opened`;

  it("gives each aim's figures and their ratio, rate by rate, from the alternated comparison", () => {
    const comparison = [
      run(10, 1, "SQLite, 1 worker", 25),
      run(10, 1, "PostgreSQL, 1 worker", 50),
      run(10, 1, "PostgreSQL, 3 workers", 55, 0.01, 0.02),
      run(10, 2, "PostgreSQL, 3 workers", 54, 0, 0.05),
      run(10, 2, "PostgreSQL, 1 worker", 50),
      run(10, 2, "SQLite, 1 worker", 25),
      "  10/s, 1 worker, PostgreSQL against SQLite: 50.0 / 25.0 ms = 2.00× (rounds 2.00×–2.00×)",
      "  10/s, what PostgreSQL adds: 25.0 ms per notice (its backends 12.0, its processes 13.0 more than SQLite's); 1.2 times SQLite allows 5.0",
      "  10/s, PostgreSQL, 3 workers against 1: 54.5 / 50.0 ms = 1.09× (rounds 1.08×–1.10×)",
    ].join("\n");
    const table = postgresAims([
      script("pipeline.bench.ts 400 sqlite 12", pipeline(145.3, 30)),
      script("pipeline.bench.ts 400 postgres 12", pipeline(40.1, 45)),
      // The sweeps of the highest steady rate give no ratio: their scripts run minutes apart.
      script("delivery-processes.bench.ts postgres 1 10,15 10", run(10, 1, "x", 99)),
      script("delivery-processes.bench.ts compare 10 15 2", comparison),
    ]);
    expect(table.split("\n").slice(2)).toEqual([
      "| statements per notice (the burst, one process) | 145.3 | 40.1 |  | PostgreSQL at most 40 |",
      "| CPU per notice, ms (the burst, one process, with its backends) | 30 | 45 | 1.50× | at most 1.2× |",
      "| CPU per notice, ms, separate processes, 1 worker, 10/s | 25 | 50 | 2.00× (rounds 2.00×–2.00×) | at most 1.2× |",
      "| what PostgreSQL adds to SQLite's CPU per notice, ms, 10/s (its backends' part) |  | 25.0 (12.0) |  | at most 5.0 |",
      "| PostgreSQL CPU per notice, ms, 3 workers against 1, 10/s |  | 50 → 54.5 | 1.09× (rounds 1.08×–1.10×) | at most 1.10× |",
      "| PostgreSQL, 3 workers, 10/s: stages tried again and lock waits per notice, the highest of the rounds |  | 0.01; 0.05 |  | near zero |",
    ]);
  });

  it("says nothing when PostgreSQL was not measured", () => {
    expect(postgresAims([script("pipeline.bench.ts 400 sqlite 12", pipeline(145.3, 30))])).toBe("");
  });
});
