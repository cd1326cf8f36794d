import { REGISTRY } from "../../common/resources";
import { allows } from "../../common/access";
import { ApiError } from "../../utils/api.server";
import { requireUser } from "../../utils/auth.server";
import { movedInOrder } from "../../utils/move-in-order";
import { readForm } from "../../utils/request-body.server";
import { redirectWithToast } from "../../utils/toast.server";
import { type OrderedPreference, REORDER_INTENT } from "./preference-order";

// The order of the jurisdiction preferences: read first to last, and set in one API call. A move
// button sends the whole order with the move it names, so it works without JavaScript; a drag
// sends the new order itself.

const def = REGISTRY["jurisdiction-preferences"];
const PAGE = `/${def.key}`;
/** The most preferences the order panel lists (the API's largest page). */
const LISTED = 100;

export async function loadPreferenceOrder(request: Request) {
  const { me, api } = await requireUser(request, def.accessKey);
  const { data } = await api.json<OrderedPreference[]>(`${def.apiPath}/search?sort=order&max=${LISTED}`);
  return { preferences: data, canReorder: allows(me.userRole[def.accessKey], "write") };
}

export async function savePreferenceOrder(request: Request) {
  const { api } = await requireUser(request, def.accessKey);
  const form = await readForm(request);
  const ids = form.getAll("ids").map(String);
  const order = movedInOrder(ids, String(form.get("intent") ?? REORDER_INTENT));
  try {
    await api.json(`${def.apiPath}/order`, { method: "PUT", json: { ids: order } });
  } catch (error) {
    // Spec §8: a refused order (another firm's record, a role that may not) says 'Error while updating order'.
    if (!(error instanceof ApiError)) throw error;
    return redirectWithToast(request, PAGE, { type: "error", key: "errors:updatingOrder" });
  }
  return redirectWithToast(request, PAGE, { type: "success", key: "resources:jurisdiction-preferences.order.saved" });
}
