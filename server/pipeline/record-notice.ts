import type { Selectable } from "kysely";
import type { ServerContext } from "../context";
import type { InboxItemTable } from "../db/schema";
import { newId } from "../lib/ids";
import type { ParsedDocket, ParsedNotice } from "../notices";
import { enqueue } from "../queue/queue";
import { message } from "../lib/messages";

export interface Recorded {
  envelopeId: string | null;
  duplicateOf: string | null;
  documentsToFetch: number;
}

/**
 * The envelope (what was filed) and its documents on the matched case. A court document this
 * case already has means the notice is a duplicate: it is linked to the first and recorded no
 * second time. Documents are queued for fetching at once: the free look is single-use.
 */
export async function recordNotice(
  ctx: ServerContext,
  item: Selectable<InboxItemTable>,
  notice: ParsedNotice,
  docket: ParsedDocket,
  caseId: string,
): Promise<Recorded> {
  const db = ctx.database.db;
  // Processing again after a crash: what this item already recorded stands.
  const existing = await db.selectFrom("envelope").select("id").where("inbox_item_id", "=", item.id).executeTakeFirst();
  if (existing) {
    const pending = await db.selectFrom("document").select("id").where("envelope_id", "=", existing.id).where("fetch_status", "=", "pending").execute();
    await requeueLostFetches(
      ctx,
      item.firm_id,
      pending.map((d) => d.id),
    );
    return { envelopeId: existing.id, duplicateOf: null, documentsToFetch: pending.length };
  }
  const entry = docket.docket_entries[0];
  const courtDocumentIds = (entry?.documents ?? []).map((d) => d.pacer_doc_id).filter((v): v is string => Boolean(v));
  if (entry?.pacer_doc_id) courtDocumentIds.push(entry.pacer_doc_id);
  if (courtDocumentIds.length) {
    const earlier = await db
      .selectFrom("document")
      .innerJoin("envelope", "envelope.id", "document.envelope_id")
      .select("document.processed_from_id")
      .where("document.firm_id", "=", item.firm_id)
      .where("envelope.case_id", "=", caseId)
      .where("document.court_document_id", "in", courtDocumentIds)
      .where("document.processed_from_id", "!=", item.id)
      .executeTakeFirst();
    if (earlier) return { envelopeId: null, duplicateOf: earlier.processed_from_id, documentsToFetch: 0 };
  }

  const now = ctx.clock.now();
  const envelopeId = newId();
  let toFetch = 0;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("envelope")
      .values({
        id: envelopeId,
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
      })
      .execute();
    const documents = entry?.documents.length
      ? entry.documents
      : entry?.document_url
        ? [{ number: 0, description: entry.short_description, url: entry.document_url, pacer_doc_id: entry.pacer_doc_id }]
        : [];
    for (const doc of documents) {
      const id = newId();
      const sealed = Boolean(entry?.sealed);
      const fetchable = Boolean(doc.url) && !sealed;
      await trx
        .insertInto("document")
        .values({
          id,
          firm_id: item.firm_id,
          envelope_id: envelopeId,
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
        })
        .execute();
      if (fetchable) {
        toFetch++;
        await enqueue(trx, { kind: "fetch-document", firmId: item.firm_id, refId: id, runAt: now });
      }
    }
  });
  return { envelopeId, duplicateOf: null, documentsToFetch: toFetch };
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
