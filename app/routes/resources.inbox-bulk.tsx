import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "../utils/auth.server";
import { fetchMatchingIds, postBulk } from "../utils/inbox-actions.server";
import { isInboxBulkAction } from "../common/inbox-bulk";
import { BULK_BATCH, BULK_FIELDS, type Refusal, isRefusal } from "../utils/inbox-bulk";
import { readForm } from "../utils/request-body.server";

// The inbox list's bulk actions with JavaScript, batch by batch so the page can show progress:
// GET /resources/inbox-bulk?<the table's query> answers the ids of "all items matching the
// filters"; POST action=<action>&ids=... runs one batch. Both answer JSON; a refusal of the API
// (403 for a role that may only read the inbox) comes back as { refused: toast } with its status.

const json = (body: unknown, status: number) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

const refusal = (key: string, status: number): Refusal => ({ refused: { type: "error", key }, status });

export async function loader({ request }: LoaderFunctionArgs) {
  const { api } = await requireUser(request, "inboxItemAccess");
  const found = await fetchMatchingIds(api, new URL(request.url));
  return json(found, isRefusal(found) ? found.status : 200);
}

export async function action({ request }: ActionFunctionArgs) {
  const { api } = await requireUser(request, "inboxItemAccess");
  const form = await readForm(request);
  const action = form.get(BULK_FIELDS.action);
  const ids = [...new Set(form.getAll(BULK_FIELDS.ids).map(String).filter(Boolean))];
  if (!isInboxBulkAction(action) || ids.length === 0 || ids.length > BULK_BATCH) return json(refusal("errors:somethingWrong", 400), 400);
  const outcome = await postBulk(api, action, ids);
  return json(outcome, isRefusal(outcome) ? outcome.status : 200);
}
