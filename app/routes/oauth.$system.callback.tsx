import type { LoaderFunctionArgs } from "@remix-run/node";
import { call } from "../components/fields/record-api.server";
import { requireUser } from "../utils/auth.server";
import { redirectWithToast } from "../utils/toast.server";
import { authorizingDef, systemName } from "../utils/vendor-authorization.server";

// Where a vendor's consent page sends the browser back (decision 057): the code and the signed
// state go to the API, which checks the state against the signed-in person and keeps the tokens;
// the person lands on the credential's page with a word on how it went.

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api } = await requireUser(request);
  const system = params.system ?? "";
  const def = authorizingDef(system);
  const url = new URL(request.url);
  const back = def ? `/${def.key}` : "/dms";
  const values = { system: systemName(system) };
  const refusedAtVendor = url.searchParams.get("error");
  if (!def || refusedAtVendor) {
    const reason = url.searchParams.get("error_description") ?? refusedAtVendor ?? "";
    return redirectWithToast(request, back, { type: "error", key: "storage:authorization.refused", values: { ...values, reason } });
  }
  const answered = await call<{ resource: string; id: string }>(api, "/api/v1/dms-authorization/callback", {
    method: "POST",
    json: { system, code: url.searchParams.get("code") ?? "", state: url.searchParams.get("state") ?? "" },
  });
  if (answered.ok) {
    const to = `/${answered.data.resource}/${encodeURIComponent(answered.data.id)}`;
    return redirectWithToast(request, to, { type: "success", key: "storage:authorization.done", values });
  }
  const reason = answered.error.body.message ?? `HTTP ${answered.error.status}`;
  return redirectWithToast(request, back, { type: "error", key: "storage:authorization.refused", values: { ...values, reason } });
}
