import { type Kysely, sql } from "kysely";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { message } from "../lib/messages";
import { logEvent } from "../jobs/event-log";
import { OPEN_STATUSES } from "./item-state";
import { type JobKind, enqueue } from "../jobs/queue";

/**
 * Finds work that no job will carry on and queues it again, with a warning in the item's
 * history. State changes commit with the job that follows them, so this finds nothing in
 * ordinary operation; it is the safety net for data written before that held, and for
 * whatever else leaves an item behind (a job given up on with its item half way).
 */
export async function requeueStalledWork(ctx: ServerContext): Promise<number> {
  return ctx.database.db.transaction().execute(async (db) => {
    // Workers on several machines sweep one at a time, so none queues what another just did.
    if (ctx.database.dialect === "postgres") {
      const lock = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${SWEEP_LOCK}) as locked`.execute(db);
      if (!lock.rows[0]?.locked) return 0;
    }
    return requeueIn(ctx, db);
  });
}

/** Arbitrary, fixed: the advisory lock key of the sweep. */
const SWEEP_LOCK = 7_260_025;

async function requeueIn(ctx: ServerContext, db: Kysely<DB>): Promise<number> {
  // Each query is one statement, so the item and the jobs are read at the same moment.
  const open = await db
    .selectFrom("inbox_item")
    .select(["id", "firm_id", "status"])
    .where("status", "in", OPEN_STATUSES)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("job").select("job.id").whereRef("job.ref_id", "=", "inbox_item.id"))))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom("job").innerJoin("document", "document.id", "job.ref_id").select("job.id").whereRef("document.processed_from_id", "=", "inbox_item.id"),
        ),
      ),
    )
    .execute();
  const unfiled = await db
    .selectFrom("inbox_item")
    .select(["id", "firm_id", "dms_status as status"])
    .where("disposition", "=", "Processed")
    .where("case_id", "is not", null)
    .where("status", "not in", OPEN_STATUSES)
    .where("dms_status", "in", ["new", "started"])
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom("job").select("job.id").where("job.kind", "=", "store-inbox-item").whereRef("job.ref_id", "=", "inbox_item.id"))),
    )
    .execute();
  const untold = await db
    .selectFrom("inbox_item")
    .select(["id", "firm_id", "status"])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("notification")
          .select("notification.id")
          .whereRef("notification.inbox_item_id", "=", "inbox_item.id")
          .where("notification.cadence", "=", "realtime")
          .where("notification.status", "in", ["pending", "sending"]),
      ),
    )
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom("job").select("job.id").where("job.kind", "=", "notify-inbox-item").whereRef("job.ref_id", "=", "inbox_item.id"))),
    )
    .execute();

  // A failure report recorded before its sending became a job of its own (migration 051's index).
  const unsent = await db
    .selectFrom("outbound_mail")
    .select(["id", "firm_id", "inbox_item_id"])
    .where(sql<boolean>`status = 'sending'`)
    .where("purpose", "=", "dms-failure")
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom("job").select("job.id").where("job.kind", "=", "deliver-mail").whereRef("job.ref_id", "=", "outbound_mail.id"))),
    )
    .execute();

  const stalled: { item: { id: string; firm_id: number; status: string }; kind: JobKind }[] = [
    ...open.map((item) => ({ item, kind: "process-inbox-item" as const })),
    ...unfiled.map((item) => ({ item, kind: "store-inbox-item" as const })),
    ...untold.map((item) => ({ item, kind: "notify-inbox-item" as const })),
  ];
  const now = ctx.clock.now();
  for (const { item, kind } of stalled) {
    await enqueue(db, { kind, firmId: item.firm_id, refId: item.id, runAt: now });
    await logEvent(db, {
      firmId: item.firm_id,
      inboxItemId: item.id,
      at: now,
      level: "WARNING",
      event: "requeued after an interruption",
      detail: message(`inbox:recovery.${kind}`, { status: item.status }),
    });
  }
  for (const mail of unsent) {
    if (mail.firm_id === null) continue;
    await enqueue(db, { kind: "deliver-mail", firmId: mail.firm_id, refId: mail.id, runAt: now });
    if (mail.inbox_item_id)
      await logEvent(db, {
        firmId: mail.firm_id,
        inboxItemId: mail.inbox_item_id,
        at: now,
        level: "WARNING",
        event: "requeued after an interruption",
        detail: message("inbox:recovery.deliver-mail"),
      });
  }
  return stalled.length + unsent.length;
}
