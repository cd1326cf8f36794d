import nodemailer from "nodemailer";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_INBOX } from "../../server/seed/demo";
import { PAUSE_POINTS } from "../../server/lib/test-pause";
import { type Backend, backends } from "./harness";
import { type Product, TestBed, batchOf, expectEachOnce, freePort, killGroup, settled } from "./product-processes";

// The product is killed with SIGKILL at each stage boundary of the pipeline (the worker waits at
// a named point through the test-only ECFX_TEST_PAUSE_AT hook), restarted on the same data
// folder and database each time, and at the end must have finished every acknowledged notice,
// filed each document once and mailed each recipient once.

describe.each(backends)("crash at every stage boundary (%s)", (backend: Backend) => {
  const bed = new TestBed("crash-stages");
  afterAll(() => bed.close());

  /** The worker and the SMTP inbox in one process, answering once the inbox listens. */
  async function startProduct(env: Record<string, string>): Promise<Product> {
    const product = bed.spawn(env);
    await product.waitFor("SMTP inbox on port", 90_000);
    return product;
  }

  it("finishes every acknowledged notice, files each document once and mails each recipient once", async () => {
    const smtpPort = await freePort();
    const env = {
      ...(await bed.start(backend, "Crash-Test-Passw0rd")),
      ECFX_ROLES: "worker,smtp",
      ECFX_SMTP_PORT: String(smtpPort),
      ECFX_SMTP_HOST: "127.0.0.1",
    };
    const acknowledged: string[] = [];

    // One run per stage boundary: a fresh batch of notices goes in, the worker stops at the
    // point, and the whole process group is killed there.
    for (const [batch, point] of PAUSE_POINTS.entries()) {
      const product = await startProduct({ ...env, ECFX_TEST_PAUSE_AT: point });
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

    const product = await startProduct(env);
    const database = bed.open();
    expect(await settled(database, 120_000), product.output().slice(-3000)).toBe("");

    await expectEachOnce(database, acknowledged, bed.relay, bed.dataDir);
  }, 600_000);
});
