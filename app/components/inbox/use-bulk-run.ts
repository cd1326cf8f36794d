import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type BulkOutcome, type InboxBulkAction, type MatchingIds } from "../../common/inbox-bulk";
import {
  BULK_BATCH,
  BULK_FIELDS,
  type BulkTally,
  type Refusal,
  addOutcome,
  batches,
  isRefusal,
  newTally,
  summaryToast,
  toastText,
} from "../../utils/inbox-bulk";
import { showToast } from "../Toaster";

/** The bulk resource route (app/routes/resources.inbox-bulk.tsx). */
export const BULK_ROUTE = "/resources/inbox-bulk";

export interface BulkRun {
  action: InboxBulkAction;
  tally: BulkTally;
  running: boolean;
}

/** The ticked ids, or every item matching the filters of the table's query (`?q=...`). */
export type BulkScope = { ids: string[] } | { matching: string };

const failed: Refusal = { refused: { type: "error", key: "errors:somethingWrong" }, status: 0 };

/** The route's JSON, or a refusal; an answer that is not JSON (a sign-in page after a lost session) is one too. */
async function callRoute<T>(url: string, init?: RequestInit): Promise<T | Refusal> {
  try {
    const response = await fetch(url, { credentials: "same-origin", headers: { accept: "application/json" }, ...init });
    if (response.redirected || !(response.headers.get("content-type") ?? "").includes("json")) return failed;
    return (await response.json()) as T | Refusal;
  } catch {
    return failed;
  }
}

function postBatch(action: InboxBulkAction, ids: string[]): Promise<BulkOutcome | Refusal> {
  const body = new FormData();
  body.set(BULK_FIELDS.action, action);
  for (const id of ids) body.append(BULK_FIELDS.ids, id);
  return callRoute<BulkOutcome>(BULK_ROUTE, { method: "POST", body });
}

/**
 * Runs a selection with JavaScript: the ids in batches of BULK_BATCH, one request after the other,
 * the tally after each for the progress bar, a summary toast at the end, then the table reloads.
 * A refusal stops the run with its toast.
 */
export function useBulkRun() {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [run, setRun] = useState<BulkRun | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  /** Ends a run early with the refusal's toast; what was done so far stays on screen. */
  function stop(action: InboxBulkAction, refusal: Refusal, sofar?: BulkTally) {
    if (!mounted.current) return;
    setRun(sofar ? { action, tally: sofar, running: false } : null);
    showToast(toastText(t, refusal.refused), refusal.refused.type);
    if (sofar?.processed) revalidator.revalidate();
  }

  async function start(action: InboxBulkAction, scope: BulkScope): Promise<void> {
    let ids: string[];
    let matching: MatchingIds | undefined;
    setRun({ action, tally: newTally(0), running: true });
    if ("matching" in scope) {
      const found = await callRoute<MatchingIds>(`${BULK_ROUTE}${scope.matching}`);
      if (isRefusal(found)) return stop(action, found);
      if (found.ids.length === 0) return stop(action, { refused: { type: "warning", key: "inbox:bulk.noneMatching" }, status: 200 });
      matching = found;
      ids = found.ids;
    } else {
      ids = scope.ids;
    }
    let tally = newTally(ids.length, matching);
    setRun({ action, tally, running: true });
    for (const batch of batches(ids, BULK_BATCH)) {
      const outcome = await postBatch(action, batch);
      if (!mounted.current) return;
      if (isRefusal(outcome)) return stop(action, outcome, tally);
      tally = addOutcome(tally, outcome);
      setRun({ action, tally, running: true });
    }
    setRun({ action, tally, running: false });
    const summary = summaryToast(t, action, tally);
    showToast(toastText(t, summary), summary.type);
    revalidator.revalidate();
  }

  return { run, start };
}
