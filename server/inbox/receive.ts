import libmime from "libmime";
import addressparser from "nodemailer/lib/addressparser";
import type { ServerContext } from "../context";
import { stripControlCharacters } from "../lib/control-characters";
import { newId } from "../lib/ids";
import { type Insertable, type Kysely, sql } from "kysely";
import type { DB } from "../db/schema";
import { type EventEntry, eventRow, logEvent } from "../queue/event-log";
import { emitWebhookEvent } from "../webhooks/webhook-events";
import { message as text } from "../lib/messages";
import { enqueue, jobRow } from "../queue/queue";
import { columnsOf, selectionOf } from "../queue/logged-change";
import { decodeUtf8OrLegacy } from "../notices/charset";
import { logger } from "../../app/common/logger";

/** What an item holds before processing: no docket, links or case yet, nothing filed. */
export const NOT_YET_PROCESSED = {
  docket_index: null,
  parent_id: null,
  duplicate_of_id: null,
  case_id: null,
  dms_status: "new",
  hidden: 0,
  attempts: 0,
} as const;

export type InboxSource = "SMTP" | "UPLOAD" | "CLI";

export interface IncomingMessage {
  firmId: number;
  raw: Buffer;
  source: InboxSource;
  sender?: string;
  recipients?: string[];
}

const HEADER_END = /\r?\n\r?\n/;

/** The few headers shown before parsing: enough for the inbox list, read without a MIME parser. */
function quickHeaders(raw: Buffer): { messageId: string | null; subject: string; from: string } {
  const start = raw.subarray(0, 64 * 1024);
  const end = start.toString("latin1").search(HEADER_END);
  // Raw 8-bit headers are UTF-8 when they decode as such, else windows-1252, as mail clients read them.
  const head = decodeUtf8OrLegacy(end < 0 ? start : start.subarray(0, end));
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const header = (name: string) => unfolded.match(new RegExp(`^${name}:[ \\t]*(.*)$`, "im"))?.[1]?.trim() ?? null;
  const messageId = header("Message-ID");
  return {
    messageId: messageId ? stripControlCharacters(messageId).slice(0, 500) : null,
    subject: stripControlCharacters(decodeWords(header("Subject") ?? "")).slice(0, 500),
    from: firstAddress(header("From") ?? ""),
  };
}

/** "Clerk <ECF@txed.uscourts.gov>" → "ecf@txed.uscourts.gov"; "" when the header names no address. */
function firstAddress(value: string): string {
  const address = addressparser(decodeWords(value.slice(0, 2000)), { flatten: true }).find((a) => a.address)?.address ?? "";
  return stripControlCharacters(address).toLowerCase().slice(0, 320);
}

/** "=?UTF-8?Q?Pe=C3=B1a?=" → "Peña"; a header that does not decode stays as it came. */
function decodeWords(value: string): string {
  try {
    return libmime.decodeWords(value);
  } catch {
    return value;
  }
}

/**
 * Stores a received message as a New inbox item together with its processing job, in one
 * transaction, on the disk before this returns. The SMTP listener answers 250 only
 * after this returns: an acknowledged message is never lost, not even to a power cut, and the raw
 * bytes are kept so any notice can be processed again.
 */
export async function receiveMessage(ctx: ServerContext, message: IncomingMessage): Promise<string> {
  const id = newId();
  const now = ctx.clock.now();
  const started = process.hrtime.bigint();
  const { messageId, subject, from } = quickHeaders(message.raw);
  const item: Insertable<DB["inbox_item"]> = {
    id,
    firm_id: message.firmId,
    created_at: now,
    updated_at: now,
    status: "New",
    action_required: "NONE",
    disposition: "No Disposition",
    disposition_text: "",
    reason: "",
    source: message.source,
    source_type: "EMAIL",
    raw_content: message.raw,
    raw_size: message.raw.length,
    message_id: messageId,
    sender: (message.sender ?? "").slice(0, 320),
    from_address: from,
    recipients: JSON.stringify(message.recipients ?? []),
    subject,
    snippet: "",
    parsed: null,
    ...NOT_YET_PROCESSED,
  };
  const job = { kind: "process-inbox-item", firmId: message.firmId, refId: id, runAt: now } as const;
  const entry: EventEntry = {
    firmId: message.firmId,
    inboxItemId: id,
    event: "received",
    detail: text("pipeline:events.received", { source: message.source, bytes: message.raw.length }),
    at: now,
  };
  const stored = ctx.database.dialect === "postgres" && (await storedUnheardInOneStatement(ctx.database.db, item, jobRow(job), eventRow(entry)));
  if (!stored)
    await ctx.database.db.transaction().execute(async (trx) => {
      await trx.insertInto("inbox_item").values(item).execute();
      await enqueue(trx, job);
      await logEvent(trx, entry);
      await emitWebhookEvent(trx, { firmId: message.firmId, event: "notice.received", inboxItemId: id, at: now });
    });
  await ctx.database.commitsOnDisk();
  // The first stage of the pipeline's lines (the worker writes the others).
  logger("inbox").info(
    {
      stage: "received",
      itemId: id,
      firmId: message.firmId,
      source: message.source,
      outcome: "stored",
      bytes: message.raw.length,
      ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
    },
    "stage",
  );
  return id;
}

/**
 * On PostgreSQL, the item, its job and its event in one statement (data-modifying CTEs; atomic
 * without a transaction), unless a webhook of the firm may hear of the item: then nothing is
 * written and false says the caller's transaction must, as it reads the subscribers and writes
 * their deliveries. The test on the events' text is wider than the subscription (any mention).
 */
async function storedUnheardInOneStatement(
  db: Kysely<DB>,
  item: Insertable<DB["inbox_item"]>,
  job: Insertable<DB["job"]>,
  event: Insertable<DB["event_log"]>,
): Promise<boolean> {
  const heard = sql<boolean>`exists (select 1 from webhook where firm_id = ${item.firm_id} and enabled = 1 and events like ${"%notice.received%"})`;
  const rows = await db
    .with("stored", (qc) =>
      qc
        .insertInto("inbox_item")
        .columns(columnsOf(item))
        .expression(qc.selectNoFrom(selectionOf(item)).where(sql<boolean>`not ${heard}`))
        .returning("id"),
    )
    .with("queued", (qc) =>
      qc
        .insertInto("job")
        .columns(columnsOf(job))
        .expression(qc.selectFrom("stored").select(selectionOf(job))),
    )
    .with("logged", (qc) =>
      qc
        .insertInto("event_log")
        .columns(columnsOf(event))
        .expression(qc.selectFrom("stored").select(selectionOf(event))),
    )
    .selectFrom("stored")
    .select("id")
    .execute();
  return rows.length > 0;
}

/** The firm an inbox address belongs to, if any. */
export async function firmForAddress(ctx: ServerContext, address: string): Promise<number | undefined> {
  return (await inboxOf(ctx, address))?.firmId;
}

/** The firm an inbox address belongs to and the largest message it takes (0: no limit), if any. */
export async function inboxOf(ctx: ServerContext, address: string): Promise<{ firmId: number; maxBytes: number } | undefined> {
  const row = await ctx.database.db
    .selectFrom("inbox_address")
    .innerJoin("firm", "firm.id", "inbox_address.firm_id")
    .select(["inbox_address.firm_id", "firm.max_email_attachment_size"])
    .where("inbox_address.address", "=", address.trim().toLowerCase())
    .executeTakeFirst();
  return row && { firmId: row.firm_id, maxBytes: Number(row.max_email_attachment_size ?? 0) };
}
