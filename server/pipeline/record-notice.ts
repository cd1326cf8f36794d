import { type Insertable, type Kysely, type QueryCreator, type Selectable, sql } from "kysely";
import type { ServerContext } from "../context";
import type { DB, InboxItemTable } from "../db/schema";
import { newId } from "../lib/ids";
import type { ParsedDocket, ParsedNotice } from "../notices";
import { enqueue, jobRow } from "../queue/queue";
import { message } from "../lib/messages";

export interface Recorded {
  envelopeId: string | null;
  duplicateOf: string | null;
  documentsToFetch: number;
}

/**
 * What recording a notice reads first: the envelope this item already recorded (processing again
 * after a crash) with its documents still waiting for a fetch, and else an earlier notice of case
 * `caseId` that carried one of the same court documents.
 */
export interface RecordReads {
  caseId: string;
  envelopeId: string | null;
  pending: string[];
  earlier: string | null;
}

/** The court's ids of the documents a docket's entry carries. */
export function courtDocumentIdsOf(docket: ParsedDocket): string[] {
  const entry = docket.docket_entries[0];
  const ids = (entry?.documents ?? []).map((d) => d.pacer_doc_id).filter((v): v is string => Boolean(v));
  if (entry?.pacer_doc_id) ids.push(entry.pacer_doc_id);
  return ids;
}

export async function recordReads(db: Kysely<DB>, item: { id: string; firm_id: number }, caseId: string, courtDocumentIds: string[]): Promise<RecordReads> {
  const existing = await db.selectFrom("envelope").select("id").where("inbox_item_id", "=", item.id).executeTakeFirst();
  if (existing) {
    const pending = await db.selectFrom("document").select("id").where("envelope_id", "=", existing.id).where("fetch_status", "=", "pending").execute();
    return { caseId, envelopeId: existing.id, pending: pending.map((d) => d.id).sort(), earlier: null };
  }
  if (courtDocumentIds.length === 0) return { caseId, envelopeId: null, pending: [], earlier: null };
  const earlier = await db
    .selectFrom("document")
    .innerJoin("envelope", "envelope.id", "document.envelope_id")
    .select("document.processed_from_id")
    .where("document.firm_id", "=", item.firm_id)
    .where("envelope.case_id", "=", caseId)
    .where("document.court_document_id", "in", courtDocumentIds)
    .where("document.processed_from_id", "!=", item.id)
    .executeTakeFirst();
  return { caseId, envelopeId: null, pending: [], earlier: earlier?.processed_from_id ?? null };
}

/**
 * The envelope (what was filed) and its documents on the matched case. A court document this
 * case already has means the notice is a duplicate: it is linked to the first and recorded no
 * second time. Documents are queued for fetching at once: the free look is single-use. `known`:
 * what recordReads found, when read for this case.
 */
export async function recordNotice(
  ctx: ServerContext,
  item: Selectable<InboxItemTable>,
  notice: ParsedNotice,
  docket: ParsedDocket,
  caseId: string,
  known?: RecordReads,
): Promise<Recorded> {
  const read = known?.caseId === caseId ? known : await recordReads(ctx.database.db, item, caseId, courtDocumentIdsOf(docket));
  // Processing again after a crash: what this item already recorded stands.
  if (read.envelopeId) {
    await requeueLostFetches(ctx, item.firm_id, read.pending);
    return { envelopeId: read.envelopeId, duplicateOf: null, documentsToFetch: read.pending.length };
  }
  if (read.earlier) return { envelopeId: null, duplicateOf: read.earlier, documentsToFetch: 0 };

  const entry = docket.docket_entries[0];
  const now = ctx.clock.now();
  const envelope: Insertable<DB["envelope"]> = {
    id: newId(),
    firm_id: item.firm_id,
    inbox_item_id: item.id,
    case_id: caseId,
    ecfx_jurisdiction_id: notice.court_id,
    name: entry?.short_description || docket.case_name,
    date: entry?.date_filed ?? null,
    court_envelope_id: entry?.envelope_number ?? entry?.pacer_seq_no ?? entry?.document_number ?? null,
    filed_by: entry?.filed_by ?? "",
    service_contacts: JSON.stringify(notice.email_recipients),
    docket_text: entry?.description ?? "",
    created_at: now,
    updated_at: now,
  };
  const listed = entry?.documents.length
    ? entry.documents
    : entry?.document_url
      ? [{ number: 0, description: entry.short_description, url: entry.document_url, pacer_doc_id: entry.pacer_doc_id }]
      : [];
  const sealed = Boolean(entry?.sealed);
  const documents: Insertable<DB["document"]>[] = listed.map((doc) => {
    const fetchable = Boolean(doc.url) && !sealed;
    return {
      id: newId(),
      firm_id: item.firm_id,
      envelope_id: envelope.id,
      processed_from_id: item.id,
      number: doc.number,
      name: doc.description || (doc.number === 0 ? message("pipeline:mainDocument") : message("pipeline:attachment", { number: doc.number })),
      date: entry?.date_filed ?? null,
      sealed: sealed ? 1 : 0,
      court_document_id: doc.pacer_doc_id,
      url: doc.url,
      file_id: null,
      fetch_status: sealed ? "restricted" : fetchable ? "pending" : "unavailable",
      fetch_error: sealed ? message("pipeline:sealed") : null,
      uploaded: 0,
      stamped_by_court: 0,
      dms_status: "new",
      created_at: now,
    };
  });
  const fetches = documents
    .filter((doc) => doc.fetch_status === "pending")
    .map((doc) => jobRow({ kind: "fetch-document", firmId: item.firm_id, refId: doc.id, runAt: now }));
  await writeEnvelope(ctx, envelope, documents, fetches);
  return { envelopeId: envelope.id, duplicateOf: null, documentsToFetch: fetches.length };
}

/**
 * The envelope, its documents and their fetch jobs, committed together. On PostgreSQL one
 * statement of data-modifying CTEs (atomic on its own, one round trip); on SQLite a transaction.
 */
async function writeEnvelope(
  ctx: ServerContext,
  envelope: Insertable<DB["envelope"]>,
  documents: Insertable<DB["document"]>[],
  fetches: Insertable<DB["job"]>[],
): Promise<void> {
  const db = ctx.database.db;
  if (ctx.database.dialect === "postgres") {
    const withEnvelope = db.with("envelope_written", (qc) => qc.insertInto("envelope").values(envelope)) as unknown as QueryCreator<DB>;
    const statement = documents.length
      ? (withEnvelope.with("documents_written", (qc) => qc.insertInto("document").values(documents)) as unknown as QueryCreator<DB>)
      : withEnvelope;
    await (fetches.length ? statement.insertInto("job").values(fetches) : statement.selectNoFrom([sql<number>`1`.as("written")])).execute();
    return;
  }
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("envelope").values(envelope).execute();
    if (documents.length) await trx.insertInto("document").values(documents).execute();
    if (fetches.length) await trx.insertInto("job").values(fetches).execute();
  });
}

/** A pending document whose fetch job is gone (lost in a crash) gets a new one, so the item can finish. */
async function requeueLostFetches(ctx: ServerContext, firmId: number, documentIds: string[]): Promise<void> {
  if (documentIds.length === 0) return;
  const db = ctx.database.db;
  const queued = await db.selectFrom("job").select("ref_id").where("kind", "=", "fetch-document").where("ref_id", "in", documentIds).execute();
  const lost = documentIds.filter((id) => !queued.some((job) => job.ref_id === id));
  const now = ctx.clock.now();
  for (const id of lost) await enqueue(db, { kind: "fetch-document", firmId, refId: id, runAt: now });
}
