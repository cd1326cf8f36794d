import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import nodemailer from "nodemailer";
import { afterAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { type Database, openDatabase } from "../../server/db/database";
import { DEMO_INBOX } from "../../server/seed/demo";
import { PAUSE_POINTS } from "../../server/lib/test-pause";
import { type Backend, backends, createPgDatabase } from "./harness";
import {
  type Product,
  type RelaySink,
  batchOf,
  expectEachOnce,
  freePort,
  killAllGroups,
  killGroup,
  settled,
  spawnProduct,
  startRelaySink,
} from "./product-processes";

// The product is killed with SIGKILL at each stage boundary of the pipeline (the worker waits at
// a named point through the test-only ECFX_TEST_PAUSE_AT hook), restarted on the same data
// folder and database each time, and at the end must have finished every acknowledged notice,
// filed each document once and mailed each recipient once.

/** The worker and the SMTP inbox in one process, answering once the inbox listens. */
async function startProduct(env: Record<string, string>): Promise<Product> {
  const product = spawnProduct(env);
  await product.waitFor("SMTP inbox on port", 90_000);
  return product;
}

describe.each(backends)("crash at every stage boundary (%s)", (backend: Backend) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-crash-stages-"));
  let simulator: CourtSimulator | undefined;
  let relay: RelaySink | undefined;
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>> | undefined;
  let product: Product | undefined;
  let database: Database | undefined;

  afterAll(async () => {
    await killGroup(product);
    killAllGroups();
    await database?.close();
    await relay?.close();
    await simulator?.close();
    await pgDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("finishes every acknowledged notice, files each document once and mails each recipient once", async () => {
    simulator = await startCourtSimulator();
    relay = await startRelaySink();
    pgDb = backend === "postgres" ? await createPgDatabase() : undefined;
    const databaseUrl = pgDb?.url ?? `sqlite:${path.join(dataDir, "ecfx.sqlite")}`;
    const smtpPort = await freePort();
    const env = {
      ECFX_ROLES: "worker,smtp",
      ECFX_DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      ECFX_SMTP_PORT: String(smtpPort),
      ECFX_SMTP_HOST: "127.0.0.1",
      ECFX_COURT_BASE_URL: simulator.url,
      ECFX_SMTP_RELAY_URL: `smtp://127.0.0.1:${relay.port}`,
      ECFX_DEMO: "true",
      ECFX_DEMO_DATA: "true",
      // The live notices only: the generated year of history would file beside them while the test kills.
      ECFX_DEMO_YEAR: "false",
      ECFX_DEMO_PASSWORD: "Crash-Test-Passw0rd",
      ECFX_WORKER_CONCURRENCY: "2",
      LOG_LEVEL: "silent",
    };
    const acknowledged: string[] = [];

    // One run per stage boundary: a fresh batch of notices goes in, the worker stops at the
    // point, and the whole process group is killed there.
    for (const [batch, point] of PAUSE_POINTS.entries()) {
      product = await startProduct({ ...env, ECFX_TEST_PAUSE_AT: point });
      const transport = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, ignoreTLS: true });
      try {
        for (const notice of batchOf(batch)) {
          await transport.sendMail({ envelope: { from: notice.from, to: [DEMO_INBOX] }, raw: notice.raw });
          acknowledged.push(notice.messageId);
        }
      } finally {
        transport.close();
      }
      await product.waitFor(`ECFX paused at ${point}`, 90_000);
      await killGroup(product);
    }

    product = await startProduct(env);
    database = openDatabase(databaseUrl);
    expect(await settled(database, 120_000), product.output().slice(-3000)).toBe("");

    await expectEachOnce(database, acknowledged, relay, dataDir);
  }, 600_000);
});
