import { HIERARCHY_LEVELS, type HierarchyLevel } from "../../common/resources/storage";
import { allows } from "../../common/access";
import { ApiError } from "../../utils/api.server";
import { requireUser } from "../../utils/auth.server";
import { movedInOrder } from "../../utils/move-in-order";
import { readForm } from "../../utils/request-body.server";
import { redirectWithToast } from "../../utils/toast.server";

// The storage policy hierarchy page's server side: every button submits the whole form and
// saves at once, so moving a level works the same with and without JavaScript.

interface HierarchySettings {
  hierarchy: HierarchyLevel[];
  storage_policy_id: string | null;
  policies: { id: string; name: string }[];
}

const API_PATH = "/api/v1/firm/storage-hierarchy";

export async function loadHierarchy(request: Request) {
  const { me, api } = await requireUser(request, "firmAccess");
  const { data: settings } = await api.json<HierarchySettings>(API_PATH);
  return { ...settings, canEdit: allows(me.userRole.firmAccess, "write") };
}

const isLevel = (value: unknown): value is HierarchyLevel => typeof value === "string" && (HIERARCHY_LEVELS as readonly string[]).includes(value);

export async function saveHierarchy(request: Request) {
  const { api } = await requireUser(request, "firmAccess");
  const form = await readForm(request);
  const order = form.getAll("hierarchy").filter(isLevel);
  const hierarchy = movedInOrder(order, String(form.get("intent") ?? "save"));
  const policy = String(form.get("storage_policy_id") ?? "");
  try {
    await api.json(API_PATH, { method: "PUT", json: { hierarchy, storage_policy_id: policy || null } });
  } catch (error) {
    // A refused or invalid order gets the spec's toast; an ended session still goes to sign-in.
    if (!(error instanceof ApiError)) throw error;
    return redirectWithToast(request, "/hierarchy", { type: "error", key: "errors:updatingOrder" });
  }
  return redirectWithToast(request, "/hierarchy", { type: "success", key: "storage:hierarchy.saved" });
}
