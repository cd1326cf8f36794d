import type { JobHandler, JobHandlers } from "../jobs/worker";
import { MAX_MAIL_ATTEMPTS, deliverRecordedMail } from "./deliver-recorded-mail";
import { MAX_NOTIFY_ATTEMPTS, notifyInboxItem } from "../notify/notify-inbox-item";
import { MAX_STORAGE_ATTEMPTS, storeInboxItem } from "../storage/store-inbox-item";
import { applyWalls } from "../walls/apply-walls";
import { deliverWebhook } from "./deliver-webhook";
import { MAX_EXTRACTION_ATTEMPTS, extractTitle, titleGivenUp } from "./extract-title";
import { MAX_FETCH_ATTEMPTS, fetchDocument, finishWhenAllFetched } from "./fetch-document";
import { setItem } from "./item-state";
import { processInboxItem } from "./process-inbox-item";
import { runRetrieve } from "./case-retrieve";
import { MAX_TRACK_ATTEMPTS, pollTrackedCase, scheduleNextPoll } from "./track-case";
import { checkMissedNotices } from "./missed-notices";

// Processing an item shows its retries and its failure on the item itself.
const processItem: JobHandler = {
  run: (ctx, job) => processInboxItem(ctx, job.ref_id),
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
  "fetch-document": { run: (ctx, job) => fetchDocument(ctx, job.ref_id, job.attempts), attempts: MAX_FETCH_ATTEMPTS },
  "extract-title": extractDocumentTitle,
  "apply-walls": { run: (ctx, job) => applyWalls(ctx, job.firm_id) },
  "store-inbox-item": { run: (ctx, job) => storeInboxItem(ctx, job.ref_id, job.attempts), attempts: MAX_STORAGE_ATTEMPTS },
  "notify-inbox-item": { run: (ctx, job) => notifyInboxItem(ctx, job.ref_id, job.attempts), attempts: MAX_NOTIFY_ATTEMPTS },
  // A delivery keeps its own attempts and back-off (a day of them); the job only runs the next one.
  "deliver-webhook": { run: (ctx, job) => deliverWebhook(ctx, job.ref_id) },
  "deliver-mail": { run: (ctx, job) => deliverRecordedMail(ctx, job.ref_id, job.attempts), attempts: MAX_MAIL_ATTEMPTS },
  "track-case": trackCase,
  "retrieve-case": { run: (ctx, job) => runRetrieve(ctx, job.firm_id, job.ref_id) },
  "check-missed-notices": { run: (ctx, job) => checkMissedNotices(ctx, job.firm_id, job.id) },
};
