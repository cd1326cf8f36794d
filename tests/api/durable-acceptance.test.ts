import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_INBOX } from "../../server/seed/demo";
import { TestBed, batchOf, freePort } from "./product-processes";

// An acknowledged court mail must survive a power cut, not only a crash of the process (decision
// 138). A power cut cannot be staged here, so the test watches the system calls that decide it:
// the compiled product runs on SQLite under strace, and between the SMTP listener's 354 (send the
// message) and its 250 (accepted) the database's WAL must be flushed to disk. Without the flush
// SQLite's `synchronous = NORMAL` leaves the commit in the kernel's cache until a checkpoint.

/** One traced system call: its process, its name, the file it acted on, and what it wrote. */
interface Call {
  name: string;
  target: string;
  text: string;
}

/** `1234 write(17<TCP:[…]>, "250 OK…", 12) = 12` → name, target and the written text. */
function parseTrace(trace: string): Call[] {
  const calls: Call[] = [];
  for (const line of trace.split("\n")) {
    const match = /^\d+\s+(\w+)\(\d+<([^>]*)>(?:, (?:\[\{iov_base=)?"((?:[^"\\]|\\.)*)")?/.exec(line);
    if (match) calls.push({ name: match[1]!, target: match[2]!, text: match[3] ?? "" });
  }
  return calls;
}

const SYNCS = new Set(["fsync", "fdatasync"]);
const WRITES = new Set(["write", "writev", "sendto", "sendmsg"]);

describe("an acknowledged message on SQLite", () => {
  const bed = new TestBed("durable");
  afterAll(() => bed.close());

  it("is flushed to disk before the SMTP listener answers 250", async () => {
    const smtpPort = await freePort();
    const env = {
      ...(await bed.start("sqlite", "Durable-Test-Passw0rd")),
      ECFX_ROLES: "smtp",
      ECFX_SMTP_PORT: String(smtpPort),
      ECFX_SMTP_HOST: "127.0.0.1",
    };
    const traceFile = path.join(bed.dataDir, "strace.txt");
    const strace = ["strace", "-f", "--seccomp-bpf", "-y", "-s", "48", "-e", "trace=fsync,fdatasync,write,writev,sendto,sendmsg", "-o", traceFile];
    const product = bed.spawn(env, strace);
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
});
