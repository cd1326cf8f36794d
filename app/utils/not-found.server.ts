import { data } from "@remix-run/node";
import { requireUser } from "./auth.server";
import { routeFor } from "./route-table";
import { readSession } from "./session.server";

/** What a 404 carries to the page or error boundary that shows it: where "home" is for this visitor. */
export interface NotFoundData {
  notFound: true;
  home: "/dashboard" | "/login";
}

/**
 * The answer for an address with no page: 404 (decision 035). A declared page that is not built
 * yet obeys its access key first, so sign-in comes first and a denied role still lands on /success.
 */
export async function notFoundAnswer(request: Request) {
  const route = routeFor(new URL(request.url).pathname);
  if (route) await requireUser(request, route.accessKey);
  const signedIn = Boolean(route || (await readSession(request)));
  const body: NotFoundData = { notFound: true, home: signedIn ? "/dashboard" : "/login" };
  return data(body, { status: 404 });
}

/** Ends a loader or action with the 404 page, shown by the route's error boundary. */
export async function pageNotFound(request: Request): Promise<never> {
  throw await notFoundAnswer(request);
}
