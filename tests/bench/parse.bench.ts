// Parse throughput on the court e-mail corpus (tests/fixtures/pacer-email). Run: npx tsx tests/bench/parse.bench.ts [seconds]
// Single process, single thread: the figure is per core.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseNoticeEmail } from "../../server/notices";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const corpus = path.join(projectRoot, "tests/fixtures/pacer-email");
const seconds = Number(process.argv[2] ?? 5) || 5;

const messages: Buffer[] = [];
for (const sub of ["nef", "nda"]) {
  const dir = path.join(corpus, sub);
  for (const name of readdirSync(dir).sort()) if (name.endsWith(".txt")) messages.push(readFileSync(path.join(dir, name)));
}
if (messages.length === 0) {
  console.error(`no corpus messages under ${corpus}`);
  process.exit(1);
}

// Warm-up so that JIT compilation is not measured.
for (const raw of messages) await parseNoticeEmail(raw);

const latencies: number[] = [];
const kinds = new Map<string, number>();
const started = performance.now();
const deadline = started + seconds * 1000;
while (performance.now() < deadline) {
  for (const raw of messages) {
    const t = performance.now();
    const result = await parseNoticeEmail(raw);
    latencies.push(performance.now() - t);
    kinds.set(result.kind, (kinds.get(result.kind) ?? 0) + 1);
  }
}
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
const bytes = messages.reduce((n, m) => n + m.length, 0);
console.log(`corpus: ${messages.length} messages, ${(bytes / 1024).toFixed(0)} KB`);
console.log(`parsed: ${latencies.length} messages in ${elapsed.toFixed(2)} s (${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")})`);
console.log(`throughput: ${(latencies.length / elapsed).toFixed(0)} notices/s`);
console.log(`latency per notice: p50 ${pct(50).toFixed(3)} ms, p95 ${pct(95).toFixed(3)} ms, max ${(latencies[latencies.length - 1] ?? 0).toFixed(3)} ms`);
