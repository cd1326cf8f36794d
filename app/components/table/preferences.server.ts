import type { ApiClient } from "../../utils/auth.server";
import { boundedCache } from "../../common/bounded-cache";
import { EMPTY_LAYOUT, type TableLayout, layoutPreferenceKey, parseLayout } from "./layout";

// The API calls behind a table's saved layout and the firm's web preferences, kept for a few
// seconds per session (every table page asks); a change made here forgets them at once, another
// console process's within the seconds. Failures to read fall back to the defaults: a missing
// preference never keeps a table from showing.

const layouts = boundedCache<Promise<TableLayout>>({ max: 1000, ttlMs: 3000 });
const webPreferences = boundedCache<Promise<Record<string, unknown> | null>>({ max: 1000, ttlMs: 3000 });

export function readLayout(api: ApiClient, resourceKey: string): Promise<TableLayout> {
  return layouts.keep(`${api.sessionKey} ${resourceKey}`, async () => {
    const response = await api.raw(`/api/v1/preferences/${layoutPreferenceKey(resourceKey)}`);
    if (!response.ok) return EMPTY_LAYOUT;
    const body = (await response.json()) as { value?: unknown };
    return parseLayout(body.value);
  });
}

export async function saveLayout(api: ApiClient, resourceKey: string, layout: TableLayout): Promise<boolean> {
  layouts.forget(`${api.sessionKey} ${resourceKey}`);
  const response = await api.raw(`/api/v1/preferences/${layoutPreferenceKey(resourceKey)}`, { method: "PUT", json: { value: layout } });
  return response.ok;
}

export async function resetLayout(api: ApiClient, resourceKey: string): Promise<boolean> {
  layouts.forget(`${api.sessionKey} ${resourceKey}`);
  const response = await api.raw(`/api/v1/preferences/${layoutPreferenceKey(resourceKey)}`, { method: "DELETE" });
  return response.ok;
}

/** The firm's web preferences, or null when the role only sees the firm's branding. */
export function readWebPreferences(api: ApiClient): Promise<Record<string, unknown> | null> {
  return webPreferences.keep(api.sessionKey, () => fetchWebPreferences(api));
}

async function fetchWebPreferences(api: ApiClient): Promise<Record<string, unknown> | null> {
  const response = await api.raw("/api/v1/firm");
  if (!response.ok) return null;
  const firm = (await response.json()) as { web_preferences?: unknown };
  if (typeof firm.web_preferences !== "string") return null;
  try {
    const prefs: unknown = JSON.parse(firm.web_preferences);
    return prefs && typeof prefs === "object" && !Array.isArray(prefs) ? (prefs as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function saveWebPreferences(api: ApiClient, prefs: Record<string, unknown>): Promise<boolean> {
  // The firm's: every session's copy is stale.
  webPreferences.clear();
  const response = await api.raw("/api/v1/firm/web-preferences", { method: "PUT", json: { web_preferences: JSON.stringify(prefs) } });
  return response.ok;
}
