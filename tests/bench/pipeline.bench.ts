// End-to-end throughput and latency of the notice pipeline on SQLite: SMTP delivery → parse →
// match → envelope → document fetched from the court simulator → Succeeded.
// Run: npx tsx tests/bench/pipeline.bench.ts [count]
import os from "node:os";
import { distinctNotices, percentile, startPipeline } from "./notice-pipeline";

const COUNT = Number(process.argv[2] ?? 400);

async function main() {
  const pipeline = await startPipeline("ecfx-bench-pipeline-");
  const { ctx } = pipeline;
  await pipeline.createFixtureCase(await pipeline.post("/api/v1/timekeeper", { full_name: "Bench Keeper", email: "bench@firm.test" }));

  const messages = distinctNotices(COUNT);
  const started = Date.now();
  await Promise.all(messages.map((raw) => pipeline.send(raw)));
  const accepted = Date.now();
  for (;;) {
    const open = await ctx.database.db
      .selectFrom("inbox_item")
      .select("id")
      .where("status", "!=", "Succeeded")
      .where("status", "!=", "Action Required")
      .execute();
    if (open.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const rows = await ctx.database.db.selectFrom("inbox_item").select(["created_at", "updated_at", "status"]).execute();
  const done = Math.max(...rows.map((r) => r.updated_at));
  const latencies = rows.map((r) => r.updated_at - r.created_at).sort((a, b) => a - b);
  const succeeded = rows.filter((r) => r.status === "Succeeded").length;
  const cpu = os.cpus();
  console.log(`pipeline end to end on SQLite — ${cpu[0]?.model ?? "?"} × ${cpu.length}`);
  console.log(`  messages: ${COUNT}, succeeded: ${succeeded}`);
  console.log(`  SMTP acceptance: ${(COUNT / ((accepted - started) / 1000)).toFixed(0)} messages/s`);
  console.log(`  end to end: ${(COUNT / ((done - started) / 1000)).toFixed(1)} notices/s (SMTP in → document stored → Succeeded)`);
  console.log(`  latency received → Succeeded: p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms`);
  await pipeline.close();
}

void main();
