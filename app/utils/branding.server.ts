import { boundedCache } from "../common/bounded-cache";
import type { FirmBranding } from "../common/firm-schema";
import { apiJson } from "./api.server";

// Branding is public and changes rarely; a short cache spares the API a call per page. Keyed by
// what the page names (a firm id or a host), so it is bounded: any host may be asked for.
const cache = boundedCache<Promise<FirmBranding | null>>({ max: 1000, ttlMs: 30_000 });

export function firmBranding(query: { firmId?: number; host?: string | null }): Promise<FirmBranding | null> {
  const params = new URLSearchParams();
  if (query.firmId) params.set("firm", String(query.firmId));
  else if (query.host) params.set("host", query.host);
  const key = params.toString();
  return cache.keep(key, () =>
    apiJson<FirmBranding>(`/api/v1/firm/public?${key}`)
      .then((r) => r.data)
      .catch(() => null),
  );
}

/** After a save of the firm, its branding is read fresh. */
export function forgetBranding(): void {
  cache.clear();
}
