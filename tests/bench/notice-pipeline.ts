// What the pipeline benchmarks share: a fresh SQLite product (API, SMTP listener, worker) against
// the court simulator, the demo admin's API, and notices that are never duplicates of each other.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import nodemailer from "nodemailer";
import { buildApi } from "../../server/api/app";
import { openContext } from "../../server/bootstrap";
import { loadConfig } from "../../server/config";
import { startCourtSimulator } from "../../server/courts/simulator";
import type { DB } from "../../server/db/schema";
import { DEMO_INBOX } from "../../server/seed/demo";
import { createSmtpListener, listen } from "../../server/inbox/smtp-listener";
import { startWorker } from "../../server/queue/worker";
import { createLogger } from "../../app/common/logger";
import { PIPELINE_JOBS } from "../../server/job-handlers";

const root = path.resolve(import.meta.dirname, "../..");
const notice = fs.readFileSync(path.join(root, "tests/fixtures/notices/nef-district-qp-utf8.eml"), "latin1");

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** The E.D. Tex. fixture notice, `count` times, each with its own Message-ID and court document. */
export function distinctNotices(count: number): string[] {
  return Array.from({ length: count }, (_, n) => {
    const docId = `1751${String(n).padStart(6, "0")}12`;
    return notice
      .replace(/^Message-ID:.*$/im, `Message-ID: <bench-${n}@txed.uscourts.test>`)
      .replace(/175135791113/g, docId)
      .replace(/175035791113/g, docId);
  });
}

/** Waits until `total` notices are mailed and their documents filed (two minutes at most). */
export async function waitUntilDelivered(db: Kysely<DB>, total: number): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    const mailed = await db
      .selectFrom("outbound_mail")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("inbox_item_id", "is not", null)
      .executeTakeFirst();
    const filed = await db
      .selectFrom("dms_record")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "succeeded")
      .where("what", "=", "document")
      .executeTakeFirst();
    if (Number(mailed?.n) >= total && Number(filed?.n) >= total) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `env` adds to the product's settings: DATABASE_URL for PostgreSQL. */

/** Creates through the API as the demo admin; the new row's id. */
export type BenchPost = (route: string, body: unknown) => Promise<string>;

/** Signs the demo admin in to the API at `apiUrl`: the admin's token and a poster as the admin. */
export async function apiAsAdmin(apiUrl: string, password: string): Promise<{ token: string; post: BenchPost }> {
  const login = await fetch(`${apiUrl}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin@demo.ecfx.test", password }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const post: BenchPost = async (route, body) => {
    const res = await fetch(`${apiUrl}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { id: string };
    if (!res.ok) throw new Error(`${route}: ${res.status} ${JSON.stringify(json)}`);
    return json.id;
  };
  return { token, post };
}

/** The case the fixture notice is about, assigned to `timekeeper`. */
export async function createBenchCase(post: BenchPost, timekeeper: string): Promise<void> {
  const jurisdiction = await post("/api/v1/jurisdiction", { name: "E.D. Tex.", ecfx_jurisdictions: ["txed"] });
  const client = await post("/api/v1/client", { name: "Bench Client", unique_key: "B-1" });
  const matter = await post("/api/v1/matter", { name: "Bench Matter", unique_key: "BM-1", client_id: client });
  await post("/api/v1/case", {
    name: "Bench case",
    case_number: "2:24-cv-00123",
    matter_id: matter,
    jurisdiction_id: jurisdiction,
    assigned_timekeepers: [timekeeper],
  });
}

/**
 * A firm as one using the product has it: a timekeeper on the fixture's case in a group mailed
 * each notice with its PDF, and a storage policy filing the documents and the e-mail; answers the
 * policy's id, for the firm to take.
 */
export async function fileAndMailSetup(post: BenchPost): Promise<string> {
  const timekeeper = await post("/api/v1/timekeeper", { full_name: "Bench Keeper", email: "bench@firm.test" });
  await post("/api/v1/timekeeper-group", {
    name: "Realtime PDF",
    time_zone: "America/Chicago",
    delivery_method: "PDF",
    notification_cadence: "REALTIME",
    timekeeper_ids: [timekeeper],
  });
  await createBenchCase(post, timekeeper);
  const store = await post("/api/v1/generic-credential", { name: "Bench store", field: "bench" });
  return post("/api/v1/storage-policy", { name: "Bench policy", dms_credential_id: store, store_documents: true, store_email: "eml" });
}

export async function startPipeline(prefix: string, env: Record<string, string> = {}) {
  // The listener's line per notice would bury the figures; the worker keeps its own (below).
  process.env.ECFX_LOG_LEVEL ??= "warn";
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const simulator = await startCourtSimulator();
  const config = loadConfig({
    ECFX_DATA_DIR: dataDir,
    ECFX_COURT_BASE_URL: simulator.url,
    LOG_LEVEL: "silent",
    ECFX_COURT_CONCURRENCY: "8",
    ECFX_DEMO_DATA: "false",
    ...env,
  });
  const ctx = await openContext(config);
  const api = buildApi(ctx);
  await api.listen({ port: 0, host: "127.0.0.1" });
  const apiUrl = `http://127.0.0.1:${(api.server.address() as { port: number }).port}`;
  const smtp = createSmtpListener(ctx, { port: 0, host: "127.0.0.1" });
  const smtpPort = await listen(smtp, 0, "127.0.0.1");
  // The worker writes its line per stage as a firm's does (info), to nowhere: the cost stays, the noise goes.
  const worker = startWorker(ctx, PIPELINE_JOBS, config.ECFX_WORKER_CONCURRENCY, {
    log: createLogger({ level: "info", stream: { write: () => undefined } }),
  });

  const { post } = await apiAsAdmin(apiUrl, config.ECFX_DEMO_PASSWORD);
  const createFixtureCase = (timekeeper: string) => createBenchCase(post, timekeeper);
  const fileAndMail = async () => {
    const policy = await fileAndMailSetup(post);
    await ctx.database.db.updateTable("firm").set({ storage_policy_id: policy }).where("is_default", "=", 1).execute();
  };
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, pool: true, maxConnections: 10, ignoreTLS: true });
  const send = (raw: string) => transport.sendMail({ envelope: { from: "txed_cmecf@txed.uscourts.test", to: [DEMO_INBOX] }, raw });

  return {
    ctx,
    post,
    createFixtureCase,
    fileAndMail,
    send,
    async close() {
      transport.close();
      await worker.stop();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await api.close();
      await ctx.database.close();
      await simulator.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
