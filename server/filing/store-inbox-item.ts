import type { DMS_STATUSES } from "../../app/common/resources/inbox";
import type { Kysely, QueryCreator, Updateable } from "kysely";
import type { ServerContext } from "../context";
import type { DB, OutboundMailRow } from "../db/schema";
import { isUniqueViolation } from "../lib/errors";
import { escapeHtml } from "../lib/html";
import { newId } from "../lib/ids";
import { message } from "../lib/messages";
import { pauseAt } from "../lib/test-pause";
import { jobsAfterStorageAttempt } from "../queue/after-processing";
import { type EventEntry, type EventLevel, type EventName, eventRow, logEvent } from "../queue/event-log";
import { type AlsoWritten, changeLoggedInOneStatement } from "../queue/logged-change";
import { type NextJob, RetryLater, enqueue, enqueueAll } from "../queue/queue";
import {
  DmsLocationTaken,
  DmsTargetError,
  type DmsIntended,
  type DmsStoreRequest,
  type DmsStoreResult,
  type DmsTarget,
  intendAndWrite,
} from "../dms/dms-target";
import { targetForCredential } from "../dms/dms-targets";
import { type FilingItem, type FilingNotice, documentFile, filingSubject, loadFilingNotice, noticeFile, templateDataFor } from "./filing-data";
import { renderDocumentProperties, renderStorageLocation } from "../dms/path-template";
import { type StoragePolicy, policyChain, resolveStoragePolicy } from "./policy-resolution";
import { emitWebhookEvent, webhookSubscribers } from "../webhooks/webhook-events";
import { inJob } from "../db/job-reads";
import { type ExistingRecord, type KnownReads, readStorageStart, recordsOfItem } from "./filing-reads";

/** Attempts of the storage job before it is marked failed (the worker's limit for item jobs). */
export const MAX_STORAGE_ATTEMPTS = 5;

export type DmsStatus = (typeof DMS_STATUSES)[number];

type Document = FilingNotice["documents"][number];

/** One thing a policy files: a fetched document, or the notice itself. */
interface Filing {
  policy: StoragePolicy;
  what: "document" | "notice";
  document: Document | null;
}

/**
 * Files a processed notice and its documents through the storage policy that applies (and the
 * additional policies it names). Each file is recorded in dms_record and never stored twice for
 * one policy, so a retry stores only what is missing. A failed attempt throws to be retried
 * with back-off ("delayed"); the last one marks the item failed and reports it to the firm.
 */
export async function storeInboxItem(ctx: ServerContext, itemId: string, attempt: number): Promise<void> {
  const start = await readStorageStart(ctx.database, itemId);
  if (!start) return;
  const { item } = start;
  // Only a notice recorded on a case has anything to file.
  if (item.disposition !== "Processed" || !item.case_id) return;
  const filingItem: FilingItem = { ...item, case_id: item.case_id };
  const final = attempt >= MAX_STORAGE_ATTEMPTS;

  let filed: Filed | null;
  try {
    const resolved = await resolveStoragePolicy(ctx.database.db, item.firm_id, start, start.known?.policies);
    if (!resolved) {
      await cancel(ctx, filingItem, message("storage:events.noPolicy"));
      return;
    }
    await setDmsStatus(ctx, filingItem, "started", {
      event: "storage started",
      detail: message("storage:events.started", { policy: resolved.policy.name, level: message(`storage:levels.${resolved.level}`), attempt }),
    });
    filed = await fileAll(ctx, filingItem, resolved.policy, final, start.known);
  } catch (error) {
    filed = { errors: [failureOf(error, errorText(error))], documents: [], records: [], unwritten: [] };
  }
  if (filed === null) {
    await cancel(ctx, filingItem, message("storage:events.nothingToStore"));
    return;
  }
  const { errors } = filed;
  if (errors.length === 0) {
    const stored = (trx: Kysely<DB>) =>
      emitWebhookEvent(trx, { firmId: item.firm_id, event: "documents.stored", inboxItemId: item.id, at: ctx.clock.now() }).then(() => undefined);
    await finish(
      ctx,
      filingItem,
      "succeeded",
      { event: "storage succeeded" },
      outcomeWrites(filed, final),
      (await toldOfStored(ctx, item.firm_id)) ? stored : undefined,
    );
    return;
  }
  const detail = errors
    .map((e) => e.text)
    .join("; ")
    .slice(0, 2000);
  // A refusal no retry can mend (wrong secret, missing folder with creation off) fails now, not after every attempt.
  if (!final && errors.some((e) => !e.permanent)) {
    await setDmsStatus(ctx, filingItem, "delayed", { event: "storage delayed", detail, level: "WARNING" }, [], outcomeWrites(filed, false));
    const wait = Math.max(0, ...errors.map((e) => e.retryAfterMs ?? 0));
    throw wait > 0 ? new RetryLater(detail, wait) : new Error(detail);
  }
  if (!final) await markFailed(ctx, filingItem);
  // The report and the job that sends it are recorded with the failure: whoever sees the item
  // failed finds its report too, and a crash after the commit leaves the job to send it.
  // The attempt is over: what is not stored by now has failed.
  await finish(ctx, filingItem, "failed", { event: "storage failed", detail, level: "ERROR" }, outcomeWrites(filed, true), async (trx) => {
    const report = await recordFailureReport(
      ctx,
      trx,
      filingItem,
      attempt,
      errors.map((e) => e.text),
    );
    if (report) await enqueue(trx, { kind: "deliver-mail", firmId: filingItem.firm_id, refId: report.id, runAt: ctx.clock.now() });
  });
}

/** What an attempt filed: the failures, and the notice's documents, whose statuses are recorded with its outcome from the item's records. */
interface Filed {
  errors: FilingFailure[];
  documents: Document[];
  /** The item's records as this attempt left them. */
  records: ExistingRecord[];
  /** The last filing's success, written with the outcome. */
  unwritten: AlsoWritten[];
}

/** Why one filing was not stored, and whether another attempt could store it. */
interface FilingFailure {
  text: string;
  permanent: boolean;
  retryAfterMs?: number;
}

function failureOf(error: unknown, text: string): FilingFailure {
  if (error instanceof DmsTargetError) return { text, permanent: !error.retryable, ...(error.retryAfterMs ? { retryAfterMs: error.retryAfterMs } : {}) };
  return { text, permanent: false };
}

/** The records a permanent refusal ended before the last attempt: failed, like after the last one. */
async function markFailed(ctx: ServerContext, item: FilingItem): Promise<void> {
  await ctx.database.db
    .updateTable("dms_record")
    .set({ status: "failed", updated_at: ctx.clock.now() })
    .where("inbox_item_id", "=", item.id)
    .where("status", "=", "delayed")
    .execute();
  const documents = await ctx.database.db
    .selectFrom("document")
    .select(["id"])
    .where("processed_from_id", "=", item.id)
    .where("dms_status", "=", "delayed")
    .execute();
  if (documents.length)
    await ctx.database.db
      .updateTable("document")
      .set({ dms_status: "failed" })
      .where(
        "id",
        "in",
        documents.map((d) => d.id),
      )
      .execute();
}

/** Stores every filing of the policy chain; what this attempt filed, or null when the policies file nothing. */
async function fileAll(ctx: ServerContext, item: FilingItem, first: StoragePolicy, final: boolean, known: KnownReads | null): Promise<Filed | null> {
  const notice = await loadFilingNotice(ctx, item);
  const chain = (await policyChain(ctx.database.db, item.firm_id, first, known?.policies)).map((policy) => ({ policy, filings: filingsOf(policy, notice) }));
  const last = chain.flatMap(({ filings }) => filings).at(-1);
  if (!last) return null;
  const records = known?.records ?? (await recordsOfItem(ctx.database.db, item.id));
  const attempt: Attempt = { notice, records, known, last, unwritten: [] };
  const errors: FilingFailure[] = [];
  for (const { policy, filings } of chain) {
    if (filings.length === 0) continue;
    let target: DmsTarget | Error;
    try {
      const credential = known ? (known.credentials.get(policy.dms_credential_id) ?? null) : undefined;
      target = (await targetForCredential(ctx, item.firm_id, policy.dms_credential_id, credential)).target;
    } catch (error) {
      // Recorded against each filing below, so every record says why it was not stored.
      target = error instanceof Error ? error : new Error(String(error));
    }
    for (const filing of filings) {
      const error = await fileOne(ctx, attempt, filing, target, final);
      if (error) errors.push(error);
    }
  }
  return { errors, documents: notice.documents, records, unwritten: attempt.unwritten };
}

/** What the filings of one attempt share: the notice, the item's records (kept as the attempt writes them) and what was read with the item. */
interface Attempt {
  notice: FilingNotice;
  records: ExistingRecord[];
  known: KnownReads | null;
  /** The attempt's last filing: its success is written with the outcome, which follows at once. */
  last: Filing;
  unwritten: AlsoWritten[];
}

function filingsOf(policy: StoragePolicy, notice: FilingNotice): Filing[] {
  const documents = policy.store_documents ? notice.documents.filter((d) => d.fetch_status === "fetched" && d.file_id) : [];
  const filings: Filing[] = documents.map((document) => ({ policy, what: "document", document }));
  if (policy.store_email === "pdf" || policy.store_email === "eml") filings.push({ policy, what: "notice", document: null });
  return filings;
}

/**
 * Files one thing unless this policy already stored it; returns the error, or null. Where the
 * file is meant to go and what it holds are committed ("writing") before the write, so an attempt
 * after a crash adopts the copy its predecessor left instead of filing a second one. The attempt
 * is counted with the record's first write (see filingRecord).
 */
async function fileOne(ctx: ServerContext, attempt: Attempt, filing: Filing, target: DmsTarget | Error, final: boolean): Promise<FilingFailure | null> {
  const db = ctx.database.db;
  const { notice, records, known } = attempt;
  const { item } = notice;
  const documentId = filing.document?.id ?? null;
  const existing = records.find((r) => r.storage_policy_id === filing.policy.id && r.what === filing.what && r.document_id === documentId);
  if (existing?.status === "succeeded") return null;

  const record = filingRecord(ctx, attempt, filing, existing);
  const recordId = record.id;

  let label = filing.document?.name ?? filing.what;
  try {
    if (target instanceof Error) throw target;
    const earlier =
      existing?.intended_location && existing.content_hash
        ? { location: existing.intended_location, contentHash: existing.content_hash, idempotencyKey: recordId, path: existing.intended_path ?? undefined }
        : null;
    const adopted = earlier ? await adoptable(ctx, target, earlier, item.firm_id, filing.policy) : null;
    const file = filing.document
      ? await documentFile(ctx, filing.document, known ? (known.contentTypes.get(filing.document.file_id!) ?? null) : undefined)
      : await noticeFile(ctx, notice, filing.policy.store_email as "pdf" | "eml", known?.raw ?? undefined);
    label = file.label;
    const stored = adopted ?? (await writeOnce(ctx, target, record, filing, notice, file));
    const event = adopted ? "storage:events.adopted" : "storage:events.stored";
    const now = ctx.clock.now();
    // An adopted copy's record is written first here: the attempt is counted with it.
    const succeeded = {
      status: "succeeded",
      location: stored.location,
      root: stored.root ?? null,
      link: stored.link ?? null,
      error: null,
      updated_at: now,
      ...record.counting(),
    };
    const logged: EventEntry = {
      firmId: item.firm_id,
      inboxItemId: item.id,
      at: now,
      event: "stored",
      detail: message(event, { what: label, policy: filing.policy.name, location: stored.location }),
    };
    const success: AlsoWritten[] = [
      (qc) => qc.updateTable("dms_record").set(succeeded).where("id", "=", recordId),
      (qc) => qc.insertInto("event_log").values(eventRow(logged)),
    ];
    // The last success goes with the outcome; a crash before it leaves the record "writing", and the next attempt adopts the copy.
    if (filing === attempt.last) attempt.unwritten.push(...success);
    else if (ctx.database.dialect === "postgres") await changeLoggedInOneStatement(db, { table: "dms_record", id: recordId, set: succeeded }, logged);
    else await db.transaction().execute((trx) => writeAll(trx, success));
    noteStatus(records, recordId, "succeeded");
    return null;
  } catch (error) {
    const text = errorText(error);
    const status = final ? "failed" : "delayed";
    await record.write({ status, error: text.slice(0, 1000), updated_at: ctx.clock.now() });
    noteStatus(records, recordId, status);
    return failureOf(error, `${label}: ${text}`);
  }
}

/**
 * The copy an interrupted attempt left at `earlier`, or null. A target that knows copies by their
 * content alone cannot tell its own from another filing's of the same bytes, unless the path was
 * this record's alone (`earlier.path`, unique among the firm's records). A record from before
 * paths were kept adopts such a copy only when no other record of the same storage intends that
 * location; otherwise it writes a copy of its own, so no file is ever held by two records.
 */
async function adoptable(ctx: ServerContext, target: DmsTarget, earlier: DmsIntended, firmId: number, policy: StoragePolicy): Promise<DmsStoreResult | null> {
  const copy = await target.findExisting(earlier);
  if (!copy || target.recognisesCopyBy === "key" || earlier.path) return copy;
  // Another filing records its location before writing, so a copy on disk has its record already.
  const other = await ctx.database.db
    .selectFrom("dms_record")
    .innerJoin("storage_policy", "storage_policy.id", "dms_record.storage_policy_id")
    .select("dms_record.id")
    .where("dms_record.firm_id", "=", firmId)
    .where("dms_record.intended_location", "=", earlier.location)
    .where("dms_record.id", "!=", earlier.idempotencyKey)
    .where("storage_policy.dms_credential_id", "=", policy.dms_credential_id)
    .executeTakeFirst();
  return other ? null : copy;
}

/**
 * Records where the file goes and what it holds, then writes it there. The name is chosen free of
 * the paths other records hold, and recording it claims the path: of two filings that chose the
 * same name at once, the second to record it chooses again.
 */
async function writeOnce(
  ctx: ServerContext,
  target: DmsTarget,
  record: FilingRecord,
  filing: Filing,
  notice: FilingNotice,
  file: { bytes: Buffer; extension: string; contentType: string },
): Promise<DmsStoreResult> {
  const data = templateDataFor(notice, filing.document);
  const { folder, name } = renderStorageLocation(filing.policy, data);
  const request: DmsStoreRequest = {
    folder,
    name,
    extension: file.extension,
    bytes: file.bytes,
    contentType: file.contentType,
    properties: renderDocumentProperties(documentProperties(filing.policy), data),
    subject: filingSubject(notice),
  };
  const db = ctx.database.db;
  const stored = await intendAndWrite(target, request, record.id, {
    held: async (paths) => {
      const holders = await db
        .selectFrom("dms_record")
        .select("intended_path")
        .where("firm_id", "=", notice.item.firm_id)
        .where("intended_path", "in", paths)
        .where("id", "!=", record.id)
        .execute();
      return new Set(holders.flatMap((holder) => holder.intended_path ?? []));
    },
    record: async (intended) => {
      try {
        await record.write({
          status: "writing",
          intended_location: intended.location,
          intended_path: intended.path ?? null,
          content_hash: intended.contentHash,
          updated_at: ctx.clock.now(),
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new DmsLocationTaken(target.kind, intended.location);
        throw error;
      }
      // The intention must outlast a power cut too, or the file could be written twice after one.
      await ctx.database.commitsOnDisk();
      await pauseAt("file-intended");
    },
  });
  await pauseAt("file-written");
  return stored;
}

/** The policy's document properties as text pairs (stored as a JSON map). */
function documentProperties(policy: StoragePolicy): Record<string, string> {
  try {
    const parsed = JSON.parse(policy.document_properties || "{}") as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value ?? "")]));
  } catch {
    return {};
  }
}

/** A filing's record through one attempt (filingRecord). */
interface FilingRecord {
  id: string;
  /** The columns that count the attempt, for a write of an existing record that may be its first of the attempt (none after it). */
  counting(): { attempts?: number };
  /** Writes the record: its first write of the attempt counts the attempt, or inserts a filing's first record. */
  write(set: Updateable<DB["dms_record"]>): Promise<void>;
}

/**
 * A filing's record through one attempt. Nothing is written before the file is read: the
 * attempt is counted (or a filing's first record inserted) with the record's first write of it,
 * which says where the file goes (before anything is written to the DMS), that an earlier copy was
 * adopted, or why the filing failed. The attempt's copy of the item's records follows each write.
 */
function filingRecord(ctx: ServerContext, { notice, records }: Attempt, filing: Filing, existing: ExistingRecord | undefined): FilingRecord {
  const db = ctx.database.db;
  const id = existing?.id ?? newId();
  let counted = false;
  const counting = () => (counted ? {} : { attempts: (existing?.attempts ?? 0) + 1 });
  return {
    id,
    counting,
    async write(set) {
      if (existing || counted) {
        await db
          .updateTable("dms_record")
          .set({ ...set, ...counting() })
          .where("id", "=", id)
          .execute();
      } else {
        const now = ctx.clock.now();
        const row = {
          id,
          firm_id: notice.item.firm_id,
          inbox_item_id: notice.item.id,
          document_id: filing.document?.id ?? null,
          storage_policy_id: filing.policy.id,
          what: filing.what,
          status: "started",
          location: null,
          intended_location: null,
          intended_path: null,
          content_hash: null,
          error: null,
          attempts: 1,
          created_at: now,
          updated_at: now,
          ...set,
        };
        await db.insertInto("dms_record").values(row).execute();
        records.push({ ...row, status: String(row.status), intended_path: row.intended_path ?? null });
      }
      counted = true;
    },
  };
}

/** Writes each of `writes` through `trx`, in order. */
async function writeAll(trx: Kysely<DB>, writes: AlsoWritten[]): Promise<void> {
  for (const write of writes) await trx.executeQuery(write(trx));
}

/** Keeps the attempt's copy of the item's records as it writes them. */
function noteStatus(records: ExistingRecord[], recordId: string, status: string): void {
  const record = records.find((r) => r.id === recordId);
  if (record) record.status = status;
}

/** What the outcome writes besides the item: the last filing's success, then the documents' statuses. */
function outcomeWrites(filed: Filed, final: boolean): AlsoWritten[] {
  return [...filed.unwritten, ...documentMoves(filed, final)];
}

/**
 * Each document's status from the item's records: stored by every policy, waiting, failed, or not
 * to be stored; one update per status the documents move to, written with the attempt's outcome.
 */
function documentMoves({ documents, records }: Filed, final: boolean): AlsoWritten[] {
  const moving = new Map<DmsStatus, string[]>();
  for (const document of documents) {
    const own = records.filter((r) => r.what === "document" && r.document_id === document.id);
    const status: DmsStatus = own.length === 0 ? "canceled" : own.every((r) => r.status === "succeeded") ? "succeeded" : final ? "failed" : "delayed";
    if (status !== document.dms_status) moving.set(status, [...(moving.get(status) ?? []), document.id]);
  }
  return [...moving].map(
    ([status, ids]) =>
      (qc: QueryCreator<DB>) =>
        qc.updateTable("document").set({ dms_status: status }).where("id", "in", ids),
  );
}

/** Whether a webhook of the firm hears that the documents were stored: known in a job (with its claim on PostgreSQL); outside one, read in the transaction. */
async function toldOfStored(ctx: ServerContext, firmId: number): Promise<boolean> {
  return !inJob() || (await webhookSubscribers(ctx.database.db, firmId, "documents.stored")).length > 0;
}

/**
 * Sets the item's DMS status, with its event, the jobs that follow, `writes` (the last filing's
 * success, the documents' statuses) and whatever `alsoRecord` writes, in one transaction (one
 * statement on PostgreSQL without `alsoRecord`).
 */
async function setDmsStatus(
  ctx: ServerContext,
  item: { id: string; firm_id: number },
  status: DmsStatus,
  event: { event: EventName; detail?: string; level?: EventLevel },
  next: NextJob[] = [],
  writes: AlsoWritten[] = [],
  alsoRecord?: (trx: Kysely<DB>) => Promise<void>,
): Promise<void> {
  const now = ctx.clock.now();
  if (ctx.database.dialect === "postgres" && !alsoRecord) {
    const set = { dms_status: status, updated_at: now };
    await changeLoggedInOneStatement(
      ctx.database.db,
      { table: "inbox_item", id: item.id, set },
      { firmId: item.firm_id, inboxItemId: item.id, at: now, ...event },
      next,
      writes,
    );
    return;
  }
  await ctx.database.db.transaction().execute(async (trx) => {
    // The last filing's success and its event first, as they happened.
    await writeAll(trx, writes);
    await trx.updateTable("inbox_item").set({ dms_status: status, updated_at: now }).where("id", "=", item.id).execute();
    await logEvent(trx, { firmId: item.firm_id, inboxItemId: item.id, at: now, ...event });
    await enqueueAll(trx, item.firm_id, next, now);
    await alsoRecord?.(trx);
  });
}

/** The attempt is over for good: record it, with the mail of a firm that waits for the DMS. */
async function finish(
  ctx: ServerContext,
  item: FilingItem,
  status: DmsStatus,
  event: { event: EventName; detail?: string; level?: EventLevel },
  writes: AlsoWritten[],
  alsoRecord?: (trx: Kysely<DB>) => Promise<void>,
): Promise<void> {
  await setDmsStatus(ctx, item, status, event, await jobsAfterStorageAttempt(ctx, item), writes, alsoRecord);
}

/** Nothing is to be filed: the item and its documents waiting to be are canceled. */
function cancel(ctx: ServerContext, item: FilingItem, detail: string): Promise<void> {
  const documents = (qc: QueryCreator<DB>) =>
    qc.updateTable("document").set({ dms_status: "canceled" }).where("processed_from_id", "=", item.id).where("dms_status", "in", ["new", "started"]);
  return finish(ctx, item, "canceled", { event: "storage canceled", detail }, [documents]);
}

/** The firm's DMS failure report of what could not be stored and why, recorded through `trx`; null when nobody is to get it. */
async function recordFailureReport(ctx: ServerContext, trx: Kysely<DB>, item: FilingItem, attempts: number, errors: string[]): Promise<OutboundMailRow | null> {
  const firm = await trx.selectFrom("firm").select(["dms_failure_report_emails", "reply_to_email"]).where("id", "=", item.firm_id).executeTakeFirst();
  const to = parseList(firm?.dms_failure_report_emails);
  if (to.length === 0) return null;
  const kase = await trx.selectFrom("court_case").select(["case_number", "name"]).where("id", "=", item.case_id).executeTakeFirst();
  const link = `${ctx.config.publicUrl}/inbox-items/id/${item.id}`;
  const which = kase ? `${kase.case_number} ${kase.name}`.trim() : item.subject;
  const intro = message("storage:mail.failureBody", { notice: item.subject, attempts });
  return ctx.mailer.record(trx, {
    firmId: item.firm_id,
    purpose: "dms-failure",
    to,
    replyTo: firm?.reply_to_email || undefined,
    inboxItemId: item.id,
    subject: message("storage:mail.failureSubject", { case: which }),
    text: `${intro}\n\n${errors.map((e) => `- ${e}`).join("\n")}\n\n${link}\n`,
    html: `<p>${escapeHtml(intro)}</p><ul>${errors.map((e) => `<li>${escapeHtml(e)}</li>`).join("")}</ul><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  });
}

function parseList(json: string | undefined): string[] {
  try {
    const list = JSON.parse(json ?? "[]") as unknown;
    return Array.isArray(list) ? list.map(String).filter(Boolean) : [];
  } catch {
    return [];
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
