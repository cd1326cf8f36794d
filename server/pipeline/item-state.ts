import { type Kysely, type QueryCreator, type Updateable, sql } from "kysely";
import type { ServerContext } from "../context";
import type { DB, InboxItemTable } from "../db/schema";
import { type EventLevel, type EventName, eventRow, logEvent } from "../queue/event-log";
import { type NextJob, enqueueAll, jobRow } from "../queue/queue";
import { type WebhookEvent, emitWebhookEvent } from "../webhooks/webhook-events";
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
  if (ctx.database.dialect === "postgres" && !webhookEventOf(change)) return changeItemInOneStatement(ctx.database.db, now, item, change, event, options);
  await ctx.database.db.transaction().execute((trx) => changeItemIn(trx, now, item, change, event, options));
}

type Changed = { changed: { id: string } };

/**
 * `row`'s values as a select from the changed row: none when the update changed nothing. The
 * insert gives a parameter its column's type, except across a UNION, which makes it text: a
 * number says it is one (PostgreSQL casts it to an integer column on assignment).
 */
function fromChanged<T extends Changed>(qc: QueryCreator<T>, row: Record<string, unknown>) {
  return (qc as unknown as QueryCreator<Changed>)
    .selectFrom("changed")
    .select(Object.entries(row).map(([column, value]) => (typeof value === "number" ? sql`${value}::bigint` : sql`${value}`).as(column)));
}

/** A row without its empty columns, for an insert whose defaults say the same (a UNION types a bare NULL as text). */
const withoutNulls = <R extends object>(row: R): Partial<R> => Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) as Partial<R>;

/**
 * changeItemIn on PostgreSQL as one statement, for a change no webhook hears of (telling one
 * reads the firm's webhooks first): the update, and as data-modifying CTEs its event and next
 * jobs, written only when the update changed the row. One round trip instead of BEGIN, two or
 * more statements and COMMIT; a single statement is atomic without a transaction.
 */
async function changeItemInOneStatement(
  db: Kysely<DB>,
  now: number,
  item: { id: string; firm_id: number },
  change: ItemChange,
  event: { event: EventName; detail?: string; level?: EventLevel },
  options: { next?: NextJob[]; onlyFrom?: InboxStatus },
): Promise<void> {
  const logged = eventRow({ firmId: item.firm_id, inboxItemId: item.id, at: now, ...event });
  const jobs = (options.next ?? []).map((job) => withoutNulls(jobRow({ kind: job.kind, firmId: item.firm_id, refId: job.refId, runAt: now })));
  const changing = db
    .with("changed", (qc) => {
      let update = qc
        .updateTable("inbox_item")
        .set({ ...(change as Updateable<InboxItemTable>), updated_at: now })
        .where("id", "=", item.id);
      if (options.onlyFrom) update = update.where("status", "=", options.onlyFrom);
      return update.returning("id");
    })
    .with("logged", (qc) =>
      qc
        .insertInto("event_log")
        .columns(Object.keys(logged) as (keyof typeof logged)[])
        .expression(fromChanged(qc, logged)),
    );
  if (jobs.length === 0) {
    await changing.selectFrom("changed").select("id").execute();
    return;
  }
  await changing
    .with("queued", (qc) =>
      qc
        .insertInto("job")
        .columns(Object.keys(jobs[0]!) as (keyof (typeof jobs)[number])[])
        .expression(jobs.slice(1).reduce((union, job) => union.unionAll(fromChanged(qc, job)), fromChanged(qc, jobs[0]!))),
    )
    .selectFrom("changed")
    .select("id")
    .execute();
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

/** The change the firm's webhooks hear of: a notice recorded on its case, or a notice given up on. */
function webhookEventOf(change: ItemChange): WebhookEvent | null {
  if (change.status === "Failed") return "processing.failed";
  return change.disposition === "Processed" ? "notice.processed" : null;
}
