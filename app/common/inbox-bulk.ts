// The inbox's bulk actions, shared by the console (buttons, labelled `inbox:bulk.<action>`) and
// the API (which checks and applies them). Isomorphic: no server imports. A new action is one
// entry here, its label, and its case in the API's applyBulkAction (the compiler asks for it).
export const INBOX_BULK_ACTIONS = ["retry", "requeue", "archive", "manual"] as const;
export type InboxBulkAction = (typeof INBOX_BULK_ACTIONS)[number];

export const isInboxBulkAction = (value: unknown): value is InboxBulkAction => (INBOX_BULK_ACTIONS as readonly unknown[]).includes(value);

/** "All items matching the filters" stops at this many ids, the first in the table's order. */
export const MATCHING_MAX = 5000;
/** What the API did with one request's ids. */
export interface BulkOutcome {
  done: string[];
  skipped: { id: string; reason: string }[];
}

/** The ids a table search matches: at most `max` of `total`. */
export interface MatchingIds {
  ids: string[];
  total: number;
  max: number;
}
