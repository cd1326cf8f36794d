import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { safeRedirect } from "../utils/safe-redirect";
import { readTheme, writeTheme } from "../utils/theme.server";
import { readForm } from "../utils/request-body.server";

const FLAGS = ["darkMode", "accessibleColors", "drawerOpen"] as const;

/** Saves theme and drawer state in the versioned theme cookie; without JS, returns to the page. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const theme = await readTheme(request);
  for (const flag of FLAGS) {
    const value = form.get(flag);
    if (value === "true" || value === "false") theme[flag] = value === "true";
  }
  const back = sameOriginReferer(request);
  return redirect(safeRedirect(back ? back.pathname + back.search : null), {
    headers: { "Set-Cookie": await writeTheme(request, theme) },
  });
}

/** The page the form was sent from, when the Referer is a readable URL of this console. */
function sameOriginReferer(request: Request): URL | null {
  const referer = URL.canParse(request.headers.get("Referer") ?? "") ? new URL(request.headers.get("Referer")!) : null;
  return referer && referer.origin === new URL(request.url).origin ? referer : null;
}

export function loader() {
  return redirect("/dashboard");
}
