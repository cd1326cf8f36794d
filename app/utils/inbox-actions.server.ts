import type { TFunction } from "i18next";
import { tableColumns, tableSpecOf } from "../components/table/columns";
import { REGISTRY } from "../common/resources";
import { ApiError } from "./api.server";
import { toastForApiError } from "./api-errors";
import type { ApiClient } from "./auth.server";
import { type BulkOutcome, type InboxBulkAction, type MatchingIds, isInboxBulkAction } from "../common/inbox-bulk";
import { BULK_FIELDS, type Refusal, SCOPE, addOutcome, batches, isRefusal, newTally, summaryToast } from "./inbox-bulk";
import { apiExportQuery, parseTableUrl } from "./table-url";
import type { Toast } from "./toast";

// Ids per API call when the console runs a whole selection itself (the API takes up to 1000).
const FORM_BATCH = 500;

/** The API's answer as JSON, or its refusal as a toast: a role without write access gets the API's 403 in words. */
async function answerOf<T>(call: () => Promise<Response>): Promise<T | Refusal> {
  try {
    const response = await call();
    if (response.ok) return (await response.json()) as T;
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    return { refused: toastForApiError(response.status, body.message), status: response.status };
  } catch (error) {
    if (error instanceof ApiError) return { refused: toastForApiError(error.status, error.body.message), status: error.status };
    throw error;
  }
}

/** One bulk request: the action on up to 1000 of the firm's items. */
export function postBulk(api: ApiClient, action: InboxBulkAction, ids: string[]): Promise<BulkOutcome | Refusal> {
  return answerOf<BulkOutcome>(() => api.raw("/api/v1/inbox/bulk", { method: "POST", json: { action, ids } }));
}

/**
 * The API query of "all items matching the filters" of the inbox table at `url`: its free text,
 * column filters, quick filter and order, paging aside. Every column counts as readable here; the
 * API refuses a filter on a field the role may not read.
 */
export function matchingQuery(url: URL): URLSearchParams {
  const def = REGISTRY["inbox-items"];
  const spec = tableSpecOf(
    def,
    tableColumns(def, () => true),
    () => true,
  );
  return apiExportQuery(parseTableUrl(url.searchParams, spec).state);
}

/** The ids the API resolves from the table's filters, scoped to the caller's firm and capped. */
export function fetchMatchingIds(api: ApiClient, url: URL): Promise<MatchingIds | Refusal> {
  return answerOf<MatchingIds>(() => api.raw(`/api/v1/inbox/ids?${matchingQuery(url)}`));
}

/**
 * The list page's form without JavaScript: the ticked rows, every row of the page ("select all on
 * this page") or every item matching the filters of the page's URL, run in one go and summed up as
 * one toast.
 */
export async function runBulkForm(api: ApiClient, form: FormData, url: URL, t: TFunction): Promise<Toast> {
  const action = form.get(BULK_FIELDS.action);
  if (!isInboxBulkAction(action)) return { type: "error", key: "errors:somethingWrong" };
  const scope = form.getAll(BULK_FIELDS.scope).map(String);
  let ids: string[];
  let matching: MatchingIds | undefined;
  if (scope.includes(SCOPE.matching)) {
    const found = await fetchMatchingIds(api, url);
    if (isRefusal(found)) return found.refused;
    if (found.ids.length === 0) return { type: "warning", key: "inbox:bulk.noneMatching" };
    matching = found;
    ids = found.ids;
  } else {
    const picked = form.getAll(scope.includes(SCOPE.page) ? BULK_FIELDS.pageIds : BULK_FIELDS.ids).map(String);
    ids = [...new Set(picked.filter(Boolean))];
  }
  if (ids.length === 0) return { type: "warning", key: "inbox:bulk.nothingSelected" };
  let tally = newTally(ids.length, matching);
  for (const batch of batches(ids, FORM_BATCH)) {
    const outcome = await postBulk(api, action, batch);
    if (isRefusal(outcome)) return outcome.refused;
    tally = addOutcome(tally, outcome);
  }
  return summaryToast(t, action, tally);
}

/** The API's warning that the picked case is not the notice's, and the case to confirm it for. */
export interface CaseMismatch {
  caseId: string;
  warning: string;
}

/**
 * Processes the card's notice onto the picked case. The API decides whether the case is the
 * notice's; when it is not and the person has not confirmed, its warning comes back to be shown.
 */
export async function reprocessOntoCase(api: ApiClient, form: FormData): Promise<Toast | CaseMismatch> {
  const id = String(form.get("item") ?? "");
  const caseId = String(form.get("case_id") ?? "");
  try {
    await api.json(`/api/v1/inbox/${encodeURIComponent(id)}/reprocess`, { method: "POST", json: { case_id: caseId, confirm: form.get("confirm") === "yes" } });
    return { type: "success", key: "inbox:card.reprocessed" };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const warning = error.status === 409 ? error.body.fieldErrors?.confirm?.[0] : undefined;
    return warning ? { caseId, warning } : toastForApiError(error.status, error.body.message);
  }
}

/** Runs the bulk action the card posted and says how it went. */
export async function runInboxIntent(api: ApiClient, form: FormData): Promise<Toast> {
  const intent = String(form.get("intent") ?? "");
  if (!isInboxBulkAction(intent)) return { type: "error", key: "errors:somethingWrong" };
  const ids = form.getAll("id").map(String).filter(Boolean);
  if (ids.length === 0) return { type: "warning", key: "errors:required" };
  const outcome = await postBulk(api, intent, ids);
  if (isRefusal(outcome)) return outcome.refused;
  if (outcome.skipped.length) {
    const reasons = [...new Set(outcome.skipped.map((s) => s.reason))].join(", ");
    return { type: "warning", key: "inbox:card.skipped", values: { count: outcome.skipped.length, reasons } };
  }
  return { type: "success", key: "inbox:card.done" };
}
