import { type BulkOutcome, INBOX_BULK_ACTIONS, type InboxBulkAction, MATCHING_MAX, type MatchingIds } from "../../app/common/inbox-bulk";
import type { Caller } from "../auth/caller";
import type { ServerContext } from "../context";
import { message } from "../lib/messages";
import type { ParsedEmail } from "../notices/types";
import { normaliseCaseNumber } from "../resources/case-number";
import { itemDocket } from "./match-case";
import { serverResourceByPath } from "../resources/registry";
import { search } from "../resources/repository";
import type { SearchQuery } from "../resources/search-query";
import { type ReadScope, admitInScope, admitRows, scopedRows } from "../resources/read-scope";
import { type RequeueOutcome, requeueStorage } from "../filing/requeue";
import { setItem } from "./item-state";

// One list with the console's buttons (app/utils/inbox-bulk.ts).
export const BULK_ACTIONS = INBOX_BULK_ACTIONS;
export type BulkAction = InboxBulkAction;
export type { BulkOutcome };

/** Retry reaches back 30 days (spec §9): older notices' free-look links have long expired. */
export const RETRY_WINDOW_MS = 30 * 24 * 3600 * 1000;
const RETRYABLE = ["Failed", "Action Required", "Retry", "Manual"];

/**
 * Applies one action to many items, those the caller's scope lets them read: a change reaches
 * what a read would (read-scope.ts). What cannot be done, a walled item included, is reported per item.
 */
export async function applyBulkAction(ctx: ServerContext, scope: ReadScope, action: BulkAction, ids: string[]): Promise<BulkOutcome> {
  const db = ctx.database.db;
  const admitted = await admitRows(db, scope, "inbox_item", ids, message("inbox:bulk.reasons.notFound"));
  const items = admitted.open.length
    ? await scopedRows(db, scope, "inbox_item").select(["t.id", "t.firm_id", "t.status", "t.created_at"]).where("t.id", "in", admitted.open).execute()
    : [];
  const outcome: BulkOutcome = { done: [], skipped: admitted.skipped };
  const now = ctx.clock.now();
  for (const item of items) {
    switch (action) {
      case "archive":
        await db.updateTable("inbox_item").set({ hidden: 1, updated_at: now }).where("id", "=", item.id).execute();
        await setItem(ctx, item, {}, { event: "archived" });
        break;
      case "requeue": {
        // Filing in the DMS again: the storage module decides per item and says why not.
        const requeued = await requeueStorage(ctx, scope.firmId, [item.id]);
        outcome.skipped.push(...requeued.skipped);
        if (requeued.done.length === 0) continue;
        break;
      }
      case "manual":
        await setItem(ctx, item, { status: "Manual", action_required: "USER" }, { event: "process manually" });
        break;
      case "retry":
        if (now - item.created_at > RETRY_WINDOW_MS) {
          outcome.skipped.push({ id: item.id, reason: message("inbox:bulk.reasons.tooOld") });
          continue;
        }
        if (!RETRYABLE.includes(item.status)) {
          outcome.skipped.push({ id: item.id, reason: message("inbox:bulk.reasons.status", { status: item.status }) });
          continue;
        }
        await setItem(
          ctx,
          item,
          { status: "New", action_required: "NONE", reason: "" },
          { event: "retry requested" },
          { next: [{ kind: "process-inbox-item", refId: item.id }] },
        );
        break;
      default: {
        // A new action in the shared list needs its case here.
        const unhandled: never = action;
        throw new Error(`bulk action ${String(unhandled)} is not handled`);
      }
    }
    outcome.done.push(item.id);
  }
  return outcome;
}

/**
 * The ids of the caller's inbox items that a table search matches (filters, free text, quick
 * filter), through the same allow-listed, firm-scoped search as the table, in the table's order
 * and at most MATCHING_MAX of them: what "all items matching the filters" acts on.
 */
export async function matchingItemIds(ctx: ServerContext, caller: Caller, query: SearchQuery): Promise<MatchingIds> {
  const res = serverResourceByPath("inbox-item")!;
  const found = await search(ctx, caller, res, { ...query, max: MATCHING_MAX, offset: 0 });
  return { ids: found.rows.map((r) => String(r.id)), total: found.total, max: MATCHING_MAX };
}

export type ReprocessOutcome = { kind: "done" } | { kind: "not-found" } | { kind: "mismatch"; warning: string };

/**
 * Sends notices the caller's scope lets them read to the DMS again; the others are skipped with
 * why (not found, or the wall's message).
 */
export async function requeueNotices(ctx: ServerContext, scope: ReadScope, ids: string[]): Promise<RequeueOutcome> {
  const admitted = await admitRows(ctx.database.db, scope, "inbox_item", ids, message("inbox:bulk.reasons.notFound"));
  const requeued = await requeueStorage(ctx, scope.firmId, admitted.open);
  return { done: requeued.done, skipped: [...admitted.skipped, ...requeued.skipped] };
}

/**
 * A person picked the case the machine could not find: process the notice again onto it. The
 * notice is admitted as a read of it would be (404 absent, 403 behind a wall). A case whose
 * normalised number (as matching reads it) or court differs from the notice's is only used once
 * the person has confirmed it.
 */
export async function reprocessWithCase(ctx: ServerContext, scope: ReadScope, itemId: string, caseId: string, confirmed: boolean): Promise<ReprocessOutcome> {
  const db = ctx.database.db;
  await admitInScope(db, scope, "inbox_item", itemId);
  const item = await scopedRows(db, scope, "inbox_item")
    .select(["t.id", "t.firm_id", "t.parsed", "t.docket_index"])
    .where("t.id", "=", itemId)
    .executeTakeFirst();
  const found = await db
    .selectFrom("court_case")
    .select(["id", "case_number", "case_number_normalized", "jurisdiction_id"])
    .where("id", "=", caseId)
    .where("firm_id", "=", scope.firmId)
    .executeTakeFirst();
  if (!item || !found) return { kind: "not-found" };
  if (!confirmed) {
    const warning = await caseMismatch(ctx, scope.firmId, item, found);
    if (warning) return { kind: "mismatch", warning };
  }
  await setItem(
    ctx,
    item,
    { status: "New", action_required: "NONE", reason: "", case_id: caseId },
    { event: "case picked", detail: caseId },
    { next: [{ kind: "process-inbox-item", refId: item.id }] },
  );
  return { kind: "done" };
}

/** Why the case is not the notice's (both numbers and courts named), or null when it is. */
async function caseMismatch(
  ctx: ServerContext,
  firmId: number,
  item: { parsed: string | null; docket_index: number | null },
  kase: { case_number: string; case_number_normalized: string; jurisdiction_id: string | null },
): Promise<string | null> {
  const found = itemDocket(item.parsed ? (JSON.parse(item.parsed) as ParsedEmail) : null, item.docket_index);
  if (!found) return null;
  const { docket, courtId: noticeCourt } = found;
  const db = ctx.database.db;
  const [jurisdiction, courts] = kase.jurisdiction_id
    ? await Promise.all([
        db.selectFrom("jurisdiction").select("name").where("id", "=", kase.jurisdiction_id).where("firm_id", "=", firmId).executeTakeFirst(),
        db
          .selectFrom("jurisdiction_ecfx")
          .select("ecfx_jurisdiction_id")
          .where("jurisdiction_id", "=", kase.jurisdiction_id)
          .where("firm_id", "=", firmId)
          .execute(),
      ])
    : [undefined, []];
  const sameNumber = normaliseCaseNumber(docket.docket_number) === kase.case_number_normalized;
  // A notice without a court can only be compared by its number.
  const sameCourt = noticeCourt === null || courts.some((c) => c.ecfx_jurisdiction_id === noticeCourt);
  if (sameNumber && sameCourt) return null;
  const unknown = message("pipeline:events.unknownCourt");
  return message("inbox:card.caseMismatch", {
    notice: docket.docket_number_full || docket.docket_number,
    noticeCourt: noticeCourt ?? unknown,
    case: kase.case_number,
    caseCourt: jurisdiction?.name ?? unknown,
  });
}
