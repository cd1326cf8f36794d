import type { ServerContext } from "../context";
import { enqueue } from "../queue/queue";
import { wallCheck } from "./walls";

// The firm's internal walls state (spec §4): "applying" from a change of walls until the change
// has been carried into what is already queued, then "applied"; "unapplied" while walls are off.

export async function scheduleWallsRecomputation(ctx: ServerContext, firmId: number): Promise<void> {
  const db = ctx.database.db;
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("firm").set({ internal_walls_state: "applying" }).where("id", "=", firmId).execute();
    await enqueue(trx, { kind: "apply-walls", firmId, refId: String(firmId), runAt: ctx.clock.now() });
  });
}

/**
 * Carries the walls into notifications that have not gone out yet (digests waiting for their
 * hour): a timekeeper walled out since is withdrawn from them.
 */
export async function applyWalls(ctx: ServerContext, firmId: number): Promise<void> {
  const db = ctx.database.db;
  const firm = await db.selectFrom("firm").select("internal_walls_enabled").where("id", "=", firmId).executeTakeFirst();
  if (!firm) return;
  if (firm.internal_walls_enabled) {
    const pending = await db
      .selectFrom("notification")
      .innerJoin("inbox_item", "inbox_item.id", "notification.inbox_item_id")
      .select(["notification.id", "notification.timekeeper_id", "inbox_item.case_id"])
      .where("notification.firm_id", "=", firmId)
      .where("notification.status", "=", "pending")
      .where("notification.timekeeper_id", "is not", null)
      .execute();
    const walledOut = wallCheck(db, firmId);
    for (const row of pending) {
      if (await walledOut(row.case_id, row.timekeeper_id)) {
        await db.updateTable("notification").set({ status: "withheld", reason: "ethical wall" }).where("id", "=", row.id).execute();
      }
    }
  }
  await db
    .updateTable("firm")
    .set({ internal_walls_state: firm.internal_walls_enabled ? "applied" : "unapplied" })
    .where("id", "=", firmId)
    .execute();
}
