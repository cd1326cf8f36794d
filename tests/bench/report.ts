// The benchmark report: a table on the terminal and the "Latest results" section of docs/benchmarks.md.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BackendName } from "./product";
import { type ConsolePageRun, DEEP_PAGE_LABEL, type PageCost } from "./search";
import type { Summary } from "./stats";

export interface BackendResult {
  backend: BackendName;
  /** Why this backend was not measured. */
  skipped?: string;
  seedSeconds?: number;
  /** From starting the compiled product to its console and API both answering. */
  startupSeconds?: number;
  seedOutput?: string;
  totalCases?: number;
  summaries: Summary[];
  /** The console's list page beside its bare baseline. */
  consolePages?: ConsolePageRun;
  failures: string[];
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started: other work on the machine skews latencies. */
  loadAtStart: number;
}

export function machine(): Machine {
  return {
    cpu: os.cpus()[0]?.model.trim() ?? "unknown",
    cores: os.cpus().length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAtStart: os.loadavg()[0] ?? 0,
  };
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "–");
const verdict = (s: Summary) => (s.aim === undefined ? "" : s.errors > 0 ? "ERRORS" : s.p95 < s.aim ? "met" : "MISSED");

function rowsOf(results: BackendResult[]): string[][] {
  return results.flatMap((r) =>
    r.summaries.map((s) => [
      r.backend,
      s.label,
      String(s.count),
      String(s.errors),
      ms(s.p50),
      ms(s.p95),
      ms(s.max),
      ms(s.cpuMs ?? Number.NaN),
      s.aim === undefined ? "" : `< ${s.aim}`,
      verdict(s),
    ]),
  );
}

const HEADER = ["database", "benchmark", "n", "errors", "p50 ms", "p95 ms", "max ms", "server CPU ms/req", "aim p95", ""];

function aligned(header: string[], body: string[][], numeric: (column: number) => boolean): string {
  const rows = [header, ...body];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (numeric(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ")).join("\n");
}

export function terminalTable(results: BackendResult[]): string {
  return aligned(HEADER, rowsOf(results), (i) => i >= 2 && i <= 8);
}

const PAGE_HEADER = [
  "database",
  "page",
  "p50 ms",
  "p99 ms",
  "console CPU ms/page",
  "API CPU ms/page",
  "× the API page's CPU",
  "× the bare render",
  "HTML KB",
  "API calls/page",
];

/** The console page beside the API's deep page (the console's CPU against the API's for its one search) and beside the bare render of the same rows. */
function pageRowsOf(results: BackendResult[]): string[][] {
  return results.flatMap((r) => {
    if (!r.consolePages) return [];
    const apiPage = r.summaries.find((s) => s.label === DEEP_PAGE_LABEL)?.cpuMs ?? Number.NaN;
    const { page, bare } = r.consolePages;
    const row = (p: PageCost) => [
      r.backend,
      p.label.replace(/^console /, ""),
      ms(p.summary.p50),
      ms(p.summary.p99),
      ms(p.consoleCpuMs),
      ms(p.apiCpuMs),
      `${ms(p.consoleCpuMs / apiPage)}×`,
      `${ms(p.consoleCpuMs / bare.consoleCpuMs)}×`,
      (p.htmlBytes / 1024).toFixed(0),
      p.apiCalls.toFixed(1),
    ];
    return [row(page), row(bare)];
  });
}

export function consolePageTable(results: BackendResult[]): string {
  return aligned(PAGE_HEADER, pageRowsOf(results), (i) => i >= 2);
}

export function machineLine(m: Machine): string {
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.platform}, Node ${m.node}, load average ${m.loadAtStart.toFixed(2)} at start`;
}

/** "327107 rows (16.2 s)" from the seed command's last line. */
function seedLine(output = ""): string {
  const m = output.match(/Seeded (\d+) rows in ([\d.]+) s/);
  return m ? `${m[1]} (${m[2]} s)` : "–";
}

/** The output of a benchmark script, with the command that gives it again. */
export interface ScriptResult {
  title: string;
  command: string;
  output: string;
}

function markdownBlock(m: Machine, results: BackendResult[], scripts: ScriptResult[], command: string, date: string): string {
  const lines = [
    "## Latest results",
    "",
    `Measured ${date} with \`${command}\` on ${machineLine(m)}. Earlier runs are in this file's history`,
    "(git log -p docs/benchmarks.md); the figures a decision rests on are in that decision.",
    "",
    "| database | `ecfx seed --size large --force` (wall time) | rows written (time inside the command) | cases searched | start-up to first answer (compiled) |",
    "| --- | --- | --- | --- | --- |",
    ...results.map((r) =>
      r.skipped
        ? `| ${r.backend} | SKIPPED: ${r.skipped} | | | |`
        : `| ${r.backend} | ${r.seedSeconds?.toFixed(1) ?? "–"} s | ${seedLine(r.seedOutput)} | ${r.totalCases ?? "–"} | ${r.startupSeconds?.toFixed(2) ?? "–"} s |`,
    ),
    "",
    `| ${HEADER.join(" | ")} |`,
    `| ${HEADER.map(() => "---").join(" | ")} |`,
    ...rowsOf(results).map((r) => `| ${r.join(" | ")} |`),
    "",
    `| ${PAGE_HEADER.join(" | ")} |`,
    `| ${PAGE_HEADER.map(() => "---").join(" | ")} |`,
    ...pageRowsOf(results).map((r) => `| ${r.join(" | ")} |`),
    "",
  ];
  const failures = results.flatMap((r) => r.failures.map((f) => `- ${r.backend}: ${f}`));
  if (failures.length) lines.push("Failures:", "", ...failures, "");
  for (const r of scripts) lines.push(`${r.title} (\`${r.command}\`):`, "", "```", r.output, "```", "");
  const aims = postgresAims(scripts);
  if (aims) lines.push("PostgreSQL against SQLite, and three workers against one, from the figures above:", "", aims, "");
  return lines.join("\n");
}

// PostgreSQL against SQLite, and three workers against one, read from the scripts' outputs of
// the same run: the figures issue #46 sets its aims on, as ratios within one run.

/** The figures of one pipeline.bench.ts output. */
function pipelineFigures(output: string): { statements: number; cpu: number } | null {
  const statements = /statements per notice, until filed and mailed: ([\d.]+)/.exec(output);
  const cpu = /CPU per notice until filed and mailed: ([\d.]+) ms/.exec(output);
  return statements && cpu ? { statements: Number(statements[1]), cpu: Number(cpu[1]) } : null;
}

/** A ratio line of `delivery-processes.bench.ts compare`: the two means, their ratio and the rounds' spread. */
interface Compared {
  over: number;
  under: number;
  ratio: string;
  rounds: string;
}

/** The comparison's ratio lines by rate: PostgreSQL against SQLite (1 worker), 3 PostgreSQL workers against 1. */
function comparedByRate(output: string): Map<number, { databases?: Compared; workers?: Compared }> {
  const rates = new Map<number, { databases?: Compared; workers?: Compared }>();
  for (const [, rate, what, over, under, ratio, rounds] of output.matchAll(
    /^\s*(\d+)\/s, (1 worker, PostgreSQL against SQLite|PostgreSQL, 3 workers against 1): ([\d.]+) \/ ([\d.]+) ms = ([\d.]+×) \(rounds ([^)]+)\)/gm,
  )) {
    const entry = rates.get(Number(rate)) ?? {};
    entry[what!.startsWith("1 worker") ? "databases" : "workers"] = { over: Number(over), under: Number(under), ratio: ratio!, rounds: rounds! };
    rates.set(Number(rate), entry);
  }
  return rates;
}

/** What PostgreSQL adds to SQLite's CPU per notice at `rate`, its backends' part, and what the aim of 1.2× allows. */
function addedAt(output: string, rate: number): { adds: string; backends: string; allows: string } | null {
  const line = new RegExp(
    `^\\s*${rate}\\/s, what PostgreSQL adds: ([\\d.-]+) ms per notice \\(its backends ([\\d.]+), its processes [\\d.-]+ more than SQLite's\\); 1\\.2 times SQLite allows ([\\d.-]+)`,
    "m",
  ).exec(output);
  return line ? { adds: line[1]!, backends: line[2]!, allows: line[3]! } : null;
}

/** The highest stages retried and lock waits per notice over the comparison's runs of three PostgreSQL workers at `rate`. */
function contentionOfThree(output: string, rate: number): { retries: number; lockWaits: number } | null {
  const runs = [
    ...output.matchAll(
      new RegExp(`^\\s*${rate}\\/s, round \\d+, PostgreSQL, 3 workers: .*\\n\\s*per notice: ([\\d.]+) stages tried again, ([\\d.]+) lock waits`, "gm"),
    ),
  ];
  if (runs.length === 0) return null;
  return { retries: Math.max(...runs.map((r) => Number(r[1]))), lockWaits: Math.max(...runs.map((r) => Number(r[2]))) };
}

const outputOf = (scripts: ScriptResult[], script: string, ...args: string[]) =>
  scripts.find((s) => s.command.includes(`tests/bench/${script}`) && args.every((arg) => s.command.split(" ").includes(arg)))?.output ?? "";

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/** The comparison as a Markdown table; empty when the run has neither database's figures. */
export function postgresAims(scripts: ScriptResult[]): string {
  const rows: string[][] = [];
  const sqlite = pipelineFigures(outputOf(scripts, "pipeline.bench.ts", "sqlite"));
  const postgres = pipelineFigures(outputOf(scripts, "pipeline.bench.ts", "postgres"));
  if (sqlite && postgres) {
    rows.push(["statements per notice (the burst, one process)", `${sqlite.statements}`, `${postgres.statements}`, "", "PostgreSQL at most 40"]);
    rows.push([
      "CPU per notice, ms (the burst, one process, with its backends)",
      `${sqlite.cpu}`,
      `${postgres.cpu}`,
      ratio(postgres.cpu, sqlite.cpu),
      "at most 1.2×",
    ]);
  }
  // Alternated in one script (delivery-processes.bench.ts compare), each pair side by side.
  const output = outputOf(scripts, "delivery-processes.bench.ts", "compare");
  for (const [rate, { databases, workers }] of comparedByRate(output)) {
    if (databases)
      rows.push([
        `CPU per notice, ms, separate processes, 1 worker, ${rate}/s`,
        `${databases.under}`,
        `${databases.over}`,
        `${databases.ratio} (rounds ${databases.rounds})`,
        "at most 1.2×",
      ]);
    const added = addedAt(output, rate);
    if (added)
      rows.push([
        `what PostgreSQL adds to SQLite's CPU per notice, ms, ${rate}/s (its backends' part)`,
        "",
        `${added.adds} (${added.backends})`,
        "",
        `at most ${added.allows}`,
      ]);
    if (workers)
      rows.push([
        `PostgreSQL CPU per notice, ms, 3 workers against 1, ${rate}/s`,
        "",
        `${workers.under} → ${workers.over}`,
        `${workers.ratio} (rounds ${workers.rounds})`,
        "at most 1.10×",
      ]);
    const contention = contentionOfThree(output, rate);
    if (contention)
      rows.push([
        `PostgreSQL, 3 workers, ${rate}/s: stages tried again and lock waits per notice, the highest of the rounds`,
        "",
        `${contention.retries}; ${contention.lockWaits}`,
        "",
        "near zero",
      ]);
  }
  if (rows.length === 0) return "";
  return ["| in this run | SQLite | PostgreSQL | ratio | aim |", "| --- | --- | --- | --- | --- |", ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n");
}

export const BEGIN = "<!-- bench:begin (written by npm run bench) -->";
export const END = "<!-- bench:end -->";

/**
 * The page with its "Latest results" section, between the markers, replaced by `section`: the
 * hand-written text around it is kept. A page without the markers gets the section at its end.
 */
export function withLatestResults(page: string, section: string): string {
  const block = `${BEGIN}\n${section.trim()}\n${END}`;
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END, start);
  return start >= 0 && end > start ? page.slice(0, start) + block + page.slice(end + END.length) : `${page.trimEnd()}\n\n${block}\n`;
}

/** Rewrites the "Latest results" section of docs/benchmarks.md (the earlier results stay in git). */
export function writeDocs(
  root: string,
  m: Machine,
  results: BackendResult[],
  scripts: ScriptResult[],
  command: string,
  date = new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC",
): string {
  const file = path.join(root, "docs", "benchmarks.md");
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  fs.writeFileSync(file, withLatestResults(current, markdownBlock(m, results, scripts, command, date)));
  return file;
}
