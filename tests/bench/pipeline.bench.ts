// End-to-end throughput and latency of the notice pipeline on SQLite: SMTP delivery → parse →
// match → envelope → document fetched from the court simulator → Succeeded.
// Run: npx tsx tests/bench/pipeline.bench.ts [count]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import nodemailer from "nodemailer";
import { buildApi } from "../../server/api/app";
import { openContext } from "../../server/bootstrap";
import { loadConfig } from "../../server/config";
import { startCourtSimulator } from "../../server/courts/simulator";
import { DEMO_INBOX } from "../../server/db/seed/demo";
import { createSmtpListener, listen } from "../../server/inbox/smtp-listener";
import { startWorker } from "../../server/pipeline/worker";

const COUNT = Number(process.argv[2] ?? 400);
const root = path.resolve(import.meta.dirname, "../..");
const notice = fs.readFileSync(path.join(root, "tests/fixtures/notices/nef-district-qp-utf8.eml"), "latin1");

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-bench-pipeline-"));
  const simulator = await startCourtSimulator();
  const config = loadConfig({ ECFX_DATA_DIR: dataDir, ECFX_COURT_BASE_URL: simulator.url, LOG_LEVEL: "silent", ECFX_COURT_CONCURRENCY: "8", ECFX_DEMO_DATA: "false" });
  const ctx = await openContext(config);
  const api = buildApi(ctx);
  await api.listen({ port: 0, host: "127.0.0.1" });
  const apiUrl = `http://127.0.0.1:${(api.server.address() as { port: number }).port}`;
  const smtp = createSmtpListener(ctx, { port: 0, host: "127.0.0.1" });
  const smtpPort = await listen(smtp, 0, "127.0.0.1");
  const worker = startWorker(ctx, config.ECFX_WORKER_CONCURRENCY);

  const token = ((await (await fetch(`${apiUrl}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin@demo.ecfx.test", password: config.ECFX_DEMO_PASSWORD }) })).json()) as { access_token: string }).access_token;
  const post = async (route: string, body: unknown) =>
    ((await (await fetch(`${apiUrl}${route}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body) })).json()) as { id: string }).id;
  const jurisdiction = await post("/api/v1/jurisdiction", { name: "E.D. Tex.", ecfx_jurisdictions: ["txed"] });
  const timekeeper = await post("/api/v1/timekeeper", { full_name: "Bench Keeper", email: "bench@firm.test" });
  const client = await post("/api/v1/client", { name: "Bench Client", unique_key: "B-1" });
  const matter = await post("/api/v1/matter", { name: "Bench Matter", unique_key: "BM-1", client_id: client });
  await post("/api/v1/case", { name: "Bench case", case_number: "2:24-cv-00123", matter_id: matter, jurisdiction_id: jurisdiction, assigned_timekeepers: [timekeeper] });

  // Each message its own Message-ID and court document, so none is a duplicate.
  const messages = Array.from({ length: COUNT }, (_, n) => {
    const docId = `1751${String(n).padStart(6, "0")}12`;
    return notice.replace(/^Message-ID:.*$/im, `Message-ID: <bench-${n}@txed.uscourts.test>`).replace(/175135791113/g, docId).replace(/175035791113/g, docId);
  });
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, pool: true, maxConnections: 10, ignoreTLS: true });
  const started = Date.now();
  await Promise.all(messages.map((raw) => transport.sendMail({ envelope: { from: "txed_cmecf@txed.uscourts.test", to: [DEMO_INBOX] }, raw })));
  const accepted = Date.now();
  for (;;) {
    const open = await ctx.database.db.selectFrom("inbox_item").select("id").where("status", "!=", "Succeeded").where("status", "!=", "Action Required").execute();
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

  transport.close();
  await worker.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await api.close();
  await ctx.database.close();
  await simulator.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

void main();
