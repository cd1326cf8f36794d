import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { openDatabase } from "../../server/db/database";
import { DEMO_INBOX } from "../../server/seed/demo";
import { BUILD_PRODUCT_MS, buildServerOnce } from "./build-once";
import { type Product, freePort, killGroup, settled, spawnProduct } from "./product-processes";

const root = path.resolve(import.meta.dirname, "../..");
const notice = fs.readFileSync(path.join(root, "tests/fixtures/notices/nef-district-qp-utf8.eml"), "latin1");
const TOTAL = 500;
const KILL_AFTER = 200;

/** The product, answering once its SMTP inbox listens. */
async function start(env: Record<string, string>): Promise<Product> {
  const product = spawnProduct(env);
  await product.waitFor("SMTP inbox on port", 90_000);
  return product;
}

const withMessageId = (n: number) => notice.replace(/^Message-ID:.*$/im, `Message-ID: <crash-${n}@txed.uscourts.test>`);

describe("crash safety of the SMTP inbox", () => {
  beforeAll(buildServerOnce, BUILD_PRODUCT_MS);
  let simulator: CourtSimulator | undefined;
  let server: Product | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-crash-"));

  afterAll(async () => {
    await killGroup(server);
    await simulator?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps every acknowledged message exactly once across a SIGKILL and processes it after restart", async () => {
    simulator = await startCourtSimulator();
    const env = {
      ECFX_ROLES: "api,worker,smtp",
      ECFX_DATA_DIR: dataDir,
      ECFX_API_PORT: String(await freePort()),
      ECFX_SMTP_PORT: String(await freePort()),
      ECFX_SMTP_HOST: "127.0.0.1",
      ECFX_COURT_BASE_URL: simulator.url,
      ECFX_DEMO_PASSWORD: "Crash-Test-Passw0rd",
      ECFX_DEMO_DATA: "false",
      LOG_LEVEL: "info",
    };
    server = await start(env);
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: Number(env.ECFX_SMTP_PORT), pool: true, maxConnections: 10, ignoreTLS: true });
    const acknowledged = new Set<number>();
    let killed = false;
    await Promise.all(
      Array.from({ length: TOTAL }, async (_, n) => {
        try {
          await transport.sendMail({ envelope: { from: "txed_cmecf@txed.uscourts.test", to: [DEMO_INBOX] }, raw: withMessageId(n) });
          acknowledged.add(n);
          if (!killed && acknowledged.size >= KILL_AFTER) {
            killed = true;
            await killGroup(server);
          }
        } catch {
          // Not acknowledged: the sender would try again later; nothing is promised for it.
        }
      }),
    );
    transport.close();
    expect(killed).toBe(true);
    expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(acknowledged.size).toBeLessThan(TOTAL);

    server = await start(env);
    const database = openDatabase(`sqlite:${path.join(dataDir, "ecfx.sqlite")}`);
    try {
      expect(await settled(database, 120_000), server.output().slice(-3000)).toBe("");
      const rows = await database.db.selectFrom("inbox_item").select(["message_id", "status"]).where("parent_id", "is", null).execute();
      const counts = new Map<string, number>();
      for (const row of rows) counts.set(row.message_id ?? "", (counts.get(row.message_id ?? "") ?? 0) + 1);
      for (const n of acknowledged) expect(counts.get(`<crash-${n}@txed.uscourts.test>`), `message ${n}`).toBe(1);
      expect(rows.every((r) => !["New", "Started", "Retry", "Post Processing"].includes(r.status))).toBe(true);
    } finally {
      await database.close();
    }
  }, 240_000);
});
