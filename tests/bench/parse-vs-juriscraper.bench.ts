// Our parser against juriscraper (the open-source parser court e-mails are usually read with), on
// the same e-mails (tests/fixtures/pacer-email), each pinned to one core (taskset when present),
// run alternately, in e-mails per CPU-second and memory.
// Run: npx tsx tests/bench/parse-vs-juriscraper.bench.ts [SECONDS] [ROUNDS]
//
// juriscraper is installed from the Python package registry into a virtual environment under
// tests/.tmp; when Python or the registry is not there, its side is skipped with the reason and
// our own figures are still printed.
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./product";

const run = promisify(execFile);
const corpus = path.join(ROOT, "tests/fixtures/pacer-email");
const seconds = Number(process.argv[2] ?? 5) || 5;
const rounds = Number(process.argv[3] ?? 3) || 3;
const venv = path.join(ROOT, "tests/.tmp/juriscraper-venv");

interface Figures {
  perCpuSecond: number;
  maxRssMb: number;
}

const hasTaskset = spawnSync("taskset", ["--version"]).status === 0;
/** The command pinned to the first core when taskset is there. */
const pinned = (command: string, args: string[]): [string, string[]] => (hasTaskset ? ["taskset", ["-c", "0", command, ...args]] : [command, args]);

async function installJuriscraper(): Promise<{ python: string } | { skipped: string }> {
  const python = path.join(venv, "bin/python");
  if (existsSync(python)) {
    const check = spawnSync(python, ["-c", "import juriscraper"]);
    if (check.status === 0) return { python };
  }
  try {
    mkdirSync(path.dirname(venv), { recursive: true });
    await run("python3", ["-m", "venv", venv], { timeout: 120_000 });
  } catch (error) {
    return { skipped: `juriscraper could not be installed (python3 -m venv failed: ${firstLine(error)})` };
  }
  try {
    await run(path.join(venv, "bin/pip"), ["install", "--disable-pip-version-check", "--retries", "1", "--timeout", "15", "juriscraper"], {
      timeout: 600_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { python };
  } catch (error) {
    return { skipped: `juriscraper could not be installed (pip install juriscraper failed: ${firstLine(error)})` };
  }
}

function firstLine(error: unknown): string {
  const e = error as { stderr?: string; message?: string };
  const text = `${e.stderr ?? ""}`.trim() || `${e.message ?? error}`;
  const lines = text.split("\n").filter((l) => /error|could not|unreachable|timed out|failed/i.test(l));
  return (lines[lines.length - 1] ?? text.split("\n")[0] ?? "").trim().slice(0, 300);
}

// juriscraper's own e-mail parser on the same files, timed by CPU (time.process_time).
const JURISCRAPER_SCRIPT = `
import json, os, resource, sys, time
from juriscraper.pacer.email import NotificationEmail, S3NotificationEmail
corpus, seconds = sys.argv[1], float(sys.argv[2])
messages = []
for sub in ("nef", "nda"):
    d = os.path.join(corpus, sub)
    for name in sorted(os.listdir(d)):
        if name.endswith(".txt"):
            with open(os.path.join(d, name), "rb") as f:
                messages.append(f.read().decode("utf-8", "replace"))
def parse(text):
    try:
        p = S3NotificationEmail("unknown")
        p._parse_text(text)
        p.data
    except Exception:
        pass
for text in messages:
    parse(text)
start = time.process_time(); parsed = 0
while time.process_time() - start < seconds:
    for text in messages:
        parse(text)
    parsed += len(messages)
used = time.process_time() - start
print(json.dumps({"perCpuSecond": parsed / used, "maxRssMb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
`;

/** Our side compiled to JavaScript first, as the product runs it: no TypeScript loader in the measured process. */
async function compileOurs(): Promise<string> {
  const { build } = await import("esbuild");
  const outfile = path.join(ROOT, "tests/.tmp/bench/parse-one-core.mjs");
  await build({
    entryPoints: [path.join(ROOT, "tests/bench/parse-one-core.ts")],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
  return outfile;
}

async function ours(script: string): Promise<Figures> {
  const [command, args] = pinned(process.execPath, [script, corpus, String(seconds)]);
  const { stdout } = await run(command, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Figures;
}

async function theirs(python: string): Promise<Figures> {
  const script = path.join(path.dirname(venv), "juriscraper-bench.py");
  writeFileSync(script, JURISCRAPER_SCRIPT);
  const [command, args] = pinned(python, [script, corpus, String(seconds)]);
  const { stdout } = await run(command, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Figures;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function coldStart(): Promise<string> {
  // The compiled `ecfx parse` command, started afresh each time: wall time, and CPU time (user +
  // system, from /usr/bin/time) which a busy machine does not inflate.
  const file = path.join(ROOT, "tests/fixtures/notices/nda.eml");
  const command = [process.execPath, path.join(ROOT, "scripts/ecfx.mjs"), "parse", file, "--json"];
  spawnSync(command[0] ?? "", command.slice(1), { cwd: ROOT });
  const timed = existsSync("/usr/bin/time");
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    const child = timed
      ? spawnSync("/usr/bin/time", ["-f", "%U %S", ...command], { cwd: ROOT, encoding: "utf8" })
      : spawnSync(command[0] ?? "", command.slice(1), { cwd: ROOT, encoding: "utf8" });
    walls.push(performance.now() - t);
    const [user, sys] = (child.stderr ?? "").trim().split("\n").pop()?.split(" ").map(Number) ?? [];
    if (user !== undefined && sys !== undefined && !Number.isNaN(user + sys)) cpus.push((user + sys) * 1000);
  }
  const cpu = cpus.length ? `, CPU best ${Math.min(...cpus).toFixed(0)} ms, median ${median(cpus).toFixed(0)} ms` : "";
  return `cold start of \`ecfx parse FILE --json\` (compiled): wall best ${Math.min(...walls).toFixed(0)} ms, median ${median(walls).toFixed(0)} ms${cpu}`;
}

async function main(): Promise<void> {
  const juriscraper = await installJuriscraper();
  const lines: string[] = [];
  lines.push(
    `corpus: tests/fixtures/pacer-email (92 e-mails), ${rounds} alternating rounds of ${seconds} CPU-seconds, ${hasTaskset ? "pinned to core 0 with taskset" : "not pinned (no taskset)"}`,
  );
  const ourRuns: Figures[] = [];
  const theirRuns: Figures[] = [];
  const script = await compileOurs();
  for (let i = 0; i < rounds; i++) {
    ourRuns.push(await ours(script));
    if ("python" in juriscraper) theirRuns.push(await theirs(juriscraper.python));
  }
  const ourRate = median(ourRuns.map((r) => r.perCpuSecond));
  const ourRss = Math.max(...ourRuns.map((r) => r.maxRssMb));
  lines.push(
    `ECFX parser: ${ourRate.toFixed(0)} e-mails per CPU-second (median of ${rounds}), ${(1000 / ourRate).toFixed(2)} ms CPU per e-mail, max RSS ${ourRss.toFixed(0)} MB`,
  );
  if ("python" in juriscraper) {
    const theirRate = median(theirRuns.map((r) => r.perCpuSecond));
    const theirRss = Math.max(...theirRuns.map((r) => r.maxRssMb));
    lines.push(`juriscraper: ${theirRate.toFixed(0)} e-mails per CPU-second (median of ${rounds}), max RSS ${theirRss.toFixed(0)} MB`);
    lines.push(`ratio: ${(ourRate / theirRate).toFixed(2)}x juriscraper per CPU-second (aim: at least 5x)`);
  } else {
    lines.push(`juriscraper: skipped: ${juriscraper.skipped.replace(/^juriscraper /, "juriscraper ")}`);
  }
  lines.push(await coldStart());
  console.log(lines.join("\n"));
}

main().then(
  () => process.stdout.write("", () => process.exit(0)),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
