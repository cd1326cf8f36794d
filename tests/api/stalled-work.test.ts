import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { createSmtpListener, listen } from "../../server/inbox/smtp-listener";
import { startWorker } from "../../server/queue/worker";
import { firmStorageRoot } from "../../server/dms/dms-targets";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { requeueStalledWork } from "../../server/pipeline/requeue-stalled";
import { sendDigest } from "../../server/notify/send-digest";
import { DEMO_INBOX } from "../../server/seed/demo";
import { demoNotices } from "../../server/seed/demo-notices";
import { storeInboxItem } from "../../server/filing/store-inbox-item";
import { type RunningApi, backends, startApi } from "./harness";
import { batchOf } from "./product-processes";

// What a crash leaves behind, written straight into the database (or, for two filings racing into
// one folder, stopped where it happens), and what the worker's sweep and the jobs make of it: an
// item whose job is gone, a file written but not recorded, a mail recorded but not marked.

const SOURCE = demoNotices()[0]!;
const RECOVERY = "requeued after an interruption";

describe.each(backends)("work a crash left half done (%s)", (backend) => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let smtpPort = 0;
  let closeSmtp: () => Promise<void>;
  let itemId = "";
  let demoFirmId = 0;
  const db = () => running.ctx.database.db;
  const eventsOf = async (id: string) =>
    await db().selectFrom("event_log").select(["event", "detail"]).where("inbox_item_id", "=", id).orderBy("created_at").execute();
  /** Runs the jobs until none is due, as a worker of the product does (sweep included). */
  const work = async () => {
    const worker = startWorker(running.ctx, PIPELINE_JOBS, 2, { requeueStalled: requeueStalledWork });
    await worker.drain();
    await worker.stop();
  };
  const storeRoot = () => path.join(firmStorageRoot(running.ctx.config.fileStoreRoot, demoFirmId), "demo-firm");
  const filesInStore = () =>
    fs
      .readdirSync(storeRoot(), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.endsWith(".properties.json"))
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

  it("queues an item whose job was lost again, says so in its history, and finishes it", async () => {
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, ignoreTLS: true });
    await transport.sendMail({ envelope: { from: SOURCE.from, to: [DEMO_INBOX] }, raw: SOURCE.raw });
    transport.close();
    const item = await db().selectFrom("inbox_item").select(["id", "status"]).where("parent_id", "is", null).executeTakeFirstOrThrow();
    itemId = item.id;
    expect(item.status).toBe("New");
    await db().deleteFrom("job").where("ref_id", "=", itemId).execute();

    expect(await requeueStalledWork(running.ctx)).toBe(1);
    expect(await db().selectFrom("job").select("kind").where("ref_id", "=", itemId).execute()).toEqual([{ kind: "process-inbox-item" }]);
    expect((await eventsOf(itemId)).map((e) => e.event)).toContain(RECOVERY);
    // Once queued, the item is no longer stalled.
    expect(await requeueStalledWork(running.ctx)).toBe(0);

    await work();
    const done = await db().selectFrom("inbox_item").select(["status", "dms_status"]).where("id", "=", itemId).executeTakeFirstOrThrow();
    expect(done).toEqual({ status: "Succeeded", dms_status: "succeeded" });
    expect(await db().selectFrom("job").select("id").execute()).toEqual([]);
    expect(await requeueStalledWork(running.ctx)).toBe(0);
  });

  it("adopts the file an interrupted write left instead of storing it again, and sends no mail twice", async () => {
    const filesBefore = filesInStore();
    const [record] = await db()
      .selectFrom("dms_record")
      .select(["id", "location", "attempts"])
      .where("inbox_item_id", "=", itemId)
      .where("what", "=", "document")
      .execute();
    expect(record?.location).toBeTruthy();
    // The file is in place, but the crash came before its record was marked.
    await db().updateTable("dms_record").set({ status: "writing", intended_location: record!.location, location: null }).where("id", "=", record!.id).execute();
    await db().updateTable("inbox_item").set({ dms_status: "started" }).where("id", "=", itemId).execute();

    // One mail went out before the crash but its row was not marked; the other was recorded and never sent.
    const rows = await db()
      .selectFrom("notification")
      .select(["id", "outbound_mail_id"])
      .where("inbox_item_id", "=", itemId)
      .where("status", "=", "sent")
      .orderBy("email")
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const [sentBefore, notSent] = rows as [(typeof rows)[number], (typeof rows)[number]];
    await db().updateTable("notification").set({ status: "sending" }).where("id", "in", [sentBefore.id, notSent.id]).execute();
    await db().updateTable("outbound_mail").set({ status: "sending" }).where("id", "=", notSent.outbound_mail_id).execute();
    const mailsBefore = await db().selectFrom("outbound_mail").select(["id", "message_id"]).where("inbox_item_id", "=", itemId).orderBy("id").execute();

    expect(await requeueStalledWork(running.ctx)).toBe(2);
    await work();

    const adopted = await db().selectFrom("dms_record").select(["status", "location", "attempts"]).where("id", "=", record!.id).executeTakeFirstOrThrow();
    // The attempt that adopted the copy is counted, with the record's one write of it.
    expect(adopted).toEqual({ status: "succeeded", location: record!.location, attempts: record!.attempts + 1 });
    expect(filesInStore()).toEqual(filesBefore);
    expect((await eventsOf(itemId)).some((e) => e.event === "stored" && e.detail.includes("interrupted attempt"))).toBe(true);

    const after = await db()
      .selectFrom("notification")
      .select(["id", "status", "outbound_mail_id"])
      .where("id", "in", [sentBefore.id, notSent.id])
      .orderBy("id")
      .execute();
    expect(after.every((row) => row.status === "sent")).toBe(true);
    expect(after.map((row) => row.outbound_mail_id).sort()).toEqual([sentBefore.outbound_mail_id, notSent.outbound_mail_id].sort());
    // No new message: the unsent one went as recorded, with its Message-ID.
    expect(await db().selectFrom("outbound_mail").select(["id", "message_id"]).where("inbox_item_id", "=", itemId).orderBy("id").execute()).toEqual(
      mailsBefore,
    );
    const resent = await db().selectFrom("outbound_mail").select("status").where("id", "=", notSent.outbound_mail_id).executeTakeFirstOrThrow();
    expect(resent.status).toBe("captured");
    expect((await eventsOf(itemId)).filter((e) => e.event === "notification sent again")).toHaveLength(1);
  });

  it("writes a copy of its own when the file at the name a record from before paths were kept intended is another filing's of the same bytes", async () => {
    const filesBefore = filesInStore();
    const record = await db().selectFrom("dms_record").selectAll().where("inbox_item_id", "=", itemId).where("what", "=", "document").executeTakeFirstOrThrow();
    const taken = record.location!;
    // This filing was stopped after recording the free name and before writing. Another filing of
    // the same document (another notice of the same filing) then chose that free name and wrote
    // it: the file there has this filing's bytes but is the other's. Both records are from before
    // the path below the firm's root was kept, which no two records may hold.
    await db()
      .updateTable("dms_record")
      .set({ status: "writing", intended_location: taken, intended_path: null, location: null })
      .where("id", "=", record.id)
      .execute();
    await db()
      .insertInto("dms_record")
      .values({
        ...record,
        id: "another-filing",
        inbox_item_id: "another-notice",
        document_id: "another-document",
        intended_location: taken,
        intended_path: null,
      })
      .execute();
    await db().updateTable("inbox_item").set({ dms_status: "started" }).where("id", "=", itemId).execute();

    expect(await requeueStalledWork(running.ctx)).toBeGreaterThanOrEqual(1);
    await work();

    const own = await db().selectFrom("dms_record").select(["status", "location"]).where("id", "=", record.id).executeTakeFirstOrThrow();
    expect(own.status).toBe("succeeded");
    expect(own.location).not.toBe(taken);
    expect(filesInStore()).toEqual([...filesBefore, own.location!].sort());
    expect(fs.readFileSync(path.join(storeRoot(), own.location!))).toEqual(fs.readFileSync(path.join(storeRoot(), taken)));
    const stored = (await eventsOf(itemId)).filter((e) => e.event === "stored").at(-1);
    expect(stored?.detail).toContain(own.location!);
    expect(stored?.detail).not.toContain("interrupted attempt");
    await db().deleteFrom("dms_record").where("id", "=", "another-filing").execute();
  });

  it("sends a digest an interrupted attempt recorded at most once more, as the same message, and only marks one that went out", async () => {
    const firmId = demoFirmId;
    const now = Date.now();
    const line = (id: string, email: string) => ({
      id,
      firm_id: firmId,
      inbox_item_id: itemId,
      timekeeper_id: null,
      timekeeper_group_id: null,
      email,
      cadence: "digest",
      delivery_method: "WEB_LINK",
      status: "pending",
      reason: "",
      outbound_mail_id: null,
      digest_run_id: null,
      created_at: now,
      sent_at: null,
    });
    await db()
      .insertInto("notification")
      .values([line("digest-went-out", "went.out@lawfirm.test"), line("digest-not-sent", "not.sent@lawfirm.test")])
      .execute();
    const schedule = { key: `firm:${firmId}`, firmId, groupId: null, timeZone: "UTC", time: "07:00", activityReport: false };
    // A first attempt records both digests, then stops: one had left, the other had not.
    const mailer = running.ctx.mailer;
    const deliver = mailer.deliver;
    let delivered = 0;
    mailer.deliver = async (row) => {
      if (delivered++ === 0) return deliver(row);
      throw new Error("killed");
    };
    await expect(sendDigest(running.ctx, schedule, "run-1")).rejects.toThrow("killed");
    mailer.deliver = deliver;
    const lines = () => db().selectFrom("notification").select(["id", "status", "outbound_mail_id"]).where("cadence", "=", "digest").orderBy("id").execute();
    const interrupted = await lines();
    expect(interrupted.map((l) => l.status).sort()).toEqual(["sending", "sent"]);
    const mailIds = interrupted.map((l) => l.outbound_mail_id).sort();

    await sendDigest(running.ctx, schedule, "run-2");
    const after = await lines();
    expect(after.every((l) => l.status === "sent")).toBe(true);
    // No new message: the recorded one went out as it was.
    expect(after.map((l) => l.outbound_mail_id).sort()).toEqual(mailIds);
    const mails = await db().selectFrom("outbound_mail").select(["id", "status"]).where("purpose", "=", "digest").execute();
    expect(mails.map((m) => m.id).sort()).toEqual(mailIds);
    expect(mails.every((m) => m.status === "captured")).toBe(true);

    // A further run finds nothing to send.
    await sendDigest(running.ctx, schedule, "run-3");
    expect(await db().selectFrom("outbound_mail").select("id").where("purpose", "=", "digest").execute()).toHaveLength(2);
  });

  it("sends a filing failure report a crash left recorded but unsent, once, and only that one", async () => {
    const report = {
      firmId: demoFirmId,
      purpose: "dms-failure",
      to: ["dms-admin@lawfirm.test"],
      inboxItemId: itemId,
      subject: "DMS storage failed",
      text: "could not be stored",
      html: "<p>could not be stored</p>",
    };
    // Recorded as the failure's transaction records it, with no job to send it (a crash between the
    // two, or a report recorded before its sending was a job); and one already sent.
    const unsent = await running.ctx.mailer.record(db(), report);
    const sent = await running.ctx.mailer.send(report);
    expect(sent.status).toBe("captured");
    const delivered: string[] = [];
    const mailer = running.ctx.mailer;
    const deliver = mailer.deliver;
    mailer.deliver = async (row) => {
      delivered.push(row.id);
      return deliver(row);
    };
    try {
      expect(await requeueStalledWork(running.ctx)).toBe(1);
      expect(await db().selectFrom("job").select(["kind", "ref_id"]).execute()).toEqual([{ kind: "deliver-mail", ref_id: unsent.id }]);
      expect((await eventsOf(itemId)).at(-1)).toEqual({ event: RECOVERY, detail: "the filing failure report was recorded but never sent; sending it" });
      expect(await requeueStalledWork(running.ctx)).toBe(0);
      await work();
    } finally {
      mailer.deliver = deliver;
    }
    expect(delivered).toEqual([unsent.id]);
    const mails = await db().selectFrom("outbound_mail").select(["id", "status", "message_id"]).where("id", "in", [unsent.id, sent.id]).orderBy("id").execute();
    expect(mails.every((m) => m.status === "captured")).toBe(true);
    expect(mails.find((m) => m.id === unsent.id)?.message_id).toBe(unsent.message_id);
    expect(await db().selectFrom("job").select("id").execute()).toEqual([]);
  });

  it("keeps one file per record and leaves no file without one when two filings race into one folder and stop between a write and its record", async () => {
    // Two notices of one case and day: their documents and notice PDFs have the same names and other bytes.
    const notices = [batchOf(0)[0]!, batchOf(1)[0]!];
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, ignoreTLS: true });
    for (const notice of notices) await transport.sendMail({ envelope: { from: notice.from, to: [DEMO_INBOX] }, raw: notice.raw });
    transport.close();
    await work();
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
