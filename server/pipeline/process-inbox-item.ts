import { type Selectable, sql } from "kysely";
import type { ServerContext } from "../context";
import type { InboxItemTable } from "../db/schema";
import { findFirm } from "../firm/firm-repository";
import { withoutControlCharacters } from "../lib/control-characters";
import { newId } from "../lib/ids";
import { currentParse, storedColumns } from "../stored-mail/stored-message";
import { EMPTY_MESSAGE_BODY } from "../notices/message-body";
import { type ParsedMessage, type ParsedNotice, parseNoticeMessage } from "../notices";
import { pauseAt } from "../lib/test-pause";
import { parseKeptDocketEntry } from "../notices/docket-feed";
import { isDocketEntrySource } from "../inbox/receive-docket-entry";
import { jobsAfterProcessing } from "../queue/after-processing";
import { autoCreateCase, keepRuleAssignments, recipientDomains } from "./auto-create-case";
import { type AppliedPreference, pickPreference } from "./jurisdiction-preference";
import { eventRow, logEvent } from "../queue/event-log";
import { finishWhenAllFetched } from "./fetch-document";
import { courtDocumentIdsOf, recordNotice } from "./record-notice";
import { readDocket } from "./docket-reads";
import { changeLoggedInOneStatement } from "../queue/logged-change";
import { type ItemChange, changeItemIn, setItem } from "./item-state";
import { type DocketMatch, NOT_READ, decideMatch } from "./match-case";
import { reportCaseNotFound, reportCourtMail, reportManualProcessing } from "../notify/firm-report-mail";
import { noticeKey } from "../notices/classify";
import { courtOrigin, firmListedOrigin, ruleSender, withinDomain } from "../notices/court-origin";
import type { FirmRecord } from "../../app/common/firm-schema";
import { message } from "../lib/messages";

type Item = Selectable<InboxItemTable>;

const PARSE_TIME_LIMIT_MS = 20_000;

/** Parses with a time bound, so one hostile message cannot hold a worker. */
async function parseBounded(raw: Buffer): Promise<ParsedMessage> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ParsedMessage>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          parsed: { kind: "malformed", reason: message("pipeline:parseTimeLimit", { seconds: PARSE_TIME_LIMIT_MS / 1000 }) },
          body: EMPTY_MESSAGE_BODY,
        }),
      PARSE_TIME_LIMIT_MS,
    );
  });
  try {
    return await Promise.race([parseNoticeMessage(raw), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function domainOf(address: string): string {
  return address.split("@").pop()?.toLowerCase() ?? "";
}

function snippetOf(notice: ParsedNotice): string {
  const docket = notice.dockets[0];
  const entry = docket?.docket_entries[0];
  return [docket?.docket_number_full, docket?.case_name, entry?.short_description ?? entry?.description].filter(Boolean).join(" · ").slice(0, 300);
}

/** An item the pipeline has nothing more to do with: done, or ended by its fetches before a crash. */
const ended = (row: Pick<Item, "status" | "disposition">) =>
  ["Succeeded", "Canceled", "Manual"].includes(row.status) || (row.status === "Action Required" && row.disposition === "Processed");

/** An item marked Started, as it was before. */
interface StartedItem {
  row: Item;
  /** The first other message with its Message-ID received no later, or null (read with the start on PostgreSQL). */
  firstWithMessageId: () => Promise<string | null>;
}

/**
 * The item as it was, marked Started with its event unless it has ended (then undefined). On
 * PostgreSQL the read, the change, the event and the Message-ID check are one statement; the
 * condition is the same. A duplicate is found there as well as later: the earlier message's row
 * was committed when it was received, before this one was.
 */
async function startItem(ctx: ServerContext, itemId: string): Promise<StartedItem | undefined> {
  const db = ctx.database.db;
  if (ctx.database.dialect !== "postgres") {
    const row = await db.selectFrom("inbox_item").selectAll().where("id", "=", itemId).executeTakeFirst();
    if (!row || ended(row)) return undefined;
    await setItem(ctx, row, { status: "Started" }, { event: "started" });
    return { row, firstWithMessageId: async () => (row.message_id ? firstItemWithMessageId(ctx, row, row.message_id) : null) };
  }
  const now = ctx.clock.now();
  // The event's firm and item are the changed row's.
  const { id, level, event, detail } = eventRow({ firmId: 0, event: "started", at: now });
  // The same rows as receivedWith's, the first received.
  const { rows } = await sql<Item & { first_with_message_id: string | null }>`with
    old as (select * from inbox_item where id = ${itemId}),
    changed as (update inbox_item set status = 'Started', updated_at = ${now}
      where id = (select id from old where status not in ('Succeeded', 'Canceled', 'Manual')
        and not (status = 'Action Required' and disposition is not distinct from 'Processed'))
      returning id, firm_id),
    logged as (insert into event_log (id, firm_id, inbox_item_id, level, event, detail, created_at)
      select ${id}, firm_id, id, ${level}, ${event}, ${detail}, ${now} from changed)
    select old.*, (select other.id from inbox_item other
        where other.firm_id = old.firm_id and other.message_id = old.message_id and other.parent_id is null
          and other.id <> old.id and other.created_at <= old.created_at
        order by other.created_at, other.id limit 1) as first_with_message_id
      from old`.execute(db);
  if (!rows[0]) return undefined;
  const { first_with_message_id: first, ...row } = rows[0];
  return ended(row) ? undefined : { row, firstWithMessageId: async () => first };
}

/**
 * One received message through the pipeline: parse, sort out what needs no processing
 * (other senders, duplicates, non-notices, special handling), split multi-docket notices into
 * linked items, then match each docket to a case and record envelope and documents.
 */
export async function processInboxItem(ctx: ServerContext, itemId: string): Promise<void> {
  const started = await startItem(ctx, itemId);
  if (!started) return;
  const { row } = started;

  // Parsed once, here; everything after reads the kept result (and linked items copy it).
  // What the parser read is recorded in many places (case names, descriptions, docket text).
  const kept = currentParse(row);
  // An entry of a court's docket feed is read as such, not as an e-mail.
  const fresh = () => (isDocketEntrySource(row.source_type) ? parseKeptDocketEntry(row.raw_content) : parseBounded(row.raw_content));
  const result = withoutControlCharacters(kept ?? (await fresh()));
  // A fresh parse is kept with the state change it leads to, in its transaction.
  const stored = kept ? {} : storedColumns(result);
  const item: Item = { ...row, ...stored };
  const parsed = result.parsed;
  if (parsed.kind === "malformed") {
    return setItem(
      ctx,
      item,
      { ...stored, status: "Failed", action_required: "USER", reason: parsed.reason },
      { event: "malformed", detail: parsed.reason, level: "ERROR" },
    );
  }
  if (parsed.kind !== "notice") {
    const firm = await findFirm(ctx.database, item.firm_id);
    // Mail that is no notice is ignored only when it is positively something else or comes from
    // no court: the envelope sender and the firm's own court senders are checked here, as the
    // parser knows neither (decision 092).
    const courtSender =
      parsed.kind === "not_a_notice" && parsed.origins
        ? (courtOrigin([item.sender]) ?? firmListedOrigin([...parsed.origins, item.sender], firm?.court_mail_senders ?? []))
        : null;
    if (parsed.kind === "not_a_notice" && !courtSender) {
      return setItem(
        ctx,
        item,
        { ...stored, status: "Succeeded", disposition: "Ignored", disposition_text: parsed.reason },
        { event: "not a notice", detail: parsed.reason },
      );
    }
    const reason = courtSender ? message("pipeline:courtSenderUnread", { sender: courtSender }) : parsed.reason;
    const judged = firm ? judgedSender(firm, item, result) : null;
    if (firm && judged && ignoredByDomain(firm, judged)) return ignoreCourtSender(ctx, item, stored, judged);
    return askAboutCourtMail(ctx, item, stored, message("pipeline:courtMessageUnread", { reason }), reason);
  }
  const notice = parsed.notice;
  await setItem(
    ctx,
    item,
    { ...stored, snippet: snippetOf(notice), notice_key: noticeKey(notice) },
    {
      event: "parsed",
      detail: message("pipeline:events.parsed", {
        type: notice.notice_type,
        court: notice.court_id ?? message("pipeline:events.unknownCourt"),
        count: notice.dockets.length,
      }),
    },
  );

  if (item.docket_index === null) {
    const firm = await findFirm(ctx.database, item.firm_id);
    const judged = firm ? judgedSender(firm, item, result) : item.sender;
    const senderDomain = domainOf(judged);
    // A notice is court mail: a rule naming its court's domain among the ignored ones says so
    // explicitly; a court missing from the accepted domains puts it before a person.
    if (firm && ignoredByDomain(firm, judged)) return ignoreCourtSender(ctx, item, {}, judged);
    if (firm && senderDomain && firm.accepted_email_domains.length > 0 && !firm.accepted_email_domains.some((d) => withinDomain(senderDomain, d))) {
      const reason = message("pipeline:courtSenderNotAccepted", { domain: senderDomain });
      return askAboutCourtMail(ctx, item, {}, reason, reason, "sender not accepted");
    }
    const first = await started.firstWithMessageId();
    if (first) {
      return setItem(
        ctx,
        item,
        { status: "Succeeded", disposition: "Ignored", duplicate_of_id: first, disposition_text: message("pipeline:duplicateMessage") },
        { event: "duplicate message", detail: first },
      );
    }
    // A notice a person answered or forwarded: linked to the original when the firm has it,
    // processed as the notice it is when not.
    if (parsed.quoted) {
      const key = noticeKey(notice);
      const original = (await answeredItem(ctx, item, parsed.quoted.answers, key)) ?? (await firstItemWithNoticeKey(ctx, item, key));
      if (original) {
        return setItem(
          ctx,
          item,
          {
            status: "Succeeded",
            disposition: "Ignored",
            duplicate_of_id: original,
            disposition_text: message(`pipeline:quotedNoticeLinked.${parsed.quoted.by}`),
          },
          { event: "quoted notice linked", detail: original },
        );
      }
    }
    if (firm?.manually_process_notices) {
      await setItem(ctx, item, { status: "Manual", action_required: "USER", reason: message("pipeline:specialHandling") }, { event: "special handling" });
      await reportManualProcessing(ctx, item);
      return;
    }
    if (notice.dockets.length > 1) return splitIntoLinkedItems(ctx, item, notice);
  }
  await processDocket(ctx, item, notice, item.docket_index ?? 0);
}

/**
 * The sender the firm's domain rules judge: the court's address wherever the forwarding chain
 * names it, not the mailbox that passed the message on (decision 104).
 */
function judgedSender(firm: FirmRecord, item: Item, result: ParsedMessage): string {
  return ruleSender(result.body.senders ?? { header: [], original: [] }, firm.court_mail_senders ?? [], item.sender);
}

/** The sender's domain is one the firm ignores (a rule covers its sub-domains). */
function ignoredByDomain(firm: FirmRecord, sender: string): boolean {
  const domain = domainOf(sender);
  return !!domain && firm.ignored_email_domains.some((d) => withinDomain(domain, d));
}

/** Court mail whose sender the firm's ignored domains name: ignored, and the card says it was court mail. */
function ignoreCourtSender(ctx: ServerContext, item: Item, stored: ItemChange, sender: string): Promise<void> {
  const domain = domainOf(sender);
  return setItem(
    ctx,
    item,
    { ...stored, status: "Succeeded", disposition: "Ignored", disposition_text: message("pipeline:senderIgnored", { domain }) },
    { event: "ignored sender", detail: domain },
  );
}

/** Court or provider mail a person must see: Action Required with the reason, and the firm's error recipients told. */
async function askAboutCourtMail(
  ctx: ServerContext,
  item: Item,
  stored: ItemChange,
  reason: string,
  detail: string,
  event: "unrecognised" | "sender not accepted" = "unrecognised",
): Promise<void> {
  await setItem(ctx, item, { ...stored, status: "Action Required", action_required: "USER", reason }, { event, detail, level: "WARNING" });
  await reportCourtMail(ctx, item, reason);
}

/**
 * The firm's other received messages (not linked items) whose Message-ID or notice identity is
 * one of these, in order of receipt. The few rows are ordered here: asked to order by receipt,
 * SQLite, which has no statistics, walks every item of the firm by date instead of looking the
 * value up.
 */
async function receivedWith(ctx: ServerContext, item: Item, column: "message_id" | "notice_key", values: string[]) {
  const rows = await ctx.database.db
    .selectFrom("inbox_item")
    .select(["id", "created_at", "notice_key", "duplicate_of_id"])
    .where("firm_id", "=", item.firm_id)
    .where(column, "in", values)
    .where("parent_id", "is", null)
    .where("id", "!=", item.id)
    .execute();
  return rows.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The first other message with the item's Message-ID, received no later than it; its id, or null. */
async function firstItemWithMessageId(ctx: ServerContext, item: Item, messageId: string): Promise<string | null> {
  const rows = await receivedWith(ctx, item, "message_id", [messageId]);
  return rows.find((row) => row.created_at <= item.created_at)?.id ?? null;
}

/**
 * The item a reply or forward answers (by the Message-IDs it names), when that item carries the
 * quoted notice or no notice at all: a person's answer to some other message may quote a new
 * notice, which must not be lost.
 */
async function answeredItem(ctx: ServerContext, item: Item, messageIds: readonly string[], key: string | null): Promise<string | null> {
  if (messageIds.length === 0) return null;
  const rows = await receivedWith(
    ctx,
    item,
    "message_id",
    messageIds.slice(0, 20).map((id) => `<${id}>`),
  );
  return rows.find((row) => row.notice_key === null || row.notice_key === key)?.id ?? null;
}

/**
 * The first message carrying the same notice (court, docket, entry), received no later than this
 * one: the original of a quoted notice. One that is itself linked to another comes after those that are not.
 */
async function firstItemWithNoticeKey(ctx: ServerContext, item: Item, key: string | null): Promise<string | null> {
  if (!key) return null;
  const rows = (await receivedWith(ctx, item, "notice_key", [key])).filter((row) => row.created_at <= item.created_at);
  return (rows.find((row) => row.duplicate_of_id === null) ?? rows[0])?.id ?? null;
}

/** A notice for several dockets becomes one linked child item per docket, each processed alone. */
async function splitIntoLinkedItems(ctx: ServerContext, item: Item, notice: ParsedNotice): Promise<void> {
  const now = ctx.clock.now();
  // The children, their jobs and the parent's new state commit together: a crash in between
  // would otherwise split the notice a second time when the parent is processed again.
  await ctx.database.db.transaction().execute(async (trx) => {
    const children = notice.dockets.map((_, index) => ({
      ...item,
      id: newId(),
      created_at: now,
      updated_at: now,
      status: "New",
      parent_id: item.id,
      docket_index: index,
      snippet: "",
      attempts: 0,
    }));
    for (const child of children) await trx.insertInto("inbox_item").values(child).execute();
    await changeItemIn(
      trx,
      now,
      item,
      { status: "Succeeded", disposition: "Split", disposition_text: message("pipeline:split", { count: notice.dockets.length }) },
      { event: "split", detail: message("pipeline:events.split", { count: notice.dockets.length }) },
      { next: children.map((c) => ({ kind: "process-inbox-item", refId: c.id })) },
    );
  });
}

/**
 * The preference that applied to an item (or none), with its event, together. Without an event
 * the change is one statement; on PostgreSQL with one too (logged-change.ts).
 */
async function recordPreference(ctx: ServerContext, item: Item, preference: AppliedPreference | null): Promise<void> {
  const db = ctx.database.db;
  const set = { jurisdiction_preference_id: preference?.id ?? null };
  if (!preference) {
    await db.updateTable("inbox_item").set(set).where("id", "=", item.id).execute();
    return;
  }
  const entry = { firmId: item.firm_id, inboxItemId: item.id, at: ctx.clock.now(), event: "jurisdiction preference applied", detail: preference.name } as const;
  if (ctx.database.dialect === "postgres") {
    await changeLoggedInOneStatement(db, { table: "inbox_item", id: item.id, set }, entry);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("inbox_item").set(set).where("id", "=", item.id).execute();
    await logEvent(trx, entry);
  });
}

async function processDocket(ctx: ServerContext, item: Item, notice: ParsedNotice, index: number): Promise<void> {
  const docket = notice.dockets[index];
  if (!docket) {
    return setItem(ctx, item, { status: "Failed", reason: message("pipeline:noDocket", { number: index + 1 }) }, { event: "no docket", level: "ERROR" });
  }
  const courtId = docket.docket_court_id ?? notice.court_id;
  const reads = await readDocket(ctx.database, {
    firmId: item.firm_id,
    itemId: item.id,
    itemCaseId: item.case_id,
    courtId,
    docketNumber: docket.docket_number,
    courtDocumentIds: courtDocumentIdsOf(docket),
  });
  const preference = pickPreference(reads.preferences, reads.groups, courtId, recipientDomains(notice));
  // Recorded on the item for its card and for the notification rules read later.
  if ((preference?.id ?? null) !== item.jurisdiction_preference_id) await recordPreference(ctx, item, preference);
  // A case picked by a person on the inbox card wins over matching.
  let match: DocketMatch = item.case_id ? { kind: "case", caseId: item.case_id } : decideMatch(courtId, docket.docket_number, reads.match ?? NOT_READ);
  if (match.kind === "not-found") {
    const created = await autoCreateCase(ctx, item.firm_id, notice, docket, preference?.autoCaseCreationId);
    if (created) {
      await logEvent(ctx.database.db, {
        firmId: item.firm_id,
        inboxItemId: item.id,
        at: ctx.clock.now(),
        event: "case created automatically",
        detail: message("pipeline:events.caseCreated", { rule: created.ruleName, case: created.caseId }),
      });
      match = { kind: "case", caseId: created.caseId };
    }
  } else if (match.kind === "case") {
    const added = await keepRuleAssignments(ctx, item.firm_id, match.caseId, reads.rule);
    if (added)
      await logEvent(ctx.database.db, {
        firmId: item.firm_id,
        inboxItemId: item.id,
        at: ctx.clock.now(),
        event: "rule timekeepers assigned",
        detail: message("pipeline:events.timekeepersAssigned", { count: added }),
      });
  }
  if (match.kind === "ignored") {
    return setItem(
      ctx,
      item,
      { status: "Succeeded", disposition: "Ignored", disposition_text: message("pipeline:ignoredCase", { docket: docket.docket_number }) },
      { event: "ignored case", detail: match.ignoredCaseId },
    );
  }
  if (match.kind === "not-found") {
    await setItem(
      ctx,
      item,
      { status: "Action Required", action_required: "USER", reason: match.reason },
      { event: "case not found", detail: match.reason, level: "WARNING" },
    );
    await reportCaseNotFound(ctx, item, docket.docket_number_full || docket.docket_number, notice.court_id, match.reason);
    return;
  }
  const recorded = await recordNotice(ctx, item, notice, docket, match.caseId, reads.recorded ?? undefined);
  if (recorded.duplicateOf) {
    return setItem(
      ctx,
      item,
      {
        status: "Succeeded",
        disposition: "Ignored",
        case_id: match.caseId,
        duplicate_of_id: recorded.duplicateOf,
        disposition_text: message("pipeline:duplicateDocument"),
      },
      { event: "duplicate document", detail: recorded.duplicateOf },
    );
  }
  await pauseAt("item-recorded");
  const pending = recorded.documentsToFetch;
  await setItem(
    ctx,
    item,
    { status: pending > 0 ? "Post Processing" : "Succeeded", disposition: "Processed", case_id: match.caseId, action_required: "NONE", reason: "" },
    { event: "matched", detail: message("pipeline:events.matched", { case: match.caseId, envelope: recorded.envelopeId, count: pending }) },
    { next: pending > 0 ? [] : await jobsAfterProcessing(ctx, item) },
  );
  // The fetches may all have finished before the item was marked; then nothing else moves it on.
  if (pending > 0) await finishWhenAllFetched(ctx, item.id, item.firm_id);
}
