import type { ProductPart } from "../common/entitled-features";
import type { ApiClient } from "./auth.server";

// Every page's layout asks; the answer is kept for a few seconds per token and host, as the
// user's role is (auth.server.ts), so the pages of one visit ask the API once.
const cache = new Map<string, { at: number; parts: Promise<ProductPart[]> }>();
const TTL_MS = 3000;

/** The parts of the product the user's firm has on the host the browser reached (decision 048). */
export function productParts(request: Request, api: ApiClient, token: string): Promise<ProductPart[]> {
  const host = new URL(request.url).host;
  const key = `${token} ${host}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.parts;
  const parts = api.json<{ parts: ProductPart[] }>(`/api/v1/firm/features?host=${encodeURIComponent(host)}`).then((r) => r.data.parts);
  cache.set(key, { at: Date.now(), parts });
  parts.catch(() => cache.delete(key));
  if (cache.size > 1000) cache.clear();
  return parts;
}
