import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRequest } from "../utils/api.server";
import { readSession } from "../utils/session.server";

// The open page's liveness ping (spec §7): the API's ping route, asked with the user's bearer
// token. "ok" when it answers, "signed-out" when it answers that the session is over (the next
// page says so itself), "unavailable" (503) only when the service does not answer.
export async function loader({ request }: LoaderFunctionArgs) {
  const headers = { "Cache-Control": "no-store" };
  const auth = await readSession(request);
  if (!auth) return Response.json({ status: "signed-out" }, { status: 401, headers });
  try {
    const response = await apiRequest("/api/v1/ping", { token: auth.authToken });
    await response.body?.cancel();
    if (response.ok) return Response.json({ status: "ok" }, { headers });
    if (response.status === 401) return Response.json({ status: "signed-out" }, { status: 401, headers });
  } catch {
    // Refused, reset or timed out: the service does not answer.
  }
  return Response.json({ status: "unavailable" }, { status: 503, headers });
}
