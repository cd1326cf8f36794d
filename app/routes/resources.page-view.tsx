import type { ActionFunctionArgs } from "@remix-run/node";
import { PAGE_VIEW_FIELDS } from "../common/analytics-identity";
import { sendPageView } from "../utils/analytics.server";
import { requireUser } from "../utils/auth.server";
import { readForm } from "../utils/request-body.server";

// With JavaScript, the browser reports each page it moves to (usePageViews), with the identity it
// keeps in local storage: POST path=…&distinctId=…&identified=true|false answers what the
// identity keeps next as JSON (decision 122). Pages drawn as documents are reported by their loader.

export async function action({ request }: ActionFunctionArgs) {
  const { me, api } = await requireUser(request);
  const headers = { "Cache-Control": "no-store" };
  const form = await readForm(request);
  const path = String(form.get(PAGE_VIEW_FIELDS.path) ?? "");
  const distinctId = String(form.get(PAGE_VIEW_FIELDS.distinctId) ?? "");
  const identified = form.get(PAGE_VIEW_FIELDS.identified);
  if (!path.startsWith("/") || path.length > 2_000 || distinctId !== me.id || (identified !== "true" && identified !== "false")) {
    return Response.json({ error: "invalid_request" }, { status: 400, headers });
  }
  // Nothing to keep when nothing is reported (no token, or the user opted out) or the API failed:
  // analytics never fail a page.
  if (!me.analytics) return new Response(null, { status: 204, headers });
  const answer = await sendPageView(request, api, path, { distinctId, identified: identified === "true" }).catch(() => null);
  return answer ? Response.json(answer, { headers }) : new Response(null, { status: 204, headers });
}
