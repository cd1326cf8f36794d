import type { TFunction } from "i18next";
import type { BulkOutcome, InboxBulkAction, MatchingIds } from "../common/inbox-bulk";
import type { Toast, ToastType } from "./toast";

// The console's side of the inbox's bulk actions: batches, the running count and its toast.

/** Ids per request when the browser runs a selection and shows its progress. */
export const BULK_BATCH = 50;

/** The list page's form: its field names and the scopes beside the ticked rows. */
export const BULK_FIELDS = { action: "action", ids: "ids", pageIds: "page_ids", scope: "scope" } as const;
export const SCOPE = { page: "page", matching: "matching" } as const;

/** A call that did not go through: the toast that says why, and the status. */
export interface Refusal {
  refused: Toast;
  status: number;
}

export const isRefusal = (value: unknown): value is Refusal => typeof value === "object" && value !== null && "refused" in value;

/** A selection's running count, batch after batch. */
export interface BulkTally {
  total: number;
  processed: number;
  done: number;
  /** Reason → how many items were left for it. */
  skipped: Record<string, number>;
  /** The filter matched more than the cap: only the first `max` of `matched` were taken. */
  capped: { max: number; matched: number } | null;
}

export function newTally(total: number, matching?: MatchingIds): BulkTally {
  const capped = matching && matching.total > matching.ids.length ? { max: matching.max, matched: matching.total } : null;
  return { total, processed: 0, done: 0, skipped: {}, capped };
}

export function addOutcome(tally: BulkTally, outcome: BulkOutcome): BulkTally {
  const skipped = { ...tally.skipped };
  for (const s of outcome.skipped) skipped[s.reason] = (skipped[s.reason] ?? 0) + 1;
  return {
    ...tally,
    processed: tally.processed + outcome.done.length + outcome.skipped.length,
    done: tally.done + outcome.done.length,
    skipped,
  };
}

/** The final word on a selection: done N, skipped M with the reasons grouped, and the cap if it applied. */
export function summaryToast(t: TFunction, action: InboxBulkAction, tally: BulkTally): Toast {
  const reasons = Object.entries(tally.skipped)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, count]) => t("inbox:bulk.reasonCount", { reason, count }))
    .join("; ");
  const skipped = Object.values(tally.skipped).reduce((a, b) => a + b, 0);
  const values = { action: t(`inbox:bulk.${action}`), done: tally.done, skipped, reasons };
  const parts = [t(skipped ? "inbox:bulk.summarySkipped" : "inbox:bulk.summary", values)];
  if (tally.capped) parts.push(t("inbox:bulk.capped", tally.capped));
  const type: ToastType = skipped || tally.capped ? "warning" : "success";
  return { type, text: parts.join(" ") };
}

/** The words of a toast, whether it came as a catalogue key or as text. */
export const toastText = (t: TFunction, toast: Toast): string => toast.text ?? (toast.key ? t(toast.key, toast.values ?? {}) : "");

/** Ids in requests of `size`. */
export function batches<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
