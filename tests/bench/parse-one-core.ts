// One measured run of our parser for parse-vs-juriscraper.bench.ts, in its own process (pinned to
// one core by the caller): parses every e-mail of the corpus for at least SECONDS of CPU time after
// a warm-up, and prints one JSON line: e-mails per CPU-second, CPU per e-mail, memory.
// Run: npx tsx tests/bench/parse-one-core.ts CORPUS_DIR [SECONDS]
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseNoticeEmail } from "../../server/notices";

const corpus = process.argv[2] ?? "";
const seconds = Number(process.argv[3] ?? 5) || 5;
const messages: Buffer[] = [];
for (const sub of ["nef", "nda"]) {
  const dir = path.join(corpus, sub);
  for (const name of readdirSync(dir).sort()) if (name.endsWith(".txt")) messages.push(readFileSync(path.join(dir, name)));
}

// Warm-up so that start-up and JIT compilation are not measured.
for (let i = 0; i < 3; i++) for (const raw of messages) await parseNoticeEmail(raw);
const rssBefore = process.memoryUsage().rss;

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const start = cpu();
let parsed = 0;
while (cpu() - start < seconds) {
  for (const raw of messages) await parseNoticeEmail(raw);
  parsed += messages.length;
}
const used = cpu() - start;
console.log(
  JSON.stringify({
    emails: messages.length,
    parsed,
    cpuSeconds: used,
    perCpuSecond: parsed / used,
    rssBeforeMb: rssBefore / 2 ** 20,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  }),
);
