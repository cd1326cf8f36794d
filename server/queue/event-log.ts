import type { Insertable, Kysely } from "kysely";
import type { EventName } from "../../app/common/event-names";
import type { DB } from "../db/schema";
import { newId } from "../lib/ids";

export type { EventName };
export type EventLevel = "INFO" | "AUDIT" | "WARNING" | "ERROR" | "CRITICAL";

export interface EventEntry {
  firmId: number;
  inboxItemId?: string | null;
  level?: EventLevel;
  event: EventName;
  detail?: string;
  at: number;
}

/** The event log's row for `entry`. */
export function eventRow(entry: EventEntry): Insertable<DB["event_log"]> {
  return {
    id: newId(),
    firm_id: entry.firmId,
    inbox_item_id: entry.inboxItemId ?? null,
    level: entry.level ?? "INFO",
    event: entry.event,
    detail: entry.detail ?? "",
    created_at: entry.at,
  };
}

/** Every step of an inbox item's life is written here, so staff can see what happened and why. */
export async function logEvent(db: Kysely<DB>, entry: EventEntry): Promise<void> {
  await db.insertInto("event_log").values(eventRow(entry)).execute();
}
