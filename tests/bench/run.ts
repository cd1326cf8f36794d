// `npm run bench [-- --requests N] [-- --only sqlite|postgres] [-- --no-docs]`
//
// For SQLite and, when a server is reachable, PostgreSQL: seeds a large firm into a temporary
// data folder with `ecfx seed --size large` (timed), starts the product with the console and
// API roles on free ports, and measures sequential request latency (p50/p95) of case searches
// through the API and of the console's case list page. Then runs the notice parser benchmark and
// the comparison with juriscraper on one core and the delivery benchmark (notices at a steady
// rate, in → filed and mailed), and sizes the scripts the sign-in and list pages send.
// Prints a table with the machine it ran on and rewrites the "Latest results" section of
// docs/benchmarks.md (between its markers; the rest of the page is how to run each benchmark).
import { type BackendResult, type ScriptResult, consolePageTable, machine, machineLine, postgresAims, terminalTable, writeDocs } from "./report";
import { type BackendName, ROOT, findPostgres, prepareData, runBenchScript, runSeed, startProduct } from "./product";
import { runApiSearches, runConsolePage } from "./search";

interface Options {
  requests: number;
  only?: BackendName;
  docs: boolean;
}

function options(argv: string[]): Options {
  const opts: Options = { requests: 200, docs: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--requests") opts.requests = Math.max(1, Number(argv[++i]) || 200);
    else if (arg === "--only") opts.only = argv[++i] === "postgres" ? "postgres" : "sqlite";
    else if (arg === "--no-docs") opts.docs = false;
  }
  return opts;
}

async function benchBackend(backend: BackendName, requests: number, pgUrl?: string): Promise<BackendResult> {
  const result: BackendResult = { backend, summaries: [], failures: [] };
  const data = await prepareData(backend, pgUrl);
  try {
    console.log(`[${backend}] seeding a large firm…`);
    const seed = await runSeed(data);
    result.seedSeconds = seed.seconds;
    result.seedOutput = seed.output;
    console.log(seed.output.trimEnd().replace(/^/gm, `[${backend}]   `));
    console.log(`[${backend}] starting the product…`);
    const product = await startProduct(data);
    result.startupSeconds = product.startupMs / 1000;
    console.log(`[${backend}] answered ${product.startupMs.toFixed(0)} ms after it was started (compiled JavaScript)`);
    try {
      console.log(`[${backend}] API searches (${requests} requests each)…`);
      const api = await runApiSearches(product.apiUrl, requests, product.cpuMs);
      result.summaries.push(...api.summaries);
      result.totalCases = api.totalCases;
      console.log(`[${backend}] console page…`);
      try {
        const pages = await runConsolePage(product, requests);
        result.summaries.push(pages.page.summary, pages.bare.summary);
        result.consolePages = pages;
      } catch (error) {
        result.failures.push(`console page: ${(error as Error).message}`);
      }
    } finally {
      await product.stop();
    }
  } catch (error) {
    result.failures.push((error as Error).message);
  } finally {
    await data.cleanup();
  }
  return result;
}

async function main(): Promise<number> {
  const opts = options(process.argv.slice(2));
  const m = machine();
  console.log(`Machine: ${machineLine(m)}`);
  const results: BackendResult[] = [];
  if (opts.only !== "postgres") results.push(await benchBackend("sqlite", opts.requests));
  if (opts.only !== "sqlite") {
    const pgServer = await findPostgres();
    if ("url" in pgServer) results.push(await benchBackend("postgres", opts.requests, pgServer.url));
    else {
      console.log(`PostgreSQL benchmark SKIPPED: ${pgServer.reason}`);
      results.push({ backend: "postgres", skipped: pgServer.reason, summaries: [], failures: [] });
    }
  }
  console.log("Notice parser and delivery benchmarks…");
  const scripts: ScriptResult[] = [];
  for (const [title, script, args] of SCRIPTS)
    scripts.push({ title, command: ["npx tsx", `tests/bench/${script}`, ...args].join(" "), output: await runBenchScript(script, args) });
  console.log(`\nMachine: ${machineLine(m)}`);
  for (const r of results) {
    console.log(r.skipped ? `${r.backend}: SKIPPED (${r.skipped})` : `${r.backend}: seed ${r.seedSeconds?.toFixed(1)} s, ${r.totalCases ?? "?"} cases`);
  }
  console.log(`\n${terminalTable(results)}\n`);
  console.log(`${consolePageTable(results)}\n`);
  for (const r of results) for (const f of r.failures) console.log(`${r.backend} FAILED: ${f}`);
  for (const r of scripts) console.log(`\n${r.title}:\n${r.output}`);
  const aims = postgresAims(scripts);
  if (aims) console.log(`\nPostgreSQL against SQLite, and three workers against one:\n${aims}`);
  if (opts.docs) {
    const args = process.argv.slice(2);
    const command = args.length ? `npm run bench -- ${args.join(" ")}` : "npm run bench";
    console.log(`\nWrote ${writeDocs(ROOT, m, results, scripts, command)}`);
  }
  return results.some((r) => r.failures.length) ? 1 : 0;
}

/** The benchmarks that run as scripts of their own, after the search benchmarks. */
const SCRIPTS: [title: string, script: string, args: string[]][] = [
  ["Notice parser", "parse.bench.ts", []],
  ["Notice parser against juriscraper, one core", "parse-vs-juriscraper.bench.ts", ["5", "3"]],
  // With the statements each notice sends its database, the most frequent listed.
  ["A burst of 400 notices: pipeline throughput, SQLite", "pipeline.bench.ts", ["400", "sqlite", "12"]],
  ["A burst of 400 notices: pipeline throughput, PostgreSQL", "pipeline.bench.ts", ["400", "postgres", "12"]],
  ["Notices at 20/s: in → filed and mailed", "delivery.bench.ts", ["20", "15"]],
  // From 10/s: the slower machines seen hold 10–17/s, and a run stops once a rate falls far behind.
  ["Highest steady rate, separate processes, SQLite, 1 worker", "delivery-processes.bench.ts", ["sqlite", "1", "10,15,20,30,40,50,60", "10"]],
  // One worker per core: on SQLite the workers take turns at its one writer.
  ["Highest steady rate, separate processes, SQLite, 2 workers", "delivery-processes.bench.ts", ["sqlite", "2", "10,15,20,30,40,50,60", "10"]],
  ["Highest steady rate, separate processes, PostgreSQL, 1 worker", "delivery-processes.bench.ts", ["postgres", "1", "10,15,20,30,40,50", "10"]],
  ["Highest steady rate, separate processes, PostgreSQL, 3 workers", "delivery-processes.bench.ts", ["postgres", "3", "10,15,20,30,40,50", "10"]],
  // Issue #46's aims 2 and 3 as ratios of runs made side by side: the sweeps above run minutes apart.
  ["CPU per notice, SQLite and PostgreSQL with 1 worker and PostgreSQL with 3, alternated", "delivery-processes.bench.ts", ["compare", "10,20", "15", "2"]],
  ["The firm's record read with and without a logo", "firm-read.bench.ts", ["2000"]],
  ["The dashboard for last year, 1,000,000 notices over two years", "dashboard.bench.ts", ["1000000", "100"]],
  ["Every core against one process: console page and API search throughput", "every-core.bench.ts", ["15"]],
  ["Scripts a page sends before and after it is interactive", "client-scripts.bench.ts", []],
];

// Exit once stdout has drained: output to a pipe is written asynchronously.
const exit = (code: number) => process.stdout.write("", () => process.exit(code));
main().then(exit, (error: unknown) => {
  console.error(error);
  exit(1);
});
