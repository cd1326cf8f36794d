import { type Kysely, sql } from "kysely";
import type { ServerContext } from "../context";
import type { DB, OutboundMailRow } from "../db/schema";
import { type ComposedMail, type MailOutcome, settlement } from "../mail/mailer";
import { columnsOf, selectionOf } from "../queue/logged-change";

/**
 * Claims notification `row` for `mail` (only while its status is still the one read) and records
 * the mail with the notices it names, before anything is sent: at most one mail per row. Null when
 * another run took the row meanwhile; nothing is recorded then. On PostgreSQL one statement
 * (data-modifying CTEs, atomic without a transaction); elsewhere a transaction of four.
 */
export async function claimRowAndRecordMail(ctx: ServerContext, row: { id: string; status: string }, mail: ComposedMail): Promise<OutboundMailRow | null> {
  const db = ctx.database.db;
  if (ctx.database.dialect === "postgres") return (await claimedAndRecordedInOneStatement(db, row, mail)) ? mail.composed : null;
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("notification")
      .set({ status: "sending" })
      .where("id", "=", row.id)
      .where("status", "=", row.status)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return null;
    const kept = await ctx.mailer.record(trx, mail);
    await trx.updateTable("notification").set({ outbound_mail_id: kept.id }).where("id", "=", row.id).execute();
    return kept;
  });
}

/**
 * The claim, the mail and its notices in one statement: the mail is inserted from the claimed row,
 * so a claim that found the row taken writes nothing. The same rows as `Mailer.record` writes.
 */
async function claimedAndRecordedInOneStatement(db: Kysely<DB>, row: { id: string; status: string }, mail: ComposedMail): Promise<boolean> {
  const { composed, noticeIds } = mail;
  const claiming = db
    .with("claimed", (qc) =>
      qc
        .updateTable("notification")
        .set({ status: "sending", outbound_mail_id: composed.id })
        .where("id", "=", row.id)
        .where("status", "=", row.status)
        .returning("id"),
    )
    .with("recorded", (qc) =>
      qc
        .insertInto("outbound_mail")
        .columns(columnsOf(composed))
        .expression(qc.selectFrom("claimed").select(selectionOf(composed)))
        .returning(["id", "firm_id"]),
    );
  // A mail of no firm names no notices (Mailer.record).
  const rows =
    noticeIds.length && composed.firm_id !== null
      ? await claiming
          .with("named", (qc) =>
            qc
              .insertInto("outbound_mail_notice")
              .columns(["outbound_mail_id", "inbox_item_id", "firm_id"])
              .expression(sql`select recorded.id, notice, recorded.firm_id from recorded, unnest(${[...noticeIds]}::text[]) as notice`),
          )
          .selectFrom("claimed")
          .select("id")
          .execute()
      : await claiming.selectFrom("claimed").select("id").execute();
  return rows.length > 0;
}

/**
 * Marks notification `rowId` sent by `mail`. With `outcome` (the mail just went out) the mail's
 * own mark comes first: on PostgreSQL the two in one statement, elsewhere one after the other.
 */
export async function markRowSent(ctx: ServerContext, rowId: string, mail: OutboundMailRow, outcome?: MailOutcome): Promise<void> {
  const db = ctx.database.db;
  const sent = { status: "sent", sent_at: ctx.clock.now(), outbound_mail_id: mail.id };
  if (outcome && ctx.database.dialect === "postgres") {
    await db
      .with("mailed", (qc) => settlement(qc, mail.id, outcome).returning("id"))
      .updateTable("notification")
      .set(sent)
      .where("id", "=", rowId)
      .execute();
    return;
  }
  if (outcome) await ctx.mailer.settle(mail, outcome);
  await db.updateTable("notification").set(sent).where("id", "=", rowId).execute();
}
