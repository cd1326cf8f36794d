import type { LoaderFunctionArgs } from "@remix-run/node";
import { downloadDisposition } from "../components/table/export-filename";
import { requireUser } from "../utils/auth.server";

/** The original notice e-mail as received, as an .eml download. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api } = await requireUser(request, "inboxItemAccess");
  const response = await api.raw(`/api/v1/inbox/${encodeURIComponent(params.id ?? "")}/raw`, { accept: "message/rfc822" });
  if (!response.ok) return new Response("Not found", { status: response.status === 403 ? 403 : 404 });
  return new Response(response.body, {
    headers: {
      "Content-Type": "message/rfc822",
      "Content-Disposition": downloadDisposition(`${params.id || "notice"}.eml`),
      "Cache-Control": "private, no-store",
    },
  });
}
