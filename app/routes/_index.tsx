import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { safeRedirect } from "../utils/safe-redirect";

// The home route only forwards to sign-in, carrying the page the user wanted.
export function loader({ request }: LoaderFunctionArgs) {
  const from = new URL(request.url).searchParams.get("from");
  const target = from ? safeRedirect(from, "") : "";
  return redirect(target ? `/login?from=${encodeURIComponent(target)}` : "/login");
}
