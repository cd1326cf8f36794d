import type { ServerContext } from "../context";
import type { InboxItemTable } from "../db/schema";
import { type EventLevel, logEvent } from "../jobs/event-log";

export type InboxStatus =
  | "New"
  | "Started"
  | "Retry"
  | "Failed"
  | "Manual"
  | "Action Required"
  | "Canceled"
  | "Succeeded"
  | "Post Processing";
export type ActionRequired = "NONE" | "ECFX" | "USER";
export type Disposition = "No Disposition" | "Processed" | "Split" | "Ignored";

export interface ItemChange {
  status?: InboxStatus;
  action_required?: ActionRequired;
  disposition?: Disposition;
  disposition_text?: string;
  reason?: string;
  case_id?: string | null;
  duplicate_of_id?: string | null;
  parsed?: string | null;
  snippet?: string;
}

/** Changes an inbox item and writes the step to the event log, so every transition is explained. */
export async function setItem(
  ctx: ServerContext,
  item: { id: string; firm_id: number },
  change: ItemChange,
  event: { event: string; detail?: string; level?: EventLevel },
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.database.db
    .updateTable("inbox_item")
    .set({ ...(change as Partial<InboxItemTable>), updated_at: now })
    .where("id", "=", item.id)
    .execute();
  await logEvent(ctx.database.db, { firmId: item.firm_id, inboxItemId: item.id, at: now, ...event });
}
