import type { BrowserIdentity, PageViewAnswer } from "../common/analytics-identity";
import type { ApiClient } from "./auth.server";
import { remixI18n } from "./i18n.server";
import { routeFor } from "./route-table";

// Spec §2: 'View Page' with the page's title on every navigation but sign-in. A page drawn as a
// document is reported by the console's server; with JavaScript the browser reports the pages it
// moves to itself, with the identity it keeps (decision 122). The API decides whether anything is
// sent at all.

/**
 * Whether the browser asked for the page as a document (a link or form without JavaScript, a
 * reload), not for its data with JavaScript: Remix hands loaders the data request's address
 * without its ".data", so the browser's own Fetch Metadata tells them apart, or, from a browser
 * that sends none, whether it accepts HTML.
 */
export function isDocumentRequest(request: Request): boolean {
  const mode = request.headers.get("Sec-Fetch-Mode");
  return mode ? mode === "navigate" : (request.headers.get("Accept") ?? "").includes("text/html");
}

/** Sends a page view to the API and answers what the browser keeps next. */
export async function sendPageView(request: Request, api: ApiClient, path: string, identity?: BrowserIdentity): Promise<PageViewAnswer> {
  const t = await remixI18n.getFixedT(request);
  const entry = routeFor(path);
  const title = entry ? t(entry.titleKey) : path;
  const { data } = await api.json<PageViewAnswer>("/api/v1/analytics/page-view", {
    method: "POST",
    json: { title, path, host: new URL(request.url).host, identity },
  });
  return data;
}

/** Reports the page a document request draws; never awaited by the page and never its failure. */
export function reportPageView(request: Request, api: ApiClient): void {
  sendPageView(request, api, new URL(request.url).pathname).catch(() => undefined);
}
