import { sql } from "kysely";
import type { ServerContext } from "./context";
import type { Job } from "./queue/queue";
import type { JobHandler, JobHandlers, StageOf } from "./queue/worker";
import { MAX_MAIL_ATTEMPTS, deliverRecordedMail } from "./notify/deliver-recorded-mail";
import { MAX_NOTIFY_ATTEMPTS, notifyInboxItem } from "./notify/notify-inbox-item";
import { MAX_STORAGE_ATTEMPTS, storeInboxItem } from "./filing/store-inbox-item";
import { applyWalls } from "./walls/apply-walls";
import { deliverWebhook } from "./webhooks/deliver-webhook";
import { MAX_EXTRACTION_ATTEMPTS, extractTitle, titleGivenUp } from "./pipeline/extract-title";
import { MAX_FETCH_ATTEMPTS, fetchDocument, finishWhenAllFetched } from "./pipeline/fetch-document";
import { setItem } from "./pipeline/item-state";
import { processInboxItem } from "./pipeline/process-inbox-item";
import { runRetrieve } from "./pipeline/case-retrieve";
import { MAX_TRACK_ATTEMPTS, pollTrackedCase, scheduleNextPoll } from "./pipeline/track-case";
import { checkMissedNotices } from "./pipeline/missed-notices";

// What a stage left, for the worker's line per stage: the item's status (and disposition, DMS
// status), or the document's fetch or title status and the item it belongs to. The columns are
// named once per table: read with the job's completion on PostgreSQL (`left`), elsewhere by
// `describe`.
function stageOf<Row>(
  table: "inbox_item" | "document",
  columns: readonly (keyof Row & string)[],
  say: (job: Job, row: Row) => StageOf,
  none: (job: Job) => StageOf,
) {
  return {
    left: (job: Job) =>
      sql`(select json_build_object(${sql.join(columns.flatMap((column) => [sql.lit(column), sql.ref(column)]))}) from ${sql.table(table)} where id = ${job.ref_id})`,
    async describe(ctx: ServerContext, job: Job, left?: unknown): Promise<StageOf> {
      const row =
        left !== undefined
          ? (left as Row | null)
          : (
              await sql<Row>`select ${sql.join(columns.map((column) => sql.ref(column)))} from ${sql.table(table)} where id = ${job.ref_id}`.execute(
                ctx.database.db,
              )
            ).rows[0];
      return row ? say(job, row) : none(job);
    },
  } satisfies Pick<JobHandler, "left" | "describe">;
}

const itemStage = stageOf<{ status: string; disposition: string; dms_status: string }>(
  "inbox_item",
  ["status", "disposition", "dms_status"],
  (job, item) => ({
    itemId: job.ref_id,
    outcome:
      job.kind === "store-inbox-item" ? `dms ${item.dms_status}` : item.disposition === "No Disposition" ? item.status : `${item.status} (${item.disposition})`,
  }),
  (job) => ({ itemId: job.ref_id }),
);

const documentStage = stageOf<{ processed_from_id: string; fetch_status: string; title_extraction: string | null }>(
  "document",
  ["processed_from_id", "fetch_status", "title_extraction"],
  (job, document) => ({
    itemId: document.processed_from_id,
    outcome: job.kind === "extract-title" ? `title ${document.title_extraction ?? "none"}` : document.fetch_status,
  }),
  () => ({}),
);

// Processing an item shows its retries and its failure on the item itself.
const processItem: JobHandler = {
  run: (ctx, job) => processInboxItem(ctx, job.ref_id),
  ...itemStage,
  onRetry: (ctx, job, reason) =>
    setItem(ctx, { id: job.ref_id, firm_id: job.firm_id }, { status: "Retry", reason }, { event: "retry", detail: reason, level: "WARNING" }),
  onGiveUp: (ctx, job, reason) =>
    setItem(
      ctx,
      { id: job.ref_id, firm_id: job.firm_id },
      { status: "Failed", action_required: "ECFX", reason },
      { event: "failed", detail: reason, level: "ERROR" },
    ),
};

// The item waits for a title as for a fetch: once the document is done, the item may move on.
const extractDocumentTitle: JobHandler = {
  run: async (ctx, job) => {
    const item = await extractTitle(ctx, job.ref_id, job.attempts);
    if (item) await finishWhenAllFetched(ctx, item.id, item.firm_id);
  },
  attempts: MAX_EXTRACTION_ATTEMPTS,
  ...documentStage,
  onGiveUp: async (ctx, job, reason) => {
    const item = await titleGivenUp(ctx, job.ref_id, reason);
    if (item) await finishWhenAllFetched(ctx, item.id, item.firm_id);
  },
};

// A court feed that cannot be read is tried again soon, then at the next regular poll.
const trackCase: JobHandler = {
  run: (ctx, job) => pollTrackedCase(ctx, job.firm_id, job.ref_id, job.id),
  attempts: MAX_TRACK_ATTEMPTS,
  onGiveUp: (ctx, job) => scheduleNextPoll(ctx, job.firm_id, job.ref_id, job.id),
};

/** What each kind of job of the notice pipeline does, for the worker. */
export const PIPELINE_JOBS: JobHandlers = {
  "process-inbox-item": processItem,
  "fetch-document": {
    run: (ctx, job) => fetchDocument(ctx, job.ref_id, job.attempts),
    attempts: MAX_FETCH_ATTEMPTS,
    ...documentStage,
  },
  "extract-title": extractDocumentTitle,
  "apply-walls": { run: (ctx, job) => applyWalls(ctx, job.firm_id) },
  "store-inbox-item": { run: (ctx, job) => storeInboxItem(ctx, job.ref_id, job.attempts), attempts: MAX_STORAGE_ATTEMPTS, ...itemStage },
  "notify-inbox-item": {
    run: (ctx, job) => notifyInboxItem(ctx, job.ref_id, job.attempts),
    attempts: MAX_NOTIFY_ATTEMPTS,
    ...itemStage,
  },
  // A delivery keeps its own attempts and back-off (a day of them); the job only runs the next one.
  "deliver-webhook": { run: (ctx, job) => deliverWebhook(ctx, job.ref_id) },
  "deliver-mail": { run: (ctx, job) => deliverRecordedMail(ctx, job.ref_id, job.attempts), attempts: MAX_MAIL_ATTEMPTS },
  "track-case": trackCase,
  "retrieve-case": { run: (ctx, job) => runRetrieve(ctx, job.firm_id, job.ref_id) },
  "check-missed-notices": { run: (ctx, job) => checkMissedNotices(ctx, job.firm_id, job.id) },
};
