import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { requireUser } from "../utils/auth.server";
import { routeFor } from "../utils/route-table";

// Unknown paths go to the dashboard (spec §2). A declared page that is not built yet still
// obeys its access key, so a denied role lands on /success as it will once the page exists.
export async function loader({ request }: LoaderFunctionArgs) {
  const route = routeFor(new URL(request.url).pathname);
  await requireUser(request, route?.accessKey ?? null);
  return redirect("/dashboard");
}
