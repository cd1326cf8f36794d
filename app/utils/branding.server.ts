import type { FirmBranding } from "../common/firm-schema";
import { apiJson } from "./api.server";

// Branding is public and changes rarely; a short cache spares the API a call per page.
const TTL_MS = 30_000;
const cache = new Map<string, { at: number; value: Promise<FirmBranding | null> }>();

export function firmBranding(query: { firmId?: number; host?: string | null }): Promise<FirmBranding | null> {
  const params = new URLSearchParams();
  if (query.firmId) params.set("firm", String(query.firmId));
  else if (query.host) params.set("host", query.host);
  const key = params.toString();
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
  const value = apiJson<FirmBranding>(`/api/v1/firm/public?${key}`)
    .then((r) => r.data)
    .catch(() => null);
  cache.set(key, { at: Date.now(), value });
  return value;
}

/** After a save of the firm, its branding is read fresh. */
export function forgetBranding(): void {
  cache.clear();
}
