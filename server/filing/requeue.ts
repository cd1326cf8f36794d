import type { ServerContext } from "../context";
import { message } from "../lib/messages";
import { logEvent } from "../queue/event-log";
import { enqueue } from "../queue/queue";

/** What a requeue did, per item: the shape of the inbox's bulk actions. */
export interface RequeueOutcome {
  done: string[];
  skipped: { id: string; reason: string }[];
}

const TO_RETRY = ["failed", "canceled", "delayed"];

/**
 * Sends notices to the DMS again: what failed or was canceled is attempted once more with a
 * fresh set of attempts; what is already stored stays stored (the storage job never stores a
 * document twice for one policy). A storage job already waiting is brought forward, not doubled.
 */
export async function requeueStorage(ctx: ServerContext, firmId: number, itemIds: string[]): Promise<RequeueOutcome> {
  const db = ctx.database.db;
  const ids = [...new Set(itemIds)];
  const items = ids.length
    ? await db.selectFrom("inbox_item").select(["id", "firm_id", "disposition", "case_id"]).where("firm_id", "=", firmId).where("id", "in", ids).execute()
    : [];
  const outcome: RequeueOutcome = { done: [], skipped: [] };
  for (const id of ids) {
    const item = items.find((i) => i.id === id);
    if (!item) {
      outcome.skipped.push({ id, reason: message("inbox:bulk.reasons.notFound") });
      continue;
    }
    if (item.disposition !== "Processed" || !item.case_id) {
      outcome.skipped.push({ id, reason: message("storage:requeue.notProcessed") });
      continue;
    }
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("dms_record")
        .set({ status: "new", error: null, updated_at: now })
        .where("inbox_item_id", "=", id)
        .where("status", "in", TO_RETRY)
        .execute();
      await trx.updateTable("document").set({ dms_status: "new" }).where("processed_from_id", "=", id).where("dms_status", "in", TO_RETRY).execute();
      await trx.updateTable("inbox_item").set({ dms_status: "new", updated_at: now }).where("id", "=", id).execute();
      const waiting = await trx.selectFrom("job").select(["id", "locked_until"]).where("kind", "=", "store-inbox-item").where("ref_id", "=", id).execute();
      const idle = waiting.filter((job) => job.locked_until === null || job.locked_until < now);
      if (idle.length) {
        await trx
          .updateTable("job")
          .set({ run_at: now, attempts: 0, last_error: null })
          .where(
            "id",
            "in",
            idle.map((job) => job.id),
          )
          .execute();
      } else if (waiting.length === 0) {
        await enqueue(trx, { kind: "store-inbox-item", firmId, refId: id, runAt: now });
      }
      await logEvent(trx, { firmId, inboxItemId: id, at: now, event: "requeued to the DMS" });
    });
    outcome.done.push(id);
  }
  return outcome;
}
