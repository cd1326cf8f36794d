import nodemailer from "nodemailer";
import MailComposer from "nodemailer/lib/mail-composer";
import type { Database } from "../db/database";
import type { Kysely, QueryCreator } from "kysely";
import type { DB, OutboundMailRow } from "../db/schema";
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
  /** Other notices the mail tells about (a digest's, a report's): an ethical wall over any of them hides the mail. */
  noticeIds?: readonly string[];
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/** A mail composed with its own Message-ID, not recorded yet. */
export interface ComposedMail {
  readonly composed: OutboundMailRow;
  /** Every notice the mail tells about, recorded with it (outbound_mail_notice). */
  readonly noticeIds: readonly string[];
}

export interface Mailer {
  readonly transport: "relay" | "captured";
  /** Composes and sends (or captures) at once; for mail whose repetition after a crash does no harm. */
  send(mail: OutgoingMail): Promise<OutboundMailRow>;
  /**
   * Composes the mail with its own Message-ID, recording nothing: composed before a transaction
   * that records it, the mail is not built while the transaction holds the database's write lock.
   */
  compose(mail: OutgoingMail): Promise<ComposedMail>;
  /**
   * Records the mail (composing it first unless it is already composed) as "sending" through `db`
   * (a transaction the caller holds, so the record commits with the caller's own rows). Sends nothing.
   */
  record(db: Kysely<DB>, mail: OutgoingMail | ComposedMail): Promise<OutboundMailRow>;
  /**
   * Sends a recorded mail exactly as composed, so sending it again after a crash repeats the
   * same Message-ID, and marks it sent (captured without a relay) or failed; throws when refused.
   */
  deliver(row: OutboundMailRow): Promise<OutboundMailRow>;
  /** `deliver` without the mark: the outcome, for the caller to record with its own (or through `settle`). */
  transmit(row: OutboundMailRow): Promise<MailOutcome>;
  /** `deliver`'s mark of a transmitted mail: records the outcome; throws when refused. */
  settle(row: OutboundMailRow, outcome: MailOutcome): Promise<OutboundMailRow>;
}

/** What became of a mail given to the relay: sent, captured (no relay) or failed with the relay's error. */
export interface MailOutcome {
  status: string;
  error: string | null;
}

/** The mail's outcome recorded: by `settle`, or inside a caller's statement (a CTE of it). */
export function settlement(db: QueryCreator<DB>, mailId: string, { status, error }: MailOutcome) {
  return db.updateTable("outbound_mail").set({ status, error }).where("id", "=", mailId);
}

/**
 * The one way mail leaves the product. With ECFX_SMTP_RELAY_URL it goes to that relay;
 * without, it is captured: composed exactly as it would be sent and stored for /dev.
 * Either way every message is recorded with its raw MIME.
 */
export function createMailer(options: { database: Database; clock: Clock; from: string; relayUrl?: string }): Mailer {
  const relay = options.relayUrl ? nodemailer.createTransport(options.relayUrl) : undefined;
  const transport = relay ? "relay" : "captured";
  const senderDomain = options.from.split("@").pop() || "ecfx.invalid";

  const mailer: Mailer = {
    transport,
    async compose(mail) {
      const id = newId();
      const messageId = `<${id}@${senderDomain}>`;
      // Nodemailer's composer on its own, without a transport around it: the same message for less CPU.
      const message = await new MailComposer({
        from: options.from,
        to: mail.to,
        replyTo: mail.replyTo || undefined,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId,
        attachments: mail.attachments?.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
      })
        .compile()
        .build();
      const row: OutboundMailRow = {
        id,
        firm_id: mail.firmId,
        purpose: mail.purpose,
        to_addresses: JSON.stringify(mail.to),
        subject: mail.subject,
        text_body: mail.text,
        html_body: mail.html,
        // Kept with Unix line ends, as /dev shows it; delivery gives SMTP its CRLF.
        raw: message.toString("utf8").replace(/\r\n/g, "\n"),
        transport,
        status: "sending",
        error: null,
        created_at: options.clock.now(),
        inbox_item_id: mail.inboxItemId ?? null,
        message_id: messageId,
      };
      return { composed: row, noticeIds: [...new Set([...(mail.inboxItemId ? [mail.inboxItemId] : []), ...(mail.noticeIds ?? [])])] };
    },
    async record(db, mail) {
      const { composed, noticeIds } = "composed" in mail ? mail : await mailer.compose(mail);
      await db.insertInto("outbound_mail").values(composed).execute();
      if (noticeIds.length && composed.firm_id !== null) {
        const firmId = composed.firm_id;
        await db
          .insertInto("outbound_mail_notice")
          .values(noticeIds.map((id) => ({ outbound_mail_id: composed.id, inbox_item_id: id, firm_id: firmId })))
          .execute();
      }
      return composed;
    },
    async deliver(row) {
      return mailer.settle(row, await mailer.transmit(row));
    },
    async transmit(row) {
      if (!relay) return { status: "captured", error: null };
      // Its record must outlast a power cut, or the mail could go out again after one (decision 138).
      await options.database.commitsOnDisk();
      try {
        const to = JSON.parse(row.to_addresses) as string[];
        // SMTP wants CRLF; the record keeps the composed text as /dev shows it.
        await relay.sendMail({ envelope: { from: options.from, to }, raw: row.raw.replace(/\r?\n/g, "\r\n") });
        return { status: "sent", error: null };
      } catch (e) {
        return { status: "failed", error: e instanceof Error ? e.message : String(e) };
      }
    },
    async settle(row, { status, error }) {
      await settlement(options.database.db, row.id, { status, error }).execute();
      if (status === "failed") throw new Error(catalogue("pipeline:relayRefused", { error }));
      return { ...row, status, error };
    },
    async send(mail) {
      // The mail and the notices it names commit together: a mail is never readable without its walls.
      return mailer.deliver(await options.database.db.transaction().execute((trx) => mailer.record(trx, mail)));
    },
  };
  return mailer;
}
