import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "../utils/auth.server";

/** Streams a stored court document after the API's access check. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api } = await requireUser(request, "documentAccess");
  const response = await api.raw(`/api/v1/document/${encodeURIComponent(params.id ?? "")}/content`, { accept: "application/pdf" });
  if (!response.ok) return new Response("Not found", { status: response.status === 403 ? 403 : 404 });
  return new Response(response.body, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": response.headers.get("content-disposition") ?? "inline",
      "Cache-Control": "private, no-store",
    },
  });
}
