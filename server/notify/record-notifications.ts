import { sql } from "kysely";
import type { FirmRecord } from "../../app/common/firm-schema";
import type { ServerContext } from "../context";
import { newId } from "../lib/ids";
import { message } from "../lib/messages";
import { loadRecipientInput } from "./recipient-inputs";
import { planNotifications, resolveRecipients } from "./recipients";

/**
 * Writes who is to hear of the item, once: a run that finds rows already recorded (a retried
 * job, processing again) keeps them, so nobody is told twice. On PostgreSQL the item row is
 * locked while checking, so two runs at once cannot both record. The caller has seen none
 * recorded (a read made before the lock, to spare a finished item the recipients' reads).
 */
export async function recordNotifications(ctx: ServerContext, firm: FirmRecord, item: { id: string; case_id: string }): Promise<void> {
  const db = ctx.database.db;
  const planned = planNotifications(resolveRecipients(await loadRecipientInput(ctx, firm, item.case_id, item.id)));
  const now = ctx.clock.now();
  const rows = planned.map((p) => ({
    id: newId(),
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
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("inbox_item")
      .set((eb) => ({ updated_at: eb.ref("updated_at") }))
      .where("id", "=", item.id)
      .execute();
    if (ctx.database.dialect === "postgres") {
      // The check and the insert in one statement, taken after the lock: it sees what another run committed.
      if (rows.length === 0) return;
      const columns = sql.join(Object.keys(rows[0]!).map((column) => sql.ref(column)));
      await sql`insert into notification (${columns})
        select ${columns} from jsonb_populate_recordset(null::notification, ${JSON.stringify(rows)}::jsonb)
        where not exists (select 1 from notification where inbox_item_id = ${item.id})`.execute(trx);
      return;
    }
    if (await trx.selectFrom("notification").select("id").where("inbox_item_id", "=", item.id).executeTakeFirst()) return;
    if (rows.length === 0) return;
    await trx.insertInto("notification").values(rows).execute();
  });
}
