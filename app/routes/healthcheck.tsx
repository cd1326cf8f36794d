import { apiRequest } from "../utils/api.server";

/** The console is healthy when the API answers and the API's database answers. */
export async function loader() {
  try {
    const response = await apiRequest("/api/v1/health");
    const body = (await response.json()) as { status?: string; database?: string };
    const ok = response.ok && body.status === "ok";
    return Response.json({ status: ok ? "ok" : "unavailable", api: response.status, database: body.database ?? null }, { status: ok ? 200 : 503 });
  } catch {
    return Response.json({ status: "unavailable", api: null, database: null }, { status: 503 });
  }
}
