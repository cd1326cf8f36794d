import type { ServerContext } from "../context";
import { enqueue } from "../queue/queue";
import { HttpError } from "../lib/errors";
import { message } from "../lib/messages";
import { RETRIEVE_STEPS, type RetrieveMode, type RetrieveStatus, type RetrieveView, retrieveUnderWay } from "../../app/common/case-tracking";
import { type CaseCourt, caseCourt } from "./case-court";
import { receiveCaseEntry, unreceivedEntries } from "./case-docket-entries";
import { MAX_FETCH_ATTEMPTS, fetchDocument } from "./fetch-document";

// Case retrieve (spec §4, decision 054). "Update case" reads the court's docket for the case: its
// new entries become inbox items that the pipeline files and fetches (Updating, then Update
// Succeeded or Update Failed). "Retrieve documents" fetches again the documents the case already
// lists that could not be fetched (Retrieve In Progress, then Retrieve Succeeded or Failed); when
// an update fails, the page offers it: the available documents, anyway.

export async function retrieveOf(ctx: ServerContext, firmId: number, court: CaseCourt): Promise<RetrieveView> {
  const row = await ctx.database.db
    .selectFrom("case_retrieve")
    .selectAll()
    .where("firm_id", "=", firmId)
    .where("case_id", "=", court.caseId)
    .executeTakeFirst();
  return {
    status: (row?.status as RetrieveStatus | undefined) ?? "None",
    reason: row?.reason ?? "",
    updated_at: row ? Number(row.updated_at) : null,
    court_id: court.courtId,
    court_connected: court.courtId !== null,
  };
}

async function setStatus(ctx: ServerContext, firmId: number, caseId: string, status: RetrieveStatus, reason = ""): Promise<void> {
  await ctx.database.db
    .updateTable("case_retrieve")
    .set({ status, reason: reason.slice(0, 1000), updated_at: ctx.clock.now() })
    .where("firm_id", "=", firmId)
    .where("case_id", "=", caseId)
    .execute();
}

/** Starts a retrieve of the case as a job; 409 when its court is not connected or one is under way. */
export async function startRetrieve(ctx: ServerContext, firmId: number, court: CaseCourt, mode: RetrieveMode): Promise<RetrieveView> {
  if (!court.courtId) throw new HttpError(409, message("errors:retrieveNoCourt"));
  const now = ctx.clock.now();
  const status = RETRIEVE_STEPS[mode].running;
  await ctx.database.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("case_retrieve").select("status").where("firm_id", "=", firmId).where("case_id", "=", court.caseId).executeTakeFirst();
    if (row && retrieveUnderWay(row.status as RetrieveStatus)) throw new HttpError(409, message("errors:retrieveUnderWay"));
    if (row) {
      await trx
        .updateTable("case_retrieve")
        .set({ status, mode, reason: "", updated_at: now })
        .where("firm_id", "=", firmId)
        .where("case_id", "=", court.caseId)
        .execute();
    } else {
      await trx.insertInto("case_retrieve").values({ case_id: court.caseId, firm_id: firmId, status, mode, reason: "", updated_at: now }).execute();
    }
    await enqueue(trx, { kind: "retrieve-case", firmId, refId: court.caseId, runAt: now });
  });
  return retrieveOf(ctx, firmId, court);
}

/** Fetches again each document of the case whose fetch failed; the count that still failed. */
async function retrieveDocuments(ctx: ServerContext, firmId: number, caseId: string): Promise<number> {
  const db = ctx.database.db;
  const failed = await db
    .selectFrom("document")
    .innerJoin("envelope", "envelope.id", "document.envelope_id")
    .select("document.id")
    .where("document.firm_id", "=", firmId)
    .where("envelope.case_id", "=", caseId)
    .where("document.fetch_status", "=", "failed")
    .where("document.url", "is not", null)
    .execute();
  let stillFailed = 0;
  for (const { id } of failed) {
    await db.updateTable("document").set({ fetch_status: "pending", fetch_error: null }).where("id", "=", id).execute();
    // The last attempt: a court that fails now is recorded, not retried; the user may retrieve again.
    await fetchDocument(ctx, id, MAX_FETCH_ATTEMPTS);
    const after = await db.selectFrom("document").select("fetch_status").where("id", "=", id).executeTakeFirst();
    if (after?.fetch_status === "failed") stillFailed++;
  }
  return stillFailed;
}

/** The "retrieve-case" job: the update or the documents, as asked; the status says how it went. */
export async function runRetrieve(ctx: ServerContext, firmId: number, caseId: string): Promise<void> {
  const db = ctx.database.db;
  const row = await db.selectFrom("case_retrieve").selectAll().where("firm_id", "=", firmId).where("case_id", "=", caseId).executeTakeFirst();
  const court = await caseCourt(db, firmId, caseId);
  if (!row || !court || !retrieveUnderWay(row.status as RetrieveStatus)) return;
  const mode: RetrieveMode = row.mode === "update" ? "update" : "documents";
  const steps = RETRIEVE_STEPS[mode];
  if (!court.courtId) return setStatus(ctx, firmId, caseId, steps.failed, message("errors:retrieveNoCourt"));
  if (mode === "update") {
    try {
      const entries = await unreceivedEntries(ctx, firmId, { ...court, courtId: court.courtId });
      for (const entry of entries) {
        await db.transaction().execute((trx) => receiveCaseEntry(trx, entry, { firmId, caseId, source: "RETRIEVE", periodId: null, now: ctx.clock.now() }));
      }
    } catch (error) {
      // No retry behind the user's back: the page offers to retrieve the available documents anyway.
      return setStatus(ctx, firmId, caseId, steps.failed, error instanceof Error ? error.message : String(error));
    }
    return setStatus(ctx, firmId, caseId, steps.succeeded);
  }
  const stillFailed = await retrieveDocuments(ctx, firmId, caseId);
  if (stillFailed > 0) await setStatus(ctx, firmId, caseId, steps.failed, message("errors:retrieveDocuments", { count: stillFailed }));
  else await setStatus(ctx, firmId, caseId, steps.succeeded);
}
