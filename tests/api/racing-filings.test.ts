import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { createSmtpListener, listen } from "../../server/inbox/smtp-listener";
import { startWorker } from "../../server/jobs/worker";
import { PIPELINE_JOBS } from "../../server/pipeline/job-handlers";
import { DEMO_INBOX } from "../../server/seed/demo";
import { firmStorageRoot } from "../../server/storage/dms-targets";
import { storeInboxItem } from "../../server/storage/store-inbox-item";
import { type RunningApi, backends, startApi } from "./harness";
import { batchOf } from "./product-processes";

// Two notices of one case file a document of the same name into the same folder at the same
// time. The process dies after one has written its file and before it recorded success, while
// the other stands between recording where its file goes and writing it. The retries must end
// with each record holding a file of its own and no file without a record.

describe.each(backends)("two filings racing into one folder, stopped between a write and its record (%s)", (backend) => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let smtpPort = 0;
  let closeSmtp: () => Promise<void>;
  let demoFirmId = 0;
  const db = () => running.ctx.database.db;
  const storeRoot = () => path.join(firmStorageRoot(running.ctx.config.fileStoreRoot, demoFirmId), "demo-firm");
  /** Every file in the store, a kill's temporary files included. */
  const filesInStore = () =>
    fs
      .readdirSync(storeRoot(), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(storeRoot(), path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
      .sort();

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    running = await startApi({ backend, env: { ECFX_COURT_BASE_URL: simulator.url, ECFX_DEMO_DATA: "true" } });
    const smtp = createSmtpListener(running.ctx, { port: 0, host: "127.0.0.1" });
    smtpPort = await listen(smtp, 0, "127.0.0.1");
    closeSmtp = () => new Promise((resolve) => smtp.close(() => resolve()));
    demoFirmId = (await db().selectFrom("firm").select("id").where("name", "=", "Demo Law LLP").executeTakeFirstOrThrow()).id;
  });

  afterAll(async () => {
    await closeSmtp?.();
    await running?.close();
    await simulator?.close();
  });

  it("keeps one file per record and leaves no file without one", async () => {
    // Two notices of one case and day: their documents and notice PDFs have the same names and other bytes.
    const notices = [batchOf(0)[0]!, batchOf(1)[0]!];
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, ignoreTLS: true });
    for (const notice of notices) await transport.sendMail({ envelope: { from: notice.from, to: [DEMO_INBOX] }, raw: notice.raw });
    transport.close();
    const worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
    await worker.drain();
    await worker.stop();
    const items = await db()
      .selectFrom("inbox_item")
      .select(["id", "message_id"])
      .where(
        "message_id",
        "in",
        notices.map((n) => n.messageId),
      )
      .execute();
    const [first, second] = notices.map((n) => items.find((item) => item.message_id === n.messageId)!.id) as [string, string];
    // Filed again from nothing: no record, no file.
    await db().deleteFrom("dms_record").execute();
    fs.rmSync(storeRoot(), { recursive: true, force: true });

    // Both filings choose their document's name at the same moment: the look at the name each
    // found free on disk waits for the other's. Then the first to write waits until the second
    // gets to its write; it writes its file, and the process dies with both records as they are.
    const { lstat, link } = fsp;
    const bothChoosing = meeting();
    const bothWriting = meeting();
    let writer = "";
    const spies = [
      vi.spyOn(fsp, "lstat").mockImplementation(async (file, options) => {
        await bothChoosing.arrive();
        return lstat(file, options as { bigint: false });
      }),
      vi.spyOn(fsp, "link").mockImplementation(async (existing, final) => {
        if (await bothWriting.arrive()) {
          await link(existing, final);
          writer = String(final);
        }
        return new Promise<never>(() => undefined);
      }),
    ];
    try {
      void storeInboxItem(running.ctx, first, 1);
      void storeInboxItem(running.ctx, second, 1);
      await vi.waitFor(() => expect(writer).not.toBe(""), { timeout: 30_000 });
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }

    // After the restart each filing is tried again, the one that wrote first.
    const writtenHash = createHash("sha256").update(fs.readFileSync(writer)).digest("hex");
    const wrote = await db().selectFrom("dms_record").select("inbox_item_id").where("content_hash", "=", writtenHash).executeTakeFirstOrThrow();
    const order = wrote.inbox_item_id === first ? [first, second] : [second, first];
    for (const id of order) await storeInboxItem(running.ctx, id, 2);

    const records = await db().selectFrom("dms_record").select(["status", "location", "content_hash"]).execute();
    expect(records.map((r) => r.status)).toEqual(Array(records.length).fill("succeeded"));
    expect(records.length).toBe(4);
    expect(filesInStore()).toEqual(records.map((r) => r.location!).sort());
    for (const record of records) {
      const bytes = fs.readFileSync(path.join(storeRoot(), record.location!));
      expect(createHash("sha256").update(bytes).digest("hex"), record.location!).toBe(record.content_hash);
    }
  }, 120_000);
});

/**
 * Two callers meeting: the first to arrive waits for the second, then both go on. `arrive`
 * answers true to the first of the two; later callers pass at once with false.
 */
function meeting(): { arrive(): Promise<boolean> } {
  let arrived = 0;
  let meet: () => void = () => undefined;
  const met = new Promise<void>((resolve) => (meet = resolve));
  return {
    async arrive() {
      const turn = ++arrived;
      if (turn === 2) meet();
      if (turn <= 2) await met;
      return turn === 1;
    },
  };
}
