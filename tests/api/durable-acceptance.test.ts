import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_INBOX } from "../../server/seed/demo";
import { TestBed, batchOf, freePort, killGroup, settled } from "./product-processes";

// An acknowledged court mail must survive a power cut, not only a crash of the process (decision
// 138). A power cut cannot be staged here, so the tests watch the system calls that decide it:
// the compiled product runs on SQLite under strace. Between the SMTP listener's 354 (send the
// message) and its 250 (accepted) the database's WAL must be flushed to disk: without the flush
// SQLite's `synchronous = NORMAL` leaves the commit in the kernel's cache until a checkpoint. And a
// fetched document's bytes must be on the disk before they get their name, which their row follows.

/** One traced system call: its name, the file it acted on, what it wrote, and for a rename or link the new name. */
interface Call {
  name: string;
  target: string;
  text: string;
  to?: string;
}

/**
 * `1234 write(17<TCP:[…]>, "250 OK…", 12) = 12` → name, target and the written text;
 * `1234 rename("/…/a.tmp", "/…/a") = 0` (or renameat, link, linkat) → name, target and `to`.
 */
function parseTrace(trace: string): Call[] {
  const calls: Call[] = [];
  for (const line of trace.split("\n")) {
    const rename = /^\d+\s+(rename\w*|link\w*)\((?:[^"]*, )?"([^"]*)", (?:[^"]*, )?"([^"]*)"/.exec(line);
    if (rename) calls.push({ name: rename[1]!, target: rename[2]!, text: "", to: rename[3]! });
    const match = /^\d+\s+(\w+)\(\d+<([^>]*)>(?:, (?:\[\{iov_base=)?"((?:[^"\\]|\\.)*)")?/.exec(line);
    if (match) calls.push({ name: match[1]!, target: match[2]!, text: match[3] ?? "" });
  }
  return calls;
}

/** strace writing to `file`: every process and thread, file names for descriptors, these calls only. */
const straceInto = (file: string, calls: string) => ["strace", "-f", "--seccomp-bpf", "-y", "-s", "256", "-e", `trace=${calls}`, "-o", file];

const SYNCS = new Set(["fsync", "fdatasync"]);
const WRITES = new Set(["write", "writev", "sendto", "sendmsg"]);

describe("an acknowledged message on SQLite", () => {
  const bed = new TestBed("durable");
  afterAll(() => bed.close());
  /** The product's settings, kept for the second test's worker. */
  let env: Record<string, string> = {};

  it("is flushed to disk before the SMTP listener answers 250", async () => {
    const smtpPort = await freePort();
    env = {
      ...(await bed.start("sqlite", "Durable-Test-Passw0rd")),
      ECFX_ROLES: "smtp",
      ECFX_SMTP_PORT: String(smtpPort),
      ECFX_SMTP_HOST: "127.0.0.1",
    };
    const traceFile = path.join(bed.dataDir, "acceptance.strace");
    const product = bed.spawn(env, straceInto(traceFile, "fsync,fdatasync,write,writev,sendto,sendmsg"));
    await product.waitFor("SMTP inbox on port", 90_000);

    const notices = batchOf(0, "durable").slice(0, 2);
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, ignoreTLS: true });
    try {
      for (const notice of notices) await transport.sendMail({ envelope: { from: notice.from, to: [DEMO_INBOX] }, raw: notice.raw });
    } finally {
      transport.close();
    }
    const items = await bed
      .open()
      .db.selectFrom("inbox_item")
      .select("message_id")
      .where(
        "message_id",
        "in",
        notices.map((n) => n.messageId),
      )
      .execute();
    expect(items).toHaveLength(2);

    const calls = parseTrace(fs.readFileSync(traceFile, "utf8"));
    // Each message, ours and the demo's own live notices: from the listener's 354 to the 250 that
    // follows it on the same connection.
    const accepted = calls.flatMap((call, start) => {
      if (!WRITES.has(call.name) || !call.text.startsWith("354 ")) return [];
      const end = calls.findIndex((c, i) => i > start && WRITES.has(c.name) && c.target === call.target && c.text.startsWith("250 "));
      return end === -1 ? [] : [calls.slice(start, end)];
    });
    expect(accepted.length).toBeGreaterThanOrEqual(notices.length);
    for (const between of accepted) expect(between.filter((c) => SYNCS.has(c.name)).map((c) => path.basename(c.target))).toContain("ecfx.sqlite-wal");
  });
  it("has a fetched document's bytes on the disk before their name, in the blobs and in the firm's file store", async () => {
    // The worker alone on the same data: it processes the notices the first test left.
    const traceFile = path.join(bed.dataDir, "blobs.strace");
    const product = bed.spawn({ ...env, ECFX_ROLES: "worker" }, straceInto(traceFile, "fsync,fdatasync,rename,renameat,renameat2,link,linkat"));
    const database = bed.open();
    // Every notice finished: its documents fetched into the blobs, then filed with its e-mail.
    expect(await settled(database, 90_000), product.output().slice(-3000)).toBe("");
    await killGroup(product);
    const filed = await database.db.selectFrom("dms_record").select("id").where("status", "=", "succeeded").execute();
    expect(filed.length).toBeGreaterThanOrEqual(4);

    const calls = parseTrace(fs.readFileSync(traceFile, "utf8"));
    const under = (folder: string) => calls.flatMap((call, at) => (call.to?.startsWith(path.join(bed.dataDir, folder)) ? [at] : []));
    const named = [...under("blobs"), ...under("dms")];
    expect(under("blobs").length).toBeGreaterThanOrEqual(2);
    // Each notice files its document and its e-mail.
    expect(under("dms").length).toBeGreaterThanOrEqual(4);
    for (const at of named) {
      const { target: temporary, to } = calls[at]!;
      const synced = (file: string) => (c: Call) => SYNCS.has(c.name) && c.target === file;
      expect(calls.slice(0, at).some(synced(temporary)), `${temporary} flushed before it is named`).toBe(true);
      expect(calls.slice(at).some(synced(path.dirname(to!))), `${path.dirname(to!)} flushed after the name`).toBe(true);
    }
  });
});
