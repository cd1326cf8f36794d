// Notices at a steady rate, end to end on SQLite: SMTP delivery → parse → match → document
// fetched from the court simulator → filed on the file-system store → realtime e-mail with the
// PDF captured. Reports the latency from the SMTP reply to each milestone.
// Run: npx tsx tests/bench/delivery.bench.ts [notices per second] [seconds]
import os from "node:os";
import { distinctNotices, percentile, startPipeline, waitUntilDelivered } from "./notice-pipeline";

const RATE = Number(process.argv[2] ?? 20);
const SECONDS = Number(process.argv[3] ?? 15);
const COUNT = RATE * SECONDS;
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50)} ms, p95 ${percentile(sorted, 95)} ms, max ${sorted.at(-1) ?? 0} ms`;
};

async function main() {
  const pipeline = await startPipeline("ecfx-bench-delivery-");
  const { ctx } = pipeline;
  await pipeline.fileAndMail();

  const messages = distinctNotices(COUNT);
  // The whole product runs in this process (SMTP, worker, court simulator, mail capture): its CPU
  // over the run, per notice, is the figure that compares across machines and loads.
  const cpuBefore = process.cpuUsage();
  const started = Date.now();
  const sends: Promise<unknown>[] = [];
  for (let n = 0; n < COUNT; n++) {
    // Paced by the clock, not by the replies: the rate holds even when the product falls behind.
    const due = started + (n * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sends.push(pipeline.send(messages[n]!));
  }
  await Promise.all(sends);
  const sent = Date.now();

  const db = ctx.database.db;
  await waitUntilDelivered(db, COUNT);
  const cpuUsed = process.cpuUsage(cpuBefore);
  const items = await db.selectFrom("inbox_item").select(["id", "created_at", "updated_at", "status"]).execute();
  const mails = new Map(
    (await db.selectFrom("outbound_mail").select(["inbox_item_id", "created_at"]).where("inbox_item_id", "is not", null).execute()).map((m) => [
      m.inbox_item_id!,
      m.created_at,
    ]),
  );
  const files = new Map<string, number>();
  for (const r of await db.selectFrom("dms_record").select(["inbox_item_id", "updated_at"]).where("status", "=", "succeeded").execute()) {
    files.set(r.inbox_item_id, Math.max(files.get(r.inbox_item_id) ?? 0, r.updated_at));
  }
  const toSucceeded = items.filter((i) => i.status === "Succeeded").map((i) => i.updated_at - i.created_at);
  const toMail = items.filter((i) => mails.has(i.id)).map((i) => mails.get(i.id)! - i.created_at);
  const toStored = items.filter((i) => files.has(i.id)).map((i) => files.get(i.id)! - i.created_at);
  const toBoth = items.filter((i) => mails.has(i.id) && files.has(i.id)).map((i) => Math.max(mails.get(i.id)!, files.get(i.id)!) - i.created_at);
  const done = Math.max(...items.map((i) => Math.max(mails.get(i.id) ?? 0, files.get(i.id) ?? 0)));

  const cpu = os.cpus();
  console.log(`notices at a steady rate on SQLite — ${cpu[0]?.model ?? "?"} × ${cpu.length}, load ${os.loadavg()[0]?.toFixed(2)}`);
  console.log(`  offered: ${COUNT} notices at ${RATE}/s over ${SECONDS} s (sent in ${((sent - started) / 1000).toFixed(1)} s)`);
  console.log(
    `  succeeded: ${toSucceeded.length}, mailed: ${toMail.length}, filed: ${toStored.length}; all done ${((done - started) / 1000).toFixed(1)} s after the first`,
  );
  console.log(`  received → Succeeded:          ${summary(toSucceeded)}`);
  console.log(`  received → mail captured:      ${summary(toMail)}`);
  console.log(`  received → documents filed:    ${summary(toStored)}`);
  console.log(`  received → mailed and filed:   ${summary(toBoth)}   (aim p95 < 2000 ms)`);
  console.log(`  CPU of the product: ${((cpuUsed.user + cpuUsed.system) / 1000 / COUNT).toFixed(1)} ms per notice (user and system)`);

  await pipeline.close();
}

void main();
