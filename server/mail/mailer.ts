import nodemailer from "nodemailer";
import type { Database } from "../db/database";
import type { OutboundMailRow } from "../db/schema";
import type { Clock } from "../lib/clock";
import { newId } from "../lib/ids";
import { message as catalogue } from "../lib/messages";

export interface OutgoingMail {
  firmId: number | null;
  purpose: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** The inbox item the mail tells about, so each item keeps a record of what was sent. */
  inboxItemId?: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface Mailer {
  readonly transport: "relay" | "captured";
  send(mail: OutgoingMail): Promise<OutboundMailRow>;
}

/**
 * The one way mail leaves the product. With ECFX_SMTP_RELAY_URL it goes to that relay;
 * without, it is captured: composed exactly as it would be sent and stored for /dev.
 * Either way every message is recorded with its raw MIME.
 */
export function createMailer(options: { database: Database; clock: Clock; from: string; relayUrl?: string }): Mailer {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const relay = options.relayUrl ? nodemailer.createTransport(options.relayUrl) : undefined;
  const transport = relay ? "relay" : "captured";

  return {
    transport,
    async send(mail) {
      const message = {
        from: options.from,
        to: mail.to,
        replyTo: mail.replyTo || undefined,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments?.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
      };
      const composed = await composer.sendMail(message);
      const raw = Buffer.isBuffer(composed.message) ? composed.message.toString("utf8") : String(composed.message);
      let status = "captured";
      let error: string | null = null;
      if (relay) {
        try {
          await relay.sendMail(message);
          status = "sent";
        } catch (e) {
          status = "failed";
          error = e instanceof Error ? e.message : String(e);
        }
      }
      const row: OutboundMailRow = {
        id: newId(),
        firm_id: mail.firmId,
        purpose: mail.purpose,
        to_addresses: JSON.stringify(mail.to),
        subject: mail.subject,
        text_body: mail.text,
        html_body: mail.html,
        raw,
        transport,
        status,
        error,
        created_at: options.clock.now(),
        inbox_item_id: mail.inboxItemId ?? null,
      };
      await options.database.db.insertInto("outbound_mail").values(row).execute();
      if (status === "failed") throw new Error(catalogue("pipeline:relayRefused", { error }));
      return row;
    },
  };
}
