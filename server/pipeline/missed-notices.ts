import type { Kysely } from "kysely";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import type { FirmRecord } from "../../app/common/firm-schema";
import { featureEnabled } from "../firm/entitled-features";
import { findFirm } from "../firm/firm-repository";
import { COURT_FEED } from "../inbox/receive-docket-entry";
import { logEvent } from "../queue/event-log";
import { enqueue } from "../queue/queue";
import { escapeHtml } from "../lib/html";
import { newId } from "../lib/ids";
import { message } from "../lib/messages";
import { OPEN_STATUSES } from "./item-state";
import { type DocketFeedEntry, docketEntryNotice, parseDocketFeed } from "../notices/docket-feed";
import { wallsForCase } from "../walls/walls";

// Missed-notice reconciliation of ECFX Track (decision 095): an entry of a tracked case's docket
// feed for which no e-mail notice came within the firm's hours raises one Action Required item on
// its case and mails the firm's missed-notice recipients, so a firm learns when its mailbox or a
// court's mail failed. A notice that comes after the item links to it and resolves it.

const HOUR_MS = 3_600_000;
/** A text-only entry names no document: a text-only notice of its case from a day before it on counts as its notice. */
const TEXT_ONLY_LEAD_MS = 24 * HOUR_MS;

/** Queues the firm's next check unless another than `current` is queued already: one chain per firm. */
export async function scheduleMissedNoticeCheck(db: Kysely<DB>, firmId: number, runAt: number, current?: string): Promise<void> {
  let queued = db.selectFrom("job").select("id").where("kind", "=", "check-missed-notices").where("ref_id", "=", String(firmId));
  if (current) queued = queued.where("id", "!=", current);
  if (!(await queued.executeTakeFirst())) await enqueue(db, { kind: "check-missed-notices", firmId, refId: String(firmId), runAt });
}

/** Whether the firm has anything the check watches: a tracked case, an entry still to check, or a missed notice still waiting for a person. */
export async function hasMissedNoticeWork(db: Kysely<DB>, firmId: number): Promise<boolean> {
  const [tracked, unchecked, open] = await Promise.all([
    db.selectFrom("case_tracking").select("case_id").where("firm_id", "=", firmId).where("state", "=", "TRACKED").executeTakeFirst(),
    db
      .selectFrom("case_docket_entry")
      .select("entry_key")
      .where("firm_id", "=", firmId)
      .where("checked_at", "is", null)
      .where("period_id", "is not", null)
      .executeTakeFirst(),
    db
      .selectFrom("missed_notice")
      .innerJoin("inbox_item", "inbox_item.id", "missed_notice.inbox_item_id")
      .select("missed_notice.entry_key")
      .where("missed_notice.firm_id", "=", firmId)
      .where("missed_notice.resolved_at", "is", null)
      .where("inbox_item.status", "=", "Action Required")
      .executeTakeFirst(),
  ]);
  return Boolean(tracked || unchecked || open);
}

/**
 * The "check-missed-notices" job of a firm: resolves the missed notices whose e-mail notice has
 * come since, raises one for each tracked entry past the firm's hours without one, and queues the
 * next check ECFX_TRACK_POLL_MINUTES later while there is anything to watch.
 */
export async function checkMissedNotices(ctx: ServerContext, firmId: number, current: string): Promise<void> {
  const db = ctx.database.db;
  const firm = await findFirm(ctx.database, firmId);
  if (!firm) return;
  if (featureEnabled(firm, "ECFX_TRACK")) {
    await resolveLateNotices(ctx, firmId);
    await raiseMissedNotices(ctx, firm);
  }
  if (await hasMissedNoticeWork(db, firmId))
    await scheduleMissedNoticeCheck(db, firmId, ctx.clock.now() + ctx.config.ECFX_TRACK_POLL_MINUTES * 60_000, current);
}

/** A tracked entry as the check reads it: the entry itself, its case and the item tracking made of it. */
interface TrackedEntry {
  firmId: number;
  caseId: string;
  entryKey: string;
  trackItemId: string;
  publishedAt: number;
  feedEntry: DocketFeedEntry;
  /** The court document the entry names (its free-look digit cleared, as documents keep it), or null for a text-only entry. */
  documentId: string | null;
}

function trackedEntry(row: {
  firm_id: number;
  case_id: string;
  entry_key: string;
  inbox_item_id: string;
  published_at: number;
  raw_content: Buffer;
}): TrackedEntry | null {
  const feedEntry = parseDocketFeed(row.raw_content.toString("utf8"))[0];
  if (!feedEntry) return null;
  const parsed = docketEntryNotice(feedEntry).parsed;
  const documentId = parsed.kind === "notice" ? (parsed.notice.dockets[0]?.docket_entries[0]?.pacer_doc_id ?? null) : null;
  return {
    firmId: row.firm_id,
    caseId: row.case_id,
    entryKey: row.entry_key,
    trackItemId: row.inbox_item_id,
    publishedAt: Number(row.published_at),
    feedEntry,
    documentId,
  };
}

/**
 * The first e-mail notice (not a court feed's entry) received for the entry, if any: one filed on
 * the case with the entry's court document, one the pipeline linked to the entry's item as a
 * duplicate, or, for a text-only entry, a text-only notice of the case received since a day before it.
 */
async function noticeOf(db: Kysely<DB>, entry: TrackedEntry): Promise<{ id: string; created_at: number } | undefined> {
  const { documentId } = entry;
  const found = await db
    .selectFrom("inbox_item")
    .select(["inbox_item.id", "inbox_item.created_at"])
    .where("inbox_item.firm_id", "=", entry.firmId)
    // The notices of the case only (an index leads there), and none read from a court's feed.
    .where("inbox_item.case_id", "=", entry.caseId)
    .where("inbox_item.source_type", "!=", COURT_FEED)
    .where((eb) =>
      eb.or([
        eb("inbox_item.duplicate_of_id", "=", entry.trackItemId),
        documentId
          ? eb.exists(
              eb
                .selectFrom("document")
                .select("document.id")
                .whereRef("document.processed_from_id", "=", "inbox_item.id")
                .where("document.court_document_id", "=", documentId),
            )
          : eb.and([
              eb("inbox_item.created_at", ">=", entry.publishedAt - TEXT_ONLY_LEAD_MS),
              eb.exists(
                eb
                  .selectFrom("envelope")
                  .select("envelope.id")
                  .whereRef("envelope.inbox_item_id", "=", "inbox_item.id")
                  .where((inner) =>
                    inner.not(inner.exists(inner.selectFrom("document").select("document.id").whereRef("document.envelope_id", "=", "envelope.id"))),
                  ),
              ),
            ]),
      ]),
    )
    .orderBy("inbox_item.created_at")
    .executeTakeFirst();
  return found ? { id: found.id, created_at: Number(found.created_at) } : undefined;
}

/** The firm's entries received from court feeds, each with the item its receipt made and the entry as kept there. */
const receivedEntries = (db: Kysely<DB>, firmId: number) =>
  db
    .selectFrom("case_docket_entry")
    .innerJoin("inbox_item", "inbox_item.id", "case_docket_entry.inbox_item_id")
    .select([
      "case_docket_entry.firm_id",
      "case_docket_entry.case_id",
      "case_docket_entry.entry_key",
      "case_docket_entry.inbox_item_id",
      "case_docket_entry.published_at",
      "inbox_item.raw_content",
    ])
    .where("case_docket_entry.firm_id", "=", firmId);

/** The firm's tracked entries not yet checked: received by tracking (inside a paid period), so never older than its start. */
async function uncheckedEntries(db: Kysely<DB>, firmId: number): Promise<TrackedEntry[]> {
  const rows = await receivedEntries(db, firmId)
    .where("case_docket_entry.checked_at", "is", null)
    .where("case_docket_entry.period_id", "is not", null)
    .orderBy("case_docket_entry.published_at")
    .execute();
  return rows.map(trackedEntry).filter((e): e is TrackedEntry => e !== null);
}

/** Marks the entry checked, once: a check that finds it checked already (another worker's) changes nothing. */
async function markChecked(db: Kysely<DB>, entry: TrackedEntry, now: number): Promise<void> {
  await db
    .updateTable("case_docket_entry")
    .set({ checked_at: now })
    .where("firm_id", "=", entry.firmId)
    .where("case_id", "=", entry.caseId)
    .where("entry_key", "=", entry.entryKey)
    .where("checked_at", "is", null)
    .execute();
}

/** When the firm's earliest message still being processed came in (Infinity when none is): until it is processed, it may be any entry's notice. */
async function firstUnprocessed(db: Kysely<DB>, firmId: number): Promise<number> {
  const row = await db
    .selectFrom("inbox_item")
    .select((eb) => eb.fn.min("created_at").as("first"))
    .where("firm_id", "=", firmId)
    .where("status", "in", OPEN_STATUSES)
    .where("source_type", "!=", COURT_FEED)
    .executeTakeFirst();
  return row?.first === null || row?.first === undefined ? Infinity : Number(row.first);
}

async function raiseMissedNotices(ctx: ServerContext, firm: FirmRecord): Promise<void> {
  const db = ctx.database.db;
  const hours = firm.missed_notice_hours ?? 24;
  const unprocessedSince = await firstUnprocessed(db, firm.id);
  for (const entry of await uncheckedEntries(db, firm.id)) {
    const now = ctx.clock.now();
    const deadline = entry.publishedAt + hours * HOUR_MS;
    // Any notice before the item is raised will do: the firm has it, however late it came.
    if (await noticeOf(db, entry)) await markChecked(db, entry, now);
    // A message received by then and not processed yet (a worker's backlog) may be the notice: the next check sees.
    else if (deadline <= now && unprocessedSince > deadline) await raise(ctx, firm, entry, now);
  }
}

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * The missed notice of one entry: its Action Required item on the case, its key, the entry marked
 * checked and the mail to the firm's missed-notice recipients (sent by its own job), in one
 * transaction. The key is the entry's: a second worker, or the same check after a crash, finds it
 * taken and raises nothing.
 */
async function raise(ctx: ServerContext, firm: FirmRecord, entry: TrackedEntry, now: number): Promise<void> {
  const db = ctx.database.db;
  const kase = await db.selectFrom("court_case").select(["name", "case_number"]).where("id", "=", entry.caseId).executeTakeFirst();
  const track = await db.selectFrom("inbox_item").selectAll().where("id", "=", entry.trackItemId).executeTakeFirstOrThrow();
  const { feedEntry } = entry;
  const words = {
    case: kase ? `${kase.case_number} ${kase.name}` : `${feedEntry.docketNumber} ${feedEntry.caseName}`,
    number: feedEntry.documentNumber ?? message("pipeline:missedNotice.noNumber"),
    date: utc(entry.publishedAt),
    text: feedEntry.shortDescription,
    hours: Math.floor((now - entry.publishedAt) / HOUR_MS),
  };
  const reason = message("pipeline:missedNotice.reason", words);
  const subject = message("pipeline:missedNotice.subject", words).slice(0, 500);
  const to = await recipientsFor(db, firm, entry.caseId);
  const itemId = newId();
  const link = `${ctx.config.publicUrl}/inbox-items/id/${itemId}`;
  const mail =
    to.length > 0
      ? await ctx.mailer.compose({
          firmId: firm.id,
          purpose: "missed-notice",
          to,
          replyTo: firm.reply_to_email || undefined,
          inboxItemId: itemId,
          subject: message("mail:missedNoticeSubject", words),
          text: `${reason}\n\n${message("mail:missedNoticeBody")}\n\n${link}\n`,
          html: `<p>${escapeHtml(reason)}</p><p>${escapeHtml(message("mail:missedNoticeBody"))}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
        })
      : null;
  await db.transaction().execute(async (trx) => {
    const key = await trx
      .insertInto("missed_notice")
      .values({
        firm_id: firm.id,
        case_id: entry.caseId,
        entry_key: entry.entryKey,
        inbox_item_id: itemId,
        raised_at: now,
        notice_item_id: null,
        resolved_at: null,
      })
      .onConflict((oc) => oc.columns(["firm_id", "case_id", "entry_key"]).doNothing())
      .executeTakeFirst();
    if (Number(key.numInsertedOrUpdatedRows ?? 0) === 0) return;
    await trx
      .insertInto("inbox_item")
      .values({
        id: itemId,
        firm_id: firm.id,
        created_at: now,
        updated_at: now,
        status: "Action Required",
        action_required: "USER",
        disposition: "No Disposition",
        disposition_text: "",
        reason,
        source: "TRACK",
        // The entry as tracking kept it: processing the item again files the entry like its tracked item.
        source_type: COURT_FEED,
        raw_content: track.raw_content,
        raw_size: track.raw_size,
        message_id: null,
        sender: track.sender,
        recipients: "[]",
        subject,
        snippet: "",
        parsed: track.parsed,
        parser_version: track.parser_version,
        message_body: track.message_body,
        docket_index: null,
        parent_id: null,
        duplicate_of_id: null,
        // It belongs to its case: walls and the case's items list see it like the case's notices.
        case_id: entry.caseId,
        jurisdiction_preference_id: null,
        dms_status: "new",
        hidden: 0,
        attempts: 0,
      })
      .execute();
    await markChecked(trx, entry, now);
    await logEvent(trx, { firmId: firm.id, inboxItemId: itemId, at: now, level: "WARNING", event: "missed notice", detail: reason });
    if (mail) {
      const recorded = await ctx.mailer.record(trx, mail);
      await enqueue(trx, { kind: "deliver-mail", firmId: firm.id, refId: recorded.id, runAt: now });
    }
  });
}

/** The firm's missed-notice recipients, less those of a timekeeper an ethical wall keeps out of the case. */
async function recipientsFor(db: Kysely<DB>, firm: FirmRecord, caseId: string): Promise<string[]> {
  const listed = firm.missed_notice_report_emails ?? [];
  if (listed.length === 0) return [];
  const walls = await wallsForCase(db, firm.id, caseId);
  if (!walls.walled) return listed;
  const [keepers, users] = await Promise.all([
    db.selectFrom("timekeeper").select(["id as timekeeper_id", "email"]).where("firm_id", "=", firm.id).where("email", "in", listed).execute(),
    db.selectFrom("app_user").select(["timekeeper_id", "email"]).where("firm_id", "=", firm.id).where("email", "in", listed).execute(),
  ]);
  const walledOut = new Set([...keepers, ...users].filter((p) => p.timekeeper_id && walls.isWalledOut(p.timekeeper_id)).map((p) => p.email));
  return listed.filter((address) => !walledOut.has(address));
}

/**
 * Each open missed notice whose e-mail notice has come since is resolved: linked to that notice,
 * its item Succeeded if it was still waiting for a person (one a person already handled keeps
 * their outcome), with the reason in its history.
 */
async function resolveLateNotices(ctx: ServerContext, firmId: number): Promise<void> {
  const db = ctx.database.db;
  const open = await receivedEntries(db, firmId)
    .innerJoin("missed_notice", (join) =>
      join
        .onRef("missed_notice.firm_id", "=", "case_docket_entry.firm_id")
        .onRef("missed_notice.case_id", "=", "case_docket_entry.case_id")
        .onRef("missed_notice.entry_key", "=", "case_docket_entry.entry_key"),
    )
    .select("missed_notice.inbox_item_id as missed_item_id")
    .where("missed_notice.resolved_at", "is", null)
    .execute();
  for (const row of open) {
    const entry = trackedEntry(row);
    const notice = entry && (await noticeOf(db, entry));
    if (!entry || !notice) continue;
    const now = ctx.clock.now();
    const detail = message("pipeline:missedNotice.resolved", {
      notice: notice.id,
      date: utc(notice.created_at),
      hours: Math.floor((notice.created_at - entry.publishedAt) / HOUR_MS),
    });
    await db.transaction().execute(async (trx) => {
      const resolved = await trx
        .updateTable("missed_notice")
        .set({ resolved_at: now, notice_item_id: notice.id })
        .where("inbox_item_id", "=", row.missed_item_id)
        .where("resolved_at", "is", null)
        .executeTakeFirst();
      if (Number(resolved.numUpdatedRows) === 0) return;
      await trx
        .updateTable("inbox_item")
        .set({ status: "Succeeded", action_required: "NONE", disposition_text: detail, updated_at: now })
        .where("id", "=", row.missed_item_id)
        .where("status", "=", "Action Required")
        .execute();
      await trx
        .updateTable("inbox_item")
        .set({ duplicate_of_id: notice.id })
        .where("id", "=", row.missed_item_id)
        .where("duplicate_of_id", "is", null)
        .execute();
      await logEvent(trx, { firmId, inboxItemId: row.missed_item_id, at: now, event: "missed notice resolved", detail });
    });
  }
}
