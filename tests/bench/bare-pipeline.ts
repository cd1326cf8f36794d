// The least a pipeline of this stack does for one notice, measured in the benchmark's own process
// before the product starts: the reference that says how fast the machine is at the product's kind
// of work, so that CPU per notice reads as a ratio on any machine. For each notice: mailparser reads
// the message, SQLite (WAL, as the product sets it) keeps it in a transaction, the message is
// written to a file of its own and synced, and Nodemailer's composer builds a mail that SQLite keeps.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { simpleParser } from "mailparser";
import MailComposer from "nodemailer/lib/mail-composer";

const WARM_UP = 20;

/** CPU per notice (user and system, this process) of the bare pipeline over `messages`. */
export async function barePipelineCpu(messages: string[]): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-bare-"));
  const db = new SQLite(path.join(dir, "bare.sqlite"));
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.exec(`create table notice (id integer primary key, message_id text, subject text, body text, raw blob);
      create table mail (id integer primary key, notice_id integer references notice (id), raw text)`);
    const keepNotice = db.prepare("insert into notice (message_id, subject, body, raw) values (?, ?, ?, ?)");
    const keepMail = db.prepare("insert into mail (notice_id, raw) values (?, ?)");
    const oneNotice = async (raw: string) => {
      const parsed = await simpleParser(raw);
      const id = db.transaction(() => keepNotice.run(parsed.messageId ?? "", parsed.subject ?? "", parsed.text ?? "", Buffer.from(raw)).lastInsertRowid)();
      const file = await fs.promises.open(path.join(dir, `${id}.eml`), "wx");
      try {
        await file.writeFile(raw);
        await file.sync();
      } finally {
        await file.close();
      }
      const mail = await new MailComposer({
        from: "no-reply@bench.test",
        to: "someone@bench.test",
        subject: parsed.subject ?? "",
        text: parsed.text ?? "",
        html: parsed.html || undefined,
      })
        .compile()
        .build();
      db.transaction(() => keepMail.run(id, mail.toString("utf8")))();
    };
    for (const raw of messages.slice(0, WARM_UP)) await oneNotice(raw);
    const before = process.cpuUsage();
    for (const raw of messages) await oneNotice(raw);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / messages.length;
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
