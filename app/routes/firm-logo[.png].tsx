import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRequest } from "../utils/api.server";

/** The firm's logo, passed through from the API so the browser never needs to reach it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const firm = Number(new URL(request.url).searchParams.get("firm"));
  if (!Number.isInteger(firm) || firm <= 0) return new Response("Not found", { status: 404 });
  const response = await apiRequest(`/api/v1/firm/logo.png?firm=${firm}`, { accept: "image/png" });
  if (!response.ok) return new Response("Not found", { status: 404 });
  return new Response(response.body, {
    headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=300" },
  });
}
