import type { Kysely, Updateable } from "kysely";
import type { ServerContext } from "../context";
import type { DB, InboxItemTable } from "../db/schema";
import { type EventLevel, type EventName, logEvent } from "../queue/event-log";
import { type NextJob, enqueueAll } from "../queue/queue";
import { type WebhookEvent, emitWebhookEvent, webhookSubscribers } from "../webhooks/webhook-events";
import { inJob } from "../db/job-reads";
import { changeLoggedInOneStatement } from "../queue/logged-change";
import type { ActionRequired, Disposition, InboxStatus } from "../../app/common/resources/inbox";

/** Where an item waits for nothing more from the pipeline; every other status needs a job. */
export const FINAL_STATUSES: InboxStatus[] = ["Succeeded", "Failed", "Manual", "Action Required", "Canceled"];
export const OPEN_STATUSES: InboxStatus[] = ["New", "Started", "Retry", "Post Processing"];

export interface ItemChange {
  status?: InboxStatus;
  action_required?: ActionRequired;
  disposition?: Disposition;
  disposition_text?: string;
  reason?: string;
  case_id?: string | null;
  duplicate_of_id?: string | null;
  parsed?: string | null;
  parser_version?: number | null;
  message_body?: string | null;
  snippet?: string;
  notice_key?: string | null;
}

/**
 * Changes an inbox item, writes the step to the event log and queues the jobs that carry on from
 * it, all in one transaction: a crash leaves either the old state or the new one with its jobs.
 * `onlyFrom` makes the change conditional: of two jobs racing to the same step, one moves the item.
 */
export async function setItem(
  ctx: ServerContext,
  item: { id: string; firm_id: number },
  change: ItemChange,
  event: { event: EventName; detail?: string; level?: EventLevel },
  options: { next?: NextJob[]; onlyFrom?: InboxStatus } = {},
): Promise<void> {
  const now = ctx.clock.now();
  if (ctx.database.dialect === "postgres" && !(await toldToWebhooks(ctx, item.firm_id, change))) {
    await changeLoggedInOneStatement(
      ctx.database.db,
      { table: "inbox_item", id: item.id, set: { ...(change as Updateable<InboxItemTable>), updated_at: now }, onlyFromStatus: options.onlyFrom },
      { firmId: item.firm_id, inboxItemId: item.id, at: now, ...event },
      options.next,
    );
    return;
  }
  await ctx.database.db.transaction().execute((trx) => changeItemIn(trx, now, item, change, event, options));
}

/** setItem inside a transaction the caller holds, for changes that commit with rows of their own. */
export async function changeItemIn(
  trx: Kysely<DB>,
  now: number,
  item: { id: string; firm_id: number },
  change: ItemChange,
  event: { event: EventName; detail?: string; level?: EventLevel },
  options: { next?: NextJob[]; onlyFrom?: InboxStatus } = {},
): Promise<void> {
  let update = trx
    .updateTable("inbox_item")
    .set({ ...(change as Updateable<InboxItemTable>), updated_at: now })
    .where("id", "=", item.id);
  if (options.onlyFrom) update = update.where("status", "=", options.onlyFrom);
  const changed = await update.executeTakeFirst();
  if (Number(changed.numUpdatedRows) === 0) return;
  await logEvent(trx, { firmId: item.firm_id, inboxItemId: item.id, at: now, ...event });
  await enqueueAll(trx, item.firm_id, options.next ?? [], now);
  const told = webhookEventOf(change);
  if (told)
    await emitWebhookEvent(trx, {
      firmId: item.firm_id,
      event: told,
      inboxItemId: item.id,
      at: now,
      data: told === "processing.failed" ? { reason: change.reason ?? "" } : undefined,
    });
}

/**
 * Whether a webhook of the firm hears of the change. In a job the firm's webhooks are read
 * already (with its claim on PostgreSQL); outside one, a change that tells of an event is said to
 * be heard, and its transaction reads them.
 */
async function toldToWebhooks(ctx: ServerContext, firmId: number, change: ItemChange): Promise<boolean> {
  const told = webhookEventOf(change);
  if (!told) return false;
  if (!inJob()) return true;
  return (await webhookSubscribers(ctx.database.db, firmId, told)).length > 0;
}

/** The change the firm's webhooks hear of: a notice recorded on its case, or a notice given up on. */
function webhookEventOf(change: ItemChange): WebhookEvent | null {
  if (change.status === "Failed") return "processing.failed";
  return change.disposition === "Processed" ? "notice.processed" : null;
}
