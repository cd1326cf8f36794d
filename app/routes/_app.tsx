import { type LoaderFunctionArgs, data } from "@remix-run/node";
import { Outlet, type ShouldRevalidateFunction, useLoaderData } from "@remix-run/react";
import { AppShellLayout } from "../components/shell/AppShellLayout";
import { holdAppCatalogue } from "../utils/app-catalogue";
import { isDocumentRequest, reportPageView } from "../utils/analytics.server";
import { requireUser } from "../utils/auth.server";
import { firmWordsOf } from "../utils/firm-words.server";
import { pageNotFound } from "../utils/not-found.server";
import { pathAvailable, routeFor } from "../utils/route-table";
import { readSession } from "../utils/session.server";
import { usePageTitle } from "../utils/page-title";
import { usePageViews } from "../utils/use-page-views";
import { useRootData } from "../utils/root-data";
import { DEFAULT_THEME } from "../utils/versioned-store";

// The signed-in pages' words come with their layout, before any of them draws.
holdAppCatalogue();

// The dashboard layout: every page inside needs a signed-in user; each page checks its own key.
export async function loader({ request }: LoaderFunctionArgs) {
  // An address with no page is a 404 before it is a reason to sign in.
  if (!routeFor(new URL(request.url).pathname) && !(await readSession(request))) await pageNotFound(request);
  const { me, api } = await requireUser(request);
  const { parts } = me;
  const firmWords = await firmWordsOf(me, api);
  // A part the firm does not have answers as an address that does not exist (decision 048).
  if (!pathAvailable(new URL(request.url).pathname, parts)) await pageNotFound(request);
  // A page the browser moved to with JavaScript is reported by the browser (usePageViews).
  if (me.analytics && isDocumentRequest(request)) reportPageView(request, api);
  return data({ me, parts, firmWords });
}

// Every navigation to another page or query runs this loader: the signed-in user is asked again.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) =>
  (!formMethod || formMethod === "GET") && currentUrl.href !== nextUrl.href ? true : defaultShouldRevalidate;

export default function AppLayout() {
  const { me, parts } = useLoaderData<typeof loader>();
  const root = useRootData();
  const title = usePageTitle();
  usePageViews(me);
  return (
    <AppShellLayout title={title ?? ""} theme={root?.theme ?? DEFAULT_THEME} branding={root?.branding ?? null} user={me} role={me.userRole} parts={parts}>
      <Outlet />
    </AppShellLayout>
  );
}
export { PageError as ErrorBoundary } from "../components/PageError";
