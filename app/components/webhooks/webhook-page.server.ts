import { data } from "@remix-run/node";
import { type WebhookDeliveryPage, webhooks } from "../../common/resources/webhooks";
import { ApiError } from "../../utils/api.server";
import { requireUser } from "../../utils/auth.server";
import { readForm } from "../../utils/request-body.server";
import { redirectWithToast } from "../../utils/toast.server";
import { deliveriesPath, deliveryFilterOf } from "./delivery-filter";

// A webhook's delivery page: the log with its status filter and paging in the address, and the
// posts that re-send a delivery, send a test event and show or rotate the signing secret.

const PAGE_SIZE = 20;
const q = encodeURIComponent;

export async function webhookDeliveriesData(request: Request, id: string) {
  const { me, api } = await requireUser(request, webhooks.accessKey);
  const filter = deliveryFilterOf(new URL(request.url));
  const [hook, deliveries] = await Promise.all([
    api.json<{ id: string; name: string; url: string; enabled: boolean }>(`${webhooks.apiPath}/${q(id)}`),
    api.json<WebhookDeliveryPage>(
      `${webhooks.apiPath}/${q(id)}/deliveries?size=${PAGE_SIZE}&page=${filter.page}${filter.status ? `&status=${filter.status}` : ""}`,
    ),
  ]);
  return data({
    webhook: hook.data,
    deliveries: deliveries.data,
    filter,
    canWrite: me.userRole[webhooks.accessKey] === "FULL",
    pageTitle: { key: "wizard:detailTitle", values: { resource: webhooks.key, title: hook.data.name } },
  });
}

/** What a post answers: back to the log with a toast, or the secret, shown in this one answer only. */
export async function webhookDeliveriesAction(request: Request, id: string) {
  const { api } = await requireUser(request, webhooks.accessKey);
  const form = await readForm(request);
  const back = deliveriesPath(id, deliveryFilterOf(new URL(request.url)));
  const post = (path: string) => api.json<{ id?: string; secret?: string }>(path, { method: "POST" });
  switch (form.get("intent")) {
    case "resend":
      await post(`/api/v1/webhook-delivery/${q(String(form.get("delivery") ?? ""))}/resend`);
      return redirectWithToast(request, back, { type: "success", key: "resources:webhooks.deliveries.resent" });
    case "test":
      await post(`${webhooks.apiPath}/${q(id)}/test`);
      return redirectWithToast(request, back, { type: "success", key: "resources:webhooks.deliveries.testQueued" });
    case "secret":
    case "rotate":
      try {
        const { data: answer } = await post(`${webhooks.apiPath}/${q(id)}/secret${form.get("intent") === "rotate" ? "/rotate" : ""}`);
        return data({ secret: answer.secret ?? null, error: null });
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) return data({ secret: null, error: error.body.message ?? null }, { status: 409 });
        throw error;
      }
    default:
      return redirectWithToast(request, back, { type: "error", key: "errors:invalidRequest" });
  }
}
