import { type Kysely, sql } from "kysely";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { message } from "../lib/messages";
import { logEvent } from "../queue/event-log";
import { OPEN_STATUSES } from "./item-state";
import { hasMissedNoticeWork } from "./missed-notices";
import { type JobKind, enqueue } from "../queue/queue";

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

/** Work no job carries on: the job to queue, and the item whose history says so. */
interface StalledWork {
  kind: JobKind;
  firmId: number;
  refId: string;
  itemId: string | null;
  status: string;
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

  // A failure report left "sending" with no job to send it: recorded before its sending was a job
  // of its own, or left so some other way (the literal status matches migration 051's index).
  const unsent = await db
    .selectFrom("outbound_mail")
    .select(["id", "firm_id", "inbox_item_id"])
    .where(sql<boolean>`status = 'sending'`)
    .where("purpose", "=", "dms-failure")
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom("job").select("job.id").where("job.kind", "=", "deliver-mail").whereRef("job.ref_id", "=", "outbound_mail.id"))),
    )
    .execute();

  // A firm with tracked work that no missed-notice check watches (tracked before checks existed).
  const unchecked = await db
    .selectFrom("firm")
    .select("id")
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("job")
            .select("job.id")
            .where("job.kind", "=", "check-missed-notices")
            .whereRef("job.ref_id", "=", sql<string>`cast(firm.id as text)`),
        ),
      ),
    )
    .execute();
  const unwatched = [];
  for (const firm of unchecked) if (await hasMissedNoticeWork(db, firm.id)) unwatched.push(firm);

  const ofItem =
    (kind: JobKind) =>
    (item: { id: string; firm_id: number; status: string }): StalledWork => ({
      kind,
      firmId: item.firm_id,
      refId: item.id,
      itemId: item.id,
      status: item.status,
    });
  const stalled: StalledWork[] = [
    ...open.map(ofItem("process-inbox-item")),
    ...unfiled.map(ofItem("store-inbox-item")),
    ...untold.map(ofItem("notify-inbox-item")),
    // A failure report always has its firm; the mail's row allows none (mail of the product itself).
    ...unsent.flatMap((mail): StalledWork[] =>
      mail.firm_id === null ? [] : [{ kind: "deliver-mail", firmId: mail.firm_id, refId: mail.id, itemId: mail.inbox_item_id, status: "sending" }],
    ),
    ...unwatched.map((firm): StalledWork => ({ kind: "check-missed-notices", firmId: firm.id, refId: String(firm.id), itemId: null, status: "" })),
  ];
  const now = ctx.clock.now();
  for (const work of stalled) {
    await enqueue(db, { kind: work.kind, firmId: work.firmId, refId: work.refId, runAt: now });
    if (work.itemId)
      await logEvent(db, {
        firmId: work.firmId,
        inboxItemId: work.itemId,
        at: now,
        level: "WARNING",
        event: "requeued after an interruption",
        detail: message(`inbox:recovery.${work.kind}`, { status: work.status }),
      });
  }
  return stalled.length;
}
