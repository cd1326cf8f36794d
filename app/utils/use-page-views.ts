import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { type AnalyticsIdentity, PAGE_VIEW_FIELDS, type PageViewAnswer } from "../common/analytics-identity";

// Spec §9: analytics persist in local storage and ignore do-not-track (decision 122). With
// JavaScript the browser keeps the analytics identity itself, as the vendor's library would, and
// reports each page it moves to with it; the page the document drew was reported by its loader.

/** Where the browser keeps the identity: local storage of the console's host, never a cookie. */
export const ANALYTICS_STORAGE_KEY = "ecfx-analytics";
export const PAGE_VIEW_ROUTE = "/resources/page-view";

/** The identity kept for this user; another user's (signed in before on this browser) starts over. */
function keptIdentity(userId: string): AnalyticsIdentity {
  try {
    const kept = JSON.parse(localStorage.getItem(ANALYTICS_STORAGE_KEY) ?? "null") as Partial<AnalyticsIdentity> | null;
    if (kept?.distinctId === userId) return { distinctId: userId, identified: kept.identified === true, firm: typeof kept.firm === "string" ? kept.firm : "" };
  } catch {
    // Unreadable: start over.
  }
  return { distinctId: userId, identified: false, firm: "" };
}

const keep = (identity: AnalyticsIdentity) => localStorage.setItem(ANALYTICS_STORAGE_KEY, JSON.stringify(identity));

/**
 * The history entry the document was drawn at: its loader reported it. Remix's ScrollRestoration
 * gives that entry a key before the console starts, so it is not React Router's "default".
 */
let documentKey: string | null = null;

/** Called once as the console starts in the browser, before it draws (entry.client.tsx). */
export function rememberDocumentLocation(): void {
  documentKey = (window.history.state as { key?: string } | null)?.key ?? "default";
}

/** One report at a time, so that quick navigations do not each send identify. */
let reports: Promise<void> = Promise.resolve();

async function report(userId: string, path: string): Promise<void> {
  const identity = keptIdentity(userId);
  const body = new URLSearchParams({
    [PAGE_VIEW_FIELDS.path]: path,
    [PAGE_VIEW_FIELDS.distinctId]: identity.distinctId,
    [PAGE_VIEW_FIELDS.identified]: String(identity.identified),
  });
  const response = await fetch(PAGE_VIEW_ROUTE, { method: "POST", body, headers: { accept: "application/json" } });
  if (response.status !== 200) return;
  const answer = (await response.json()) as PageViewAnswer;
  keep({ ...identity, identified: answer.identified, firm: answer.firm });
}

/** Keeps the signed-in user's identity and reports every page the browser moves to. */
export function usePageViews(me: { id: string; analytics: boolean }): void {
  const location = useLocation();
  useEffect(() => {
    if (!me.analytics) return;
    keep(keptIdentity(me.id));
    if (location.key === documentKey) return;
    reports = reports.then(() => report(me.id, location.pathname)).catch(() => undefined);
  }, [location.key, location.pathname, me.id, me.analytics]);
}
