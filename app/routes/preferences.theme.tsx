import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { safeRedirect } from "../utils/safe-redirect";
import { readTheme, writeTheme } from "../utils/theme.server";

const FLAGS = ["darkMode", "accessibleColors", "drawerOpen"] as const;

/** Saves theme and drawer state in the versioned theme cookie; without JS, returns to the page. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const theme = await readTheme(request);
  for (const flag of FLAGS) {
    const value = form.get(flag);
    if (value === "true" || value === "false") theme[flag] = value === "true";
  }
  const referer = request.headers.get("Referer");
  const back = referer && new URL(referer).origin === new URL(request.url).origin ? new URL(referer) : null;
  return redirect(safeRedirect(back ? back.pathname + back.search : null), {
    headers: { "Set-Cookie": await writeTheme(request, theme) },
  });
}

export function loader() {
  return redirect("/dashboard");
}
