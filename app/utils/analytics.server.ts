import type { ApiClient } from "./auth.server";
import { remixI18n } from "./i18n.server";
import { routeFor } from "./route-table";

/**
 * Tells the API a signed-in user opened a page (spec §2: 'View Page' with the page's title on
 * every navigation but sign-in). Never awaited by the page and never its failure: the API decides
 * whether anything is sent at all.
 */
export function reportPageView(request: Request, api: ApiClient): void {
  const url = new URL(request.url);
  // A navigation with JavaScript asks for the page's data at "<path>.data".
  const path = url.pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/") || "/";
  void (async () => {
    const t = await remixI18n.getFixedT(request);
    const entry = routeFor(path);
    const title = entry ? t(entry.titleKey) : path;
    await api.raw("/api/v1/analytics/page-view", { method: "POST", json: { title, path, host: url.host } });
  })().catch(() => undefined);
}
