import { type Insertable, type Kysely, sql } from "kysely";
import type { FirmRecord } from "../../app/common/firm-schema";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { idOfName, newId } from "../lib/ids";
import { message } from "../lib/messages";
import { type RecipientRows, loadRecipientInput } from "./recipient-inputs";
import { planNotifications, resolveRecipients } from "./recipients";

/**
 * Writes who is to hear of the item, once: a run that finds rows already recorded (a retried
 * job, processing again) keeps them, so nobody is told twice. Two runs at once cannot both
 * record: on PostgreSQL they meet on the first row's key, on SQLite on the item row's lock. The
 * caller has seen none recorded (a read made first, to spare a finished item the recipients' reads),
 * and may give the recipients' rows read with it.
 */
export async function recordNotifications(ctx: ServerContext, firm: FirmRecord, item: { id: string; case_id: string }, read?: RecipientRows): Promise<void> {
  const db = ctx.database.db;
  const planned = planNotifications(resolveRecipients(await loadRecipientInput(ctx, firm, item.case_id, item.id, read)));
  const now = ctx.clock.now();
  const rows = planned.map((p, n) => ({
    // The first row's id is the item's own: see recordedOnce.
    id: n === 0 ? idOfName(`ecfx:notifications:${item.id}`) : newId(),
    firm_id: firm.id,
    inbox_item_id: item.id,
    timekeeper_id: p.recipient.timekeeperId,
    timekeeper_group_id: p.recipient.groupId,
    email: p.recipient.email,
    cadence: p.cadence,
    delivery_method: p.recipient.method,
    status: p.status,
    reason: p.reasonKey ? message(p.reasonKey) : "",
    outbound_mail_id: null,
    digest_run_id: null,
    created_at: now,
    sent_at: null,
  }));
  if (rows.length === 0) return;
  if (ctx.database.dialect === "postgres") return recordedOnce(db, item.id, rows);
  await db.transaction().execute(async (trx) => {
    // The item row's lock: a second run waits here, then sees the first one's rows.
    await trx
      .updateTable("inbox_item")
      .set((eb) => ({ updated_at: eb.ref("updated_at") }))
      .where("id", "=", item.id)
      .execute();
    if (await trx.selectFrom("notification").select("id").where("inbox_item_id", "=", item.id).executeTakeFirst()) return;
    await trx.insertInto("notification").values(rows).execute();
  });
}

/**
 * The rows in one statement, unless the item has some: rows committed before it are seen by the
 * check; a run at the same time inserts a first row of the same id, so of two the later waits on
 * the earlier's key, writes nothing when it commits, and so none of the rest (inserted only after
 * the first). A lock of the item could not do it in one statement: its snapshot predates the wait.
 */
async function recordedOnce(db: Kysely<DB>, itemId: string, rows: Insertable<DB["notification"]>[]): Promise<void> {
  const columns = sql.join(Object.keys(rows[0]!).map((column) => sql.ref(column)));
  const from = (some: typeof rows) => sql`select ${columns} from jsonb_populate_recordset(null::notification, ${JSON.stringify(some)}::jsonb)`;
  const first = sql`insert into notification (${columns}) ${from(rows.slice(0, 1))}
    where not exists (select 1 from notification where inbox_item_id = ${itemId})
    on conflict (id) do nothing returning id`;
  if (rows.length === 1) return void (await first.execute(db));
  await sql`with first as (${first})
    insert into notification (${columns}) ${from(rows.slice(1))} where exists (select 1 from first)`.execute(db);
}
