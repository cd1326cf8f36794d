import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { apiMessage, call } from "../components/fields/record-api.server";
import { requireUser } from "../utils/auth.server";
import { redirectWithToast } from "../utils/toast.server";
import { authorizingDef, systemName } from "../utils/vendor-authorization.server";

// "Connect to <system>" on a credential's page (decision 057): the API makes the vendor's consent
// address with a signed state for this person, firm and credential, and the browser goes there.
// Nothing is stored here; the callback completes the connection.

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api } = await requireUser(request);
  const def = authorizingDef(params.system ?? "");
  const id = new URL(request.url).searchParams.get("credential") ?? "";
  if (!def || !id) return redirectWithToast(request, "/dms", { type: "error", key: "errors:notFound" });
  const asked = await call<{ url: string }>(api, `${def.apiPath}/${encodeURIComponent(id)}/authorization`, { method: "POST", json: {} });
  if (asked.ok && /^https?:\/\//i.test(asked.data.url)) return redirect(asked.data.url);
  const reason = asked.ok ? "" : apiMessage(asked.error);
  const toast =
    reason.startsWith("errors:") || !reason
      ? { type: "error" as const, key: reason || "errors:somethingWrong" }
      : { type: "error" as const, key: "storage:authorization.refused", values: { system: systemName(def.authorization!.system), reason } };
  return redirectWithToast(request, `/${def.key}/${encodeURIComponent(id)}`, toast);
}
