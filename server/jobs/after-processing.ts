import type { ServerContext } from "../context";
import { findFirm } from "../firm/firm-repository";
import { enqueue } from "./queue";

// Once a notice is on its case and its documents are fetched (or could not be), two things
// follow: filing it through the storage policy, and telling the people who want to hear.
// A firm that waits for the DMS attempt before notifying gets the mail from the storage job.

export async function afterItemProcessed(ctx: ServerContext, item: { id: string; firm_id: number }): Promise<void> {
  const firm = await findFirm(ctx.database, item.firm_id);
  const now = ctx.clock.now();
  await ctx.database.db.transaction().execute(async (trx) => {
    await enqueue(trx, { kind: "store-inbox-item", firmId: item.firm_id, refId: item.id, runAt: now });
    if (!firm?.wait_for_dms_attempt_to_notify) {
      await enqueue(trx, { kind: "notify-inbox-item", firmId: item.firm_id, refId: item.id, runAt: now });
    }
  });
}

/** Called by the storage job once its attempt is over, whatever the outcome. */
export async function afterStorageAttempt(ctx: ServerContext, item: { id: string; firm_id: number }): Promise<void> {
  const firm = await findFirm(ctx.database, item.firm_id);
  if (firm?.wait_for_dms_attempt_to_notify) {
    await enqueue(ctx.database.db, { kind: "notify-inbox-item", firmId: item.firm_id, refId: item.id, runAt: ctx.clock.now() });
  }
}
