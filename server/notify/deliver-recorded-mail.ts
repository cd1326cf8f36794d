import type { ServerContext } from "../context";
import { logEvent } from "../queue/event-log";

/** Tries of a recorded mail before the job gives up (the worker's back-off in between). */
export const MAX_MAIL_ATTEMPTS = 5;

/**
 * Sends a mail recorded with the state change it reports (the "deliver-mail" job, committed with
 * it): a crash after the commit leaves the job, not a mail that nobody sends. A mail already sent
 * or captured is not sent again; one the relay refused is tried again with the job. `attempt`
 * counts from 1, as the job counts its claims.
 */
export async function deliverRecordedMail(ctx: ServerContext, mailId: string, attempt: number): Promise<void> {
  const row = await ctx.database.db.selectFrom("outbound_mail").selectAll().where("id", "=", mailId).executeTakeFirst();
  if (!row || (row.status !== "sending" && row.status !== "failed")) return;
  try {
    await ctx.mailer.deliver(row);
  } catch (error) {
    // The item's history says so at once; the job tries again after its back-off.
    if (row.inbox_item_id && row.firm_id !== null)
      await logEvent(ctx.database.db, {
        firmId: row.firm_id,
        inboxItemId: row.inbox_item_id,
        at: ctx.clock.now(),
        event: row.purpose === "missed-notice" ? "missed notice mail not sent" : "storage failure report not sent",
        detail: `${error instanceof Error ? error.message : String(error)} (${attempt}/${MAX_MAIL_ATTEMPTS})`,
        level: "WARNING",
      });
    throw error;
  }
}
