import type { ServerContext } from "../context";
import { firmSetting } from "../firm/firm-repository";
import type { NextJob } from "./queue";

// Once a notice is on its case and its documents are fetched (or could not be), two things
// follow: filing it through the storage policy, and telling the people who want to hear.
// A firm that waits for the DMS attempt before notifying gets the mail from the storage job.
// Both are returned as jobs, to be committed with the state change they follow.

/** The one firm setting that orders the jobs (from the job's record of the firm). */
const waitsForDmsAttempt = (ctx: ServerContext, firmId: number): Promise<boolean> => firmSetting(ctx.database.db, firmId, "wait_for_dms_attempt_to_notify");

export async function jobsAfterProcessing(ctx: ServerContext, item: { id: string; firm_id: number }): Promise<NextJob[]> {
  const jobs: NextJob[] = [{ kind: "store-inbox-item", refId: item.id }];
  if (!(await waitsForDmsAttempt(ctx, item.firm_id))) jobs.push({ kind: "notify-inbox-item", refId: item.id });
  return jobs;
}

/** What follows the storage job once its attempt is over, whatever the outcome. */
export async function jobsAfterStorageAttempt(ctx: ServerContext, item: { id: string; firm_id: number }): Promise<NextJob[]> {
  return (await waitsForDmsAttempt(ctx, item.firm_id)) ? [{ kind: "notify-inbox-item", refId: item.id }] : [];
}
