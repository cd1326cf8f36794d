import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "../db/database";
import { systemClock } from "../lib/clock";
import { createMailer } from "./mailer";

const database = openDatabase("sqlite::memory:");
const received: string[] = [];
let relay: SMTPServer;
let port = 0;

beforeAll(async () => {
  await migrateToLatest(database);
  relay = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push(Buffer.concat(chunks).toString("utf8"));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  port = (relay.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => relay.close(() => resolve()));
  await database.close();
});

const mail = { firmId: null, purpose: "test", to: ["someone@firm.test"], subject: "Hello <there>", text: "Plain", html: "<p>Plain</p>" };

describe("mailer", () => {
  it("without a relay captures the composed message and records it", async () => {
    const mailer = createMailer({ database, clock: systemClock, from: "no-reply@ecfx.test" });
    const row = await mailer.send(mail);
    expect(row.transport).toBe("captured");
    expect(row.status).toBe("captured");
    const parsed = await simpleParser(row.raw);
    expect(parsed.subject).toBe("Hello <there>");
    expect(parsed.text?.trim()).toBe("Plain");
  });

  it("with a relay sends over SMTP and records the message as sent", async () => {
    const mailer = createMailer({ database, clock: systemClock, from: "no-reply@ecfx.test", relayUrl: `smtp://127.0.0.1:${port}` });
    const row = await mailer.send({ ...mail, replyTo: "docketing@firm.test" });
    expect(row.status).toBe("sent");
    expect(received).toHaveLength(1);
    const parsed = await simpleParser(received[0]!);
    expect(parsed.to && "text" in parsed.to ? parsed.to.text : "").toBe("someone@firm.test");
    expect(parsed.replyTo?.text).toBe("docketing@firm.test");
  });

  it("composes the message Nodemailer's own transport would, with Unix line ends", async () => {
    const mailer = createMailer({ database, clock: systemClock, from: "no-reply@ecfx.test" });
    const outgoing = {
      ...mail,
      to: ["a@firm.test", "b@firm.test"],
      replyTo: "docket@firm.test",
      subject: "Résumé — a long subject with ünïcode that folds over more than one header line",
      text: "line one\r\nline two\n\nJosé Núñez",
      html: "<p>one</p>\r\n<p>two</p>",
      attachments: [{ filename: "Exhibit A – Declaration.pdf", content: Buffer.alloc(100_000, 7), contentType: "application/pdf" }],
    };
    const { composed } = await mailer.compose(outgoing);
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
    const { replyTo, to, subject, text, html, attachments } = outgoing;
    const expected = await transport.sendMail({ from: "no-reply@ecfx.test", to, replyTo, subject, text, html, attachments, messageId: composed.message_id! });
    // Only the boundaries (random) and the date may differ.
    const same = (raw: string) => raw.replace(/--_NmP-[0-9a-f]+-Part_/g, "--boundary-").replace(/^Date: .*$/m, "Date:");
    expect(composed.raw).not.toContain("\r\n");
    expect(same(composed.raw)).toBe(same(expected.message.toString()));
  });

  it("composes a mail without recording it, and records exactly that message later", async () => {
    const mailer = createMailer({ database, clock: systemClock, from: "no-reply@ecfx.test" });
    const before = await database.db.selectFrom("outbound_mail").select("id").execute();
    const composed = await mailer.compose({ ...mail, subject: "Composed first" });
    expect(await database.db.selectFrom("outbound_mail").select("id").execute()).toEqual(before);
    const row = await database.db.transaction().execute((trx) => mailer.record(trx, composed));
    expect(row).toEqual(composed.composed);
    const stored = await database.db.selectFrom("outbound_mail").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(stored.raw).toBe(composed.composed.raw);
    expect(stored.status).toBe("sending");
    expect((await simpleParser(stored.raw)).messageId).toBe(stored.message_id);
  });

  it("records a mail before sending it, and sends it again as the same message", async () => {
    const mailer = createMailer({ database, clock: systemClock, from: "no-reply@ecfx.test", relayUrl: `smtp://127.0.0.1:${port}` });
    const before = received.length;
    const row = await mailer.record(database.db, mail);
    expect(row.status).toBe("sending");
    expect(row.message_id).toMatch(/^<.+@ecfx\.test>$/);
    expect(received).toHaveLength(before);
    const stored = await database.db.selectFrom("outbound_mail").select(["status", "message_id"]).where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: "sending", message_id: row.message_id });

    expect((await mailer.deliver(row)).status).toBe("sent");
    await mailer.deliver(row);
    const ids = await Promise.all(received.slice(before).map(async (raw) => (await simpleParser(raw)).messageId));
    expect(ids).toEqual([row.message_id, row.message_id]);
  });

  it("records a refused message as failed and says so", async () => {
    const mailer = createMailer({ database, clock: systemClock, from: "no-reply@ecfx.test", relayUrl: "smtp://127.0.0.1:1" });
    await expect(mailer.send(mail)).rejects.toThrow(/relay refused/);
    const failed = await database.db.selectFrom("outbound_mail").selectAll().where("status", "=", "failed").execute();
    expect(failed).toHaveLength(1);
  });

  it("sends nothing before the mail's record is on the disk", async () => {
    const events: string[] = [];
    const flushing = { ...database, commitsOnDisk: async () => void events.push(`flushed with ${received.length} received`) };
    const mailer = createMailer({ database: flushing, clock: systemClock, from: "no-reply@ecfx.test", relayUrl: `smtp://127.0.0.1:${port}` });
    const before = received.length;
    await mailer.send(mail);
    expect(events).toEqual([`flushed with ${before} received`]);
    expect(received).toHaveLength(before + 1);
  });
});
