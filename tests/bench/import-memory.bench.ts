// Memory of reading a large import file. Run: npx tsx tests/bench/import-memory.bench.ts [megabytes]
// Writes a clients file of the given size (20 MB unless told), reads it the way an import does
// (the check, then every line again in batches) and prints the largest resident set size seen.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { importLines, readImportFile } from "../../server/resources/import-file";
import { SERVER_RESOURCES } from "../../server/resources/registry";

const megabytes = Number(process.argv[2] ?? 20) || 20;
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-import-bench-"));
const file = path.join(folder, "clients.csv");
const out = fs.createWriteStream(file);
out.write("name,unique_key\n");
let rows = 0;
for (let written = 0; written < megabytes * 1024 * 1024; rows++) {
  const line = `Client number ${rows} ${"x".repeat(60)},K-${rows}\n`;
  out.write(line);
  written += line.length;
}
await new Promise((resolve) => out.end(resolve));

let peak = 0;
const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
const timer = setInterval(sample, 5);
const before = process.memoryUsage().rss;
const res = SERVER_RESOURCES.find((r) => r.def.key === "clients")!;
const checked = await readImportFile(res, file, { keys: ["unique_key"] });
let lines = 0;
for await (const _line of importLines(checked)) {
  lines++;
  if (lines % 250 === 0) sample();
}
clearInterval(timer);
sample();
fs.rmSync(folder, { recursive: true, force: true });
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
console.log(`import file ${megabytes} MB, ${rows} lines (${checked.count} counted, ${lines} read again)`);
console.log(`resident set: ${mb(before)} before, ${mb(peak)} at most (the sync keys of ${checked.keys.unique_key!.size} lines included)`);
