import type { LoaderFunctionArgs } from "@remix-run/node";
import { billing } from "../common/resources/billing";
import { invoicePath } from "../components/billing/paths";
import { requireUser } from "../utils/auth.server";
import { redirectWithToast } from "../utils/toast.server";

/** The invoice's PDF from the API; when it cannot be had, back to the invoice with the spec's download failure. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = params.id ?? "";
  const { api } = await requireUser(request, billing.accessKey);
  const response = await api.raw(`${billing.apiPath}/${encodeURIComponent(id)}/pdf`, { accept: "application/pdf" });
  if (response.status === 404 || response.status === 403) return new Response("Not found", { status: response.status });
  if (!response.ok) return redirectWithToast(request, invoicePath(id), { type: "error", key: "errors:invoiceDownload" });
  return new Response(response.body, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": response.headers.get("content-disposition") ?? "attachment",
      "Cache-Control": "private, no-store",
    },
  });
}
