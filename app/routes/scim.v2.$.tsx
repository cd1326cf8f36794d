import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRequest } from "../utils/api.server";
import { forwardedFor } from "../utils/auth.server";

// The firm's identity provider reaches SCIM 2.0 at the console's address (docs/scim.md): each
// call goes to the API as it came, with its bearer token and the host it reached, which the API
// holds the token's firm to. Nothing here reads or keeps the token.

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** The body as text, read no further than the API would take it (null: larger). */
async function boundedText(request: Request): Promise<string | null> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) return null;
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function forward(request: Request): Promise<Response> {
  const method = request.method.toUpperCase();
  if (!METHODS.has(method)) return new Response(null, { status: 405, headers: { Allow: [...METHODS].join(", ") } });
  const url = new URL(request.url);
  const authorization = request.headers.get("authorization") ?? "";
  const body = method === "GET" || method === "DELETE" ? undefined : await boundedText(request);
  // The rest of the body is left unread: the connection is not to be used again.
  if (body === null) return new Response(null, { status: 413, headers: { Connection: "close" } });
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
