import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { requireUser } from "../utils/auth.server";

/** Streams a file as stored in the firm's DMS, after the API's access and ethical-wall checks. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api } = await requireUser(request, "documentAccess");
  const response = await api.raw(`/api/v1/dms-record/${encodeURIComponent(params.id ?? "")}/content`, { accept: "*/*" });
  // A copy a vendor DMS keeps opens there: the API names its link after the same checks.
  const link = response.status === 303 ? response.headers.get("location") : null;
  if (link && /^https?:\/\//i.test(link)) return redirect(link);
  if (!response.ok) return new Response("Not found", { status: response.status === 403 ? 403 : 404 });
  return new Response(response.body, {
    headers: {
      "Content-Type": response.headers.get("content-type") ?? "application/octet-stream",
      "Content-Disposition": response.headers.get("content-disposition") ?? "attachment",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox",
      "Cache-Control": "private, no-store",
    },
  });
}
