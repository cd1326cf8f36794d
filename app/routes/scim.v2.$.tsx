import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRequest } from "../utils/api.server";
import { forwardedFor } from "../utils/auth.server";

// The firm's identity provider reaches SCIM 2.0 at the console's address (docs/scim.md): each
// call goes to the API as it came, with its bearer token and the host it reached, which the API
// holds the token's firm to. Nothing here reads or keeps the token.

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
const MAX_BODY_BYTES = 2 * 1024 * 1024;

async function forward(request: Request): Promise<Response> {
  const method = request.method.toUpperCase();
  if (!METHODS.has(method)) return new Response(null, { status: 405, headers: { Allow: [...METHODS].join(", ") } });
  const url = new URL(request.url);
  const authorization = request.headers.get("authorization") ?? "";
  const body = method === "GET" || method === "DELETE" ? undefined : await request.text();
  if (body !== undefined && Buffer.byteLength(body) > MAX_BODY_BYTES) return new Response(null, { status: 413 });
  const answer = await apiRequest(url.pathname + url.search, {
    method: method as "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    token: authorization.startsWith("Bearer ") ? authorization.slice("Bearer ".length).trim() : undefined,
    body,
    contentType: body !== undefined ? (request.headers.get("content-type") ?? "application/scim+json") : undefined,
    accept: "application/scim+json",
    forwardedFor: forwardedFor(request),
    forwardedHost: url.host,
  });
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const name of ["content-type", "location"]) {
    const value = answer.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(answer.status === 204 ? null : await answer.text(), { status: answer.status, headers });
}

export const loader = ({ request }: LoaderFunctionArgs) => forward(request);
export const action = ({ request }: ActionFunctionArgs) => forward(request);
