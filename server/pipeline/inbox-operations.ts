import type { ServerContext } from "../context";
import { setItem } from "./item-state";
import { enqueue } from "./queue";

export const BULK_ACTIONS = ["retry", "archive", "manual"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** Retry reaches back 30 days (spec §9): older notices' free-look links have long expired. */
export const RETRY_WINDOW_MS = 30 * 24 * 3600 * 1000;
const RETRYABLE = ["Failed", "Action Required", "Retry", "Manual"];

export interface BulkOutcome {
  done: string[];
  skipped: { id: string; reason: string }[];
}

/** Applies one action to many items of the firm; what cannot be done is reported per item. */
export async function applyBulkAction(ctx: ServerContext, firmId: number, action: BulkAction, ids: string[]): Promise<BulkOutcome> {
  const db = ctx.database.db;
  const items = await db.selectFrom("inbox_item").select(["id", "firm_id", "status", "created_at"]).where("firm_id", "=", firmId).where("id", "in", ids).execute();
  const outcome: BulkOutcome = { done: [], skipped: ids.filter((id) => !items.some((i) => i.id === id)).map((id) => ({ id, reason: "not found" })) };
  const now = ctx.clock.now();
  for (const item of items) {
    if (action === "archive") {
      await db.updateTable("inbox_item").set({ hidden: 1, updated_at: now }).where("id", "=", item.id).execute();
      await setItem(ctx, item, {}, { event: "archived" });
    } else if (action === "manual") {
      await setItem(ctx, item, { status: "Manual", action_required: "USER" }, { event: "process manually" });
    } else {
      if (now - item.created_at > RETRY_WINDOW_MS) {
        outcome.skipped.push({ id: item.id, reason: "older than 30 days" });
        continue;
      }
      if (!RETRYABLE.includes(item.status)) {
        outcome.skipped.push({ id: item.id, reason: `status ${item.status}` });
        continue;
      }
      await setItem(ctx, item, { status: "New", action_required: "NONE", reason: "" }, { event: "retry requested" });
      await enqueue(db, { kind: "process-inbox-item", firmId, refId: item.id, runAt: now });
    }
    outcome.done.push(item.id);
  }
  return outcome;
}

/** A person picked the case the machine could not find: process the notice again onto it. */
export async function reprocessWithCase(ctx: ServerContext, firmId: number, itemId: string, caseId: string): Promise<boolean> {
  const db = ctx.database.db;
  const item = await db.selectFrom("inbox_item").select(["id", "firm_id"]).where("id", "=", itemId).where("firm_id", "=", firmId).executeTakeFirst();
  const found = await db.selectFrom("court_case").select("id").where("id", "=", caseId).where("firm_id", "=", firmId).executeTakeFirst();
  if (!item || !found) return false;
  await setItem(ctx, item, { status: "New", action_required: "NONE", reason: "", case_id: caseId }, { event: "case picked", detail: caseId });
  await enqueue(db, { kind: "process-inbox-item", firmId, refId: item.id, runAt: ctx.clock.now() });
  return true;
}
