import type { Updateable } from "kysely";
import { pageCount, recordPacerDocument } from "../billing/court-costs";
import type { ServerContext } from "../context";
import { RetryableFetchError } from "../courts/connector";
import type { DB } from "../db/schema";
import { message } from "../lib/messages";
import { firmCourtSession } from "../courts/firm-court-session";
import { pauseAt } from "../lib/test-pause";
import { jobsAfterProcessing } from "../queue/after-processing";
import { type JobKind, enqueue, jobRow } from "../queue/queue";
import { setItem } from "./item-state";
import { titleExtractionFor } from "./extract-title";
import { documentProcessingOf, stampDecision } from "./stamp-wait";

export const MAX_FETCH_ATTEMPTS = 5;

/**
 * Fetches one document through its free-look link and stores the bytes. Returns normally when the
 * job is done (fetched, or restricted: recorded and never retried); throws to be retried.
 */
export async function fetchDocument(ctx: ServerContext, documentId: string, attempt: number): Promise<void> {
  const db = ctx.database.db;
  const doc = await db
    .selectFrom("document")
    .innerJoin("envelope", "envelope.id", "document.envelope_id")
    .select([
      "document.id",
      "document.url",
      "document.fetch_status",
      "document.processed_from_id",
      "document.firm_id",
      "document.stamp_wait_started_at",
      "document.name",
      "envelope.case_id",
      "envelope.docket_text",
      "envelope.ecfx_jurisdiction_id as court",
    ])
    .where("document.id", "=", documentId)
    .executeTakeFirst();
  if (!doc) return;
  // A job run again after a crash finds its document done and only carries the item on.
  if (doc.fetch_status === "pending" && doc.url) await fetchPending(ctx, { ...doc, url: doc.url }, attempt);
  await finishWhenAllFetched(ctx, doc.processed_from_id, doc.firm_id);
}

interface PendingDocument {
  id: string;
  url: string;
  court: string | null;
  firm_id: number;
  processed_from_id: string;
  stamp_wait_started_at: number | null;
  name: string;
  case_id: string | null;
  docket_text: string | null;
}

async function fetchPending(ctx: ServerContext, doc: PendingDocument, attempt: number): Promise<void> {
  const db = ctx.database.db;
  let recorded = false;
  try {
    // The firm's provider account is only read and signed in with once the free look has failed.
    const outcome = await ctx.courts.fetchDocument(doc.url, doc.court, () => firmCourtSession(ctx, doc.firm_id, doc.processed_from_id));
    if (outcome.kind === "document") {
      if (!outcome.stamped && (await waitForStamp(ctx, doc))) return;
      const sha = await ctx.blobs.put(outcome.bytes, outcome.contentType, ctx.clock.now());
      const extraction = await titleExtractionFor(ctx, doc.processed_from_id, doc.firm_id);
      // Fetched signed in, outside the free look: the court's charge becomes a cost on the case (decision 113).
      const pages = outcome.charged ? await pageCount(outcome.bytes) : null;
      const fetched = {
        file_id: sha,
        fetch_status: "fetched",
        fetch_error: null,
        stamped_by_court: outcome.stamped ? 1 : 0,
        title_extraction: extraction ? "pending" : null,
      } as const;
      const titleJob = { kind: "extract-title", firmId: doc.firm_id, refId: doc.id, runAt: ctx.clock.now() } as const;
      if (outcome.charged) {
        // The court's charge, the document and the title to ask for commit together.
        await db.transaction().execute(async (trx) => {
          await trx.updateTable("document").set(fetched).where("id", "=", doc.id).execute();
          if (extraction) await enqueue(trx, titleJob);
          await recordPacerDocument(trx, {
            firmId: doc.firm_id,
            documentId: doc.id,
            caseId: doc.case_id,
            name: doc.name,
            docketText: doc.docket_text,
            pages,
            at: ctx.clock.now(),
          });
        });
      } else if (extraction) {
        // The title to ask for commits with its job, so the item never waits for a title nobody asks.
        await changeDocumentWithJob(ctx, doc.id, fetched, titleJob);
      } else {
        // The document alone is one statement: it needs no transaction.
        await db.updateTable("document").set(fetched).where("id", "=", doc.id).execute();
      }
      recorded = true;
    } else {
      await db.updateTable("document").set({ fetch_status: "restricted", fetch_error: outcome.reason }).where("id", "=", doc.id).execute();
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof RetryableFetchError && attempt < MAX_FETCH_ATTEMPTS) throw error;
    await db
      .updateTable("document")
      .set({ fetch_status: "failed", fetch_error: reason.slice(0, 1000) })
      .where("id", "=", doc.id)
      .execute();
  }
  // The court may not serve the document again (a free look is used once) or may charge for it
  // again: its record is on the disk before the job goes on (decision 139).
  if (recorded) await ctx.database.commitsOnDisk();
  await pauseAt("document-fetched");
}

/**
 * An unstamped copy, for a firm whose document processing waits for the stamp: the document stays
 * pending and a job fetches it again later, committed with the start of the wait. False once the
 * wait is over: the unstamped copy is kept.
 */
async function waitForStamp(ctx: ServerContext, doc: PendingDocument): Promise<boolean> {
  const now = ctx.clock.now();
  const startedAt = doc.stamp_wait_started_at ?? now;
  const decision = stampDecision(await documentProcessingOf(ctx.database.db, doc.processed_from_id), startedAt, now);
  if (decision.kind === "keep") return false;
  await changeDocumentWithJob(
    ctx,
    doc.id,
    { stamp_wait_started_at: startedAt },
    { kind: "fetch-document", firmId: doc.firm_id, refId: doc.id, runAt: decision.until },
  );
  return true;
}

/**
 * A document's change and the job that follows it, committed together: on PostgreSQL one
 * statement (a data-modifying CTE, atomic on its own), on SQLite a transaction.
 */
async function changeDocumentWithJob(
  ctx: ServerContext,
  documentId: string,
  set: Updateable<DB["document"]>,
  job: { kind: JobKind; firmId: number; refId: string; runAt: number },
): Promise<void> {
  const db = ctx.database.db;
  if (ctx.database.dialect === "postgres") {
    await db
      .with("changed", (qc) => qc.updateTable("document").set(set).where("id", "=", documentId).returning("id"))
      .insertInto("job")
      .values(jobRow(job))
      .execute();
    return;
  }
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("document").set(set).where("id", "=", documentId).execute();
    await enqueue(trx, job);
  });
}

/**
 * The item is done once none of its documents waits for a fetch or for its title. Called after
 * each fetch and title, and once by the processing job itself, since the fetches may all finish
 * before it marks the item.
 */
export async function finishWhenAllFetched(ctx: ServerContext, itemId: string, firmId: number): Promise<void> {
  const db = ctx.database.db;
  const docs = await db.selectFrom("document").select(["fetch_status", "fetch_error", "title_extraction"]).where("processed_from_id", "=", itemId).execute();
  if (docs.some((d) => d.fetch_status === "pending" || d.title_extraction === "pending")) return;
  const failed = docs.filter((d) => d.fetch_status === "failed");
  const count = (status: string) => docs.filter((d) => d.fetch_status === status).length;
  const counts = message("pipeline:events.fetched", { fetched: count("fetched"), restricted: count("restricted"), failed: count("failed") });
  const item = { id: itemId, firm_id: firmId };
  // Two last fetches may finish together: only the one that moves the item on queues what follows.
  await setItem(
    ctx,
    item,
    failed.length
      ? {
          status: "Action Required",
          action_required: "ECFX",
          reason: failed
            .map((d) => d.fetch_error)
            .join("; ")
            .slice(0, 1000),
        }
      : { status: "Succeeded" },
    { event: "documents fetched", detail: counts, level: failed.length ? "WARNING" : "INFO" },
    { onlyFrom: "Post Processing", next: await jobsAfterProcessing(ctx, item) },
  );
}
