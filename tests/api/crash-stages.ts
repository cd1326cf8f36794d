import nodemailer from "nodemailer";
import { expect } from "vitest";
import { DEMO_INBOX } from "../../server/seed/demo";
import { PAUSE_POINTS } from "../../server/lib/test-pause";
import type { Backend } from "./harness";
import { type Notice, type Product, type TestBed, batchOf, expectEachOnce, freePort, killGroup, settled } from "./product-processes";

// The product is killed with SIGKILL at stage boundaries of the pipeline (the worker waits at a
// named point through the test-only ECFX_TEST_PAUSE_AT hook), and, when asked, once more while
// two filings race into one folder, restarted on the same data folder and database each time,
// and at the end must have finished every acknowledged notice, filed each document once (the
// files on disk are the records) and mailed each recipient once. The boundaries are shared
// between two files (crash-stages*.test.ts), each on a product of its own, so both run at once.

/**
 * The earlier stage boundaries, up to the file written; the mail's and the race are the other
 * file's. Five product starts each: four kills and the last, two kills, the race's two and the last.
 */
export const EARLY_POINTS = PAUSE_POINTS.slice(0, 4);
export const LATE_POINTS = PAUSE_POINTS.slice(4);

export async function crashAtEachPoint(bed: TestBed, backend: Backend, points: readonly (typeof PAUSE_POINTS)[number][], race: boolean): Promise<void> {
  /** The worker and the SMTP inbox in one process, answering once the inbox listens. */
  async function startProduct(env: Record<string, string>): Promise<Product> {
    const product = bed.spawn(env);
    await product.waitFor("SMTP inbox on port", 90_000);
    return product;
  }

  const smtpPort = await freePort();
  const env = {
    ...(await bed.start(backend, "Crash-Test-Passw0rd")),
    ECFX_ROLES: "worker,smtp",
    ECFX_SMTP_PORT: String(smtpPort),
    ECFX_SMTP_HOST: "127.0.0.1",
  };
  const acknowledged: string[] = [];
  /** Sends the notices to the product's inbox, each acknowledged once the inbox answers. */
  async function deliver(notices: Notice[]): Promise<void> {
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, ignoreTLS: true });
    try {
      for (const notice of notices) {
        await transport.sendMail({ envelope: { from: notice.from, to: [DEMO_INBOX] }, raw: notice.raw });
        acknowledged.push(notice.messageId);
      }
    } finally {
      transport.close();
    }
  }

  // One run per stage boundary: a fresh batch of notices goes in, the worker stops at the
  // point, and the whole process group is killed there.
  for (const point of points) {
    const product = await startProduct({ ...env, ECFX_TEST_PAUSE_AT: point });
    await deliver(batchOf(PAUSE_POINTS.indexOf(point)));
    await product.waitFor(`ECFX paused at ${point}`, 90_000);
    await killGroup(product);
  }

  if (race) {
    // Two notices of one case file documents of one name into one folder at once, with nothing
    // else left to do: the first to record where its file goes waits until the second has
    // recorded its own, writes its file and is killed before recording that it did; the second
    // stands before its write.
    const finishing = await startProduct(env);
    expect(await settled(bed.open(), 120_000), finishing.output().slice(-3000)).toBe("");
    await killGroup(finishing);
    const racing = await startProduct({ ...env, ECFX_TEST_MEET_AT: "file-intended", ECFX_TEST_PAUSE_AT: "file-written" });
    await deliver([batchOf(PAUSE_POINTS.length)[0]!, batchOf(PAUSE_POINTS.length + 1)[0]!]);
    await racing.waitFor("ECFX paused at file-written", 90_000);
    await killGroup(racing);
  }

  const product = await startProduct(env);
  const database = bed.open();
  expect(await settled(database, 120_000), product.output().slice(-3000)).toBe("");

  await expectEachOnce(database, acknowledged, bed.relay, bed.dataDir);
}
