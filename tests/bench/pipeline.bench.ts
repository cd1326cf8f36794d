// End-to-end throughput and latency of the notice pipeline, SQLite or PostgreSQL: SMTP delivery →
// parse → match → envelope → document fetched from the court simulator → Succeeded, for a firm
// that files each notice and mails it with its PDF. Until every notice is also filed and mailed,
// counts the statements the product sends its database per notice (statement-count.ts), with the
// most frequent ones, and the CPU per notice of this process (and of PostgreSQL's backends for
// its database). Run: npx tsx tests/bench/pipeline.bench.ts [count] [sqlite|postgres] [shapes listed]
import os from "node:os";
import { compactDashboardCounts } from "../../server/dashboard/compact-counts";
import { distinctNotices, percentile, startPipeline, waitUntilDelivered } from "./notice-pipeline";
import { type BackendName, findPostgres, prepareData, productCpu } from "./product";
import { countStatements, shapesBetween } from "./statement-count";

const COUNT = Number(process.argv[2] ?? 400);
const BACKEND = (process.argv[3] ?? "sqlite") as BackendName;
const SHAPES = Number(process.argv[4] ?? 0);

/** How the benchmark's waiting reads begin. */
const WAITING = [`select "id" from "inbox_item" where "status" !=`, `select count(*) as "n" from "outbound_mail"`, `select count(*) as "n" from "dms_record"`];

async function main() {
  let pgUrl: string | undefined;
  if (BACKEND === "postgres") {
    const found = await findPostgres();
    if ("reason" in found) {
      console.log(`pipeline end to end on PostgreSQL skipped: ${found.reason}`);
      return;
    }
    pgUrl = found.url;
  }
  const data = await prepareData(BACKEND, pgUrl);
  const counter = countStatements();
  const pipeline = await startPipeline("ecfx-bench-pipeline-", data.env.DATABASE_URL ? { DATABASE_URL: data.env.DATABASE_URL } : {});
  try {
    const { ctx } = pipeline;
    await pipeline.fileAndMail();
    const messages = distinctNotices(COUNT);
    // This process is the whole product; on PostgreSQL its backends for the database count too.
    const backends = productCpu([], data);
    const cpuBefore = process.cpuUsage();
    const backendsBefore = backends();
    const statementsBefore = counter.byShape();
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
    await waitUntilDelivered(ctx.database.db, COUNT);
    const statementsAfter = counter.byShape();
    // On PostgreSQL a worker's compaction folds the dashboard's count rows of the burst every half
    // minute (compact-counts.ts): its work for them is part of what the notices cost.
    await compactDashboardCounts(ctx.database);
    const used = process.cpuUsage(cpuBefore);
    const backendMs = backends() - backendsBefore;
    // The waiting loops' own reads above are the benchmark's, not the product's.
    const shapes = shapesBetween(statementsBefore, statementsAfter).filter(([shape]) => !WAITING.some((prefix) => shape.startsWith(prefix)));
    const statements = shapes.reduce((sum, [, n]) => sum + n, 0);
    const rows = await ctx.database.db.selectFrom("inbox_item").select(["created_at", "updated_at", "status"]).execute();
    const done = Math.max(...rows.map((r) => r.updated_at));
    const latencies = rows.map((r) => r.updated_at - r.created_at).sort((a, b) => a - b);
    const succeeded = rows.filter((r) => r.status === "Succeeded").length;
    const cpu = os.cpus();
    const ownMs = (used.user + used.system) / 1000;
    console.log(
      `pipeline end to end on ${BACKEND === "sqlite" ? "SQLite" : "PostgreSQL"} — ${cpu[0]?.model ?? "?"} × ${cpu.length}, load ${os.loadavg()[0]?.toFixed(2)}`,
    );
    console.log(`  messages: ${COUNT}, succeeded: ${succeeded}`);
    console.log(`  SMTP acceptance: ${(COUNT / ((accepted - started) / 1000)).toFixed(0)} messages/s`);
    console.log(`  end to end: ${(COUNT / ((done - started) / 1000)).toFixed(1)} notices/s (SMTP in → document stored → Succeeded)`);
    console.log(`  latency received → Succeeded: p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms`);
    console.log(`  statements per notice, until filed and mailed: ${(statements / COUNT).toFixed(1)}`);
    console.log(
      `  CPU per notice until filed and mailed: ${((ownMs + backendMs) / COUNT).toFixed(1)} ms (this process, with the court simulator and the mail sender, ${(ownMs / COUNT).toFixed(1)}; database backends ${(backendMs / COUNT).toFixed(1)})`,
    );
    for (const [shape, n] of shapes.slice(0, SHAPES)) console.log(`    ${(n / COUNT).toFixed(2).padStart(6)}  ${shape}`);
  } finally {
    await pipeline.close();
    counter.restore();
    await data.cleanup();
  }
}

void main();
