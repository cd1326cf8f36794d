import { type Kysely, type Transaction, sql } from "kysely";
import { jurisdictionPreferences } from "../../app/common/resources/jurisdiction-preferences";
import type { Caller } from "../auth/caller";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { holdFirm } from "../db/hold-firm";
import { invalid } from "../lib/errors";
import { message } from "../lib/messages";
import { auditChange } from "./audit";

// The order of the firm's jurisdiction preferences: the first enabled one that matches a notice
// applies, so the order is the setting. Every change of it rewrites the whole order, 1..n, in one
// transaction that holds the firm's row: two reorders (or a reorder and a new preference) at once
// run one after the other, and no order is ever held twice or lost.

const TABLE = "jurisdiction_preference";

async function currentOrder(db: Kysely<DB>, firmId: number): Promise<{ id: string; order: number; name: string }[]> {
  return db.selectFrom(TABLE).select(["id", "order", "name"]).where("firm_id", "=", firmId).orderBy("order").orderBy("created_at").orderBy("id").execute();
}

/** Writes 1..n in the given order, touching only the rows that move. */
async function writeOrder(trx: Transaction<DB>, firmId: number, ids: string[], was: Map<string, number>): Promise<void> {
  for (const [index, id] of ids.entries()) {
    if (was.get(id) === index + 1) continue;
    await trx
      .updateTable(TABLE)
      .set({ order: index + 1 })
      .where("id", "=", id)
      .where("firm_id", "=", firmId)
      .execute();
  }
}

/** A new preference comes last; its place is made final once it is stored (see settleOrder). */
export async function nextOrder(ctx: ServerContext, firmId: number): Promise<number> {
  const found = await ctx.database.db
    .selectFrom(TABLE)
    .select(sql<number>`coalesce(max(${sql.ref("order")}), 0)`.as("last"))
    .where("firm_id", "=", firmId)
    .executeTakeFirst();
  return Number(found?.last ?? 0) + 1;
}

/** Two preferences created at once may have taken the same place: renumber, keeping the order they were made in. */
export async function settleOrder(ctx: ServerContext, firmId: number): Promise<void> {
  await ctx.database.db.transaction().execute(async (trx) => {
    await holdFirm(trx, ctx.database.dialect, firmId);
    const rows = await currentOrder(trx, firmId);
    await writeOrder(
      trx,
      firmId,
      rows.map((r) => r.id),
      new Map(rows.map((r) => [r.id, r.order])),
    );
  });
}

/**
 * The firm's preferences in the order given. Preferences the list does not name (created while
 * the person was reordering) keep their relative place after the named ones; a name that is not
 * one of the firm's preferences refuses the whole change.
 */
export async function reorderPreferences(ctx: ServerContext, caller: Caller, ids: string[]): Promise<{ id: string; order: number }[]> {
  if (new Set(ids).size !== ids.length) throw invalid({ ids: [message("errors:updatingOrder")] }, message("errors:updatingOrder"));
  const now = ctx.clock.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    await holdFirm(trx, ctx.database.dialect, caller.firmId);
    const rows = await currentOrder(trx, caller.firmId);
    const known = new Set(rows.map((r) => r.id));
    if (ids.some((id) => !known.has(id))) throw invalid({ ids: [message("errors:updatingOrder")] }, message("errors:updatingOrder"));
    const named = new Set(ids);
    const next = [...ids, ...rows.map((r) => r.id).filter((id) => !named.has(id))];
    const was = new Map(rows.map((r) => [r.id, r.order]));
    await writeOrder(trx, caller.firmId, next, was);
    const names = new Map(rows.map((r) => [r.id, r.name]));
    const before = rows.map((r) => r.name);
    const after = next.map((id) => names.get(id) ?? id);
    if (before.join("\n") !== after.join("\n")) {
      await auditChange(
        trx,
        caller,
        {
          def: { key: jurisdictionPreferences.key, fields: [], titleField: "title" },
          entity: message("resources:jurisdiction-preferences.orderEntity"),
          action: "updated",
          id: String(caller.firmId),
          before: { order: before },
          after: { title: message("resources:jurisdiction-preferences.title"), order: after },
        },
        now,
      );
    }
    return next.map((id, index) => ({ id, order: index + 1 }));
  });
}
