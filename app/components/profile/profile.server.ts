import { parseWithZod } from "@conform-to/zod";
import { decodeMessage, encodeMessage } from "../../../proto/codec.server";
import { toastForApiError } from "../../utils/api-errors";
import { ApiError } from "../../utils/api.server";
import { type ApiClient, type Me, requireUser, sessionFromTokens } from "../../utils/auth.server";
import { changePasswordSchema } from "../../utils/auth-schemas";
import { roleRows } from "../../utils/role-rows";
import { writeSession } from "../../utils/session.server";
import { readForm } from "../../utils/request-body.server";
import { redirectWithToast } from "../../utils/toast.server";
import { ANALYTICS_INTENT } from "./AnalyticsForm";
import type { RoleView } from "./RoleAccessCard";

// The profile page's server side: the user's role as the binary UserSecurityRole message, and
// the change of password, after which this session goes on with the tokens the API returned.

export async function loadRole(api: ApiClient, me: Me): Promise<RoleView | null> {
  const response = await api.raw(`/api/v1/user-security-role/${encodeURIComponent(me.securityRoleId)}`, { accept: "application/x-protobuf" });
  const role = response.ok ? decodeMessage("UserSecurityRole", new Uint8Array(await response.arrayBuffer())) : null;
  return role ? { name: String(role.name), isSystemDefined: Boolean(role.isSystemDefined), rows: roleRows(role) } : null;
}

const HIDE_FIELDS = ["currentPassword", "newPassword", "confirmPassword"];

export async function changePassword(request: Request) {
  const { auth, me, api } = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: changePasswordSchema });
  if (submission.status !== "success") return submission.reply({ hideFields: HIDE_FIELDS });
  const body = encodeMessage("ChangePassword", { currentPassword: submission.value.currentPassword, newPassword: submission.value.newPassword });
  try {
    const { data: tokens } = await api.json<{ access_token: string; refresh_token: string; expires_in: number }>(
      `/auth/${encodeURIComponent(me.id)}/change-password`,
      {
        method: "PUT",
        body: Buffer.from(body),
        contentType: "application/x-protobuf",
      },
    );
    // The API ended every session; this one goes on with the pair it returned.
    const headers = new Headers();
    headers.append("Set-Cookie", await writeSession(request, sessionFromTokens(auth, tokens)));
    return redirectWithToast(request, "/profile", { type: "success", key: "profile.changed" }, { headers });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status >= 500 || error.status === 409) return redirectWithToast(request, "/profile", toastForApiError(error.status, error.body.message));
    const fieldErrors = error.body.fieldErrors ?? {};
    return submission.reply({
      fieldErrors: { currentPassword: fieldErrors.currentPassword ?? [], newPassword: fieldErrors.newPassword ?? [] },
      formErrors: Object.keys(fieldErrors).length ? [] : [error.body.message ?? "errors:somethingWrong"],
      hideFields: HIDE_FIELDS,
    });
  }
}

/** Whether the user has opted out of usage analytics (a preference of their own). */
export async function loadAnalyticsOptOut(api: ApiClient): Promise<boolean> {
  const analytics = await api.json<{ value: { optOut?: boolean } | null }>("/api/v1/preferences/analytics").catch(() => null);
  return analytics?.data.value?.optOut === true;
}

/** The profile page posts two forms; the analytics one names its intent. */
export async function isAnalyticsForm(request: Request): Promise<boolean> {
  return (await readForm(request.clone())).get("intent") === ANALYTICS_INTENT;
}

export async function saveAnalyticsOptOut(request: Request) {
  const { api } = await requireUser(request);
  const form = await readForm(request);
  // Whether page views are reported comes with the user, whom every page asks for: the next page follows the choice.
  await api.json("/api/v1/preferences/analytics", { method: "PUT", json: { value: { optOut: form.get("optOut") === "on" } } });
  return redirectWithToast(request, "/profile", { type: "success", key: "profile.analytics.saved" });
}
