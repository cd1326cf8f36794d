import { type ActionFunctionArgs, redirect, redirectDocument } from "@remix-run/node";
import { idpLogoutCookie } from "../utils/sso.server";
import { cookieSecure } from "../utils/env.server";
import { apiRequest } from "../utils/api.server";
import { clearSession, readSession } from "../utils/session.server";
import { redirectWithToast } from "../utils/toast.server";

export function loader() {
  // Signing out changes state, so it is a POST; a plain visit goes back to the console.
  return redirect("/dashboard");
}

export async function action({ request }: ActionFunctionArgs) {
  const auth = await readSession(request);
  // A single sign-on session is ended at the identity provider too, which then comes back here.
  let idpLogout: string | null = null;
  if (auth) {
    const response = await apiRequest("/auth/logout", { method: "POST", json: { refresh_token: auth.refreshToken } }).catch(() => undefined);
    if (response?.status === 200) idpLogout = ((await response.json()) as { redirect?: string }).redirect ?? null;
  }
  const headers = new Headers();
  headers.append("Set-Cookie", await clearSession(request));
  // The console's pages allow forms to post to this site only (CSP form-action), which a browser
  // also applies to the redirects after a post: the identity provider is reached from a page of
  // its own instead, the address kept in a cookie this server set (never taken from the request).
  if (idpLogout && /^https?:\/\//i.test(idpLogout)) {
    headers.append("Set-Cookie", await idpLogoutCookie.serialize(idpLogout, { secure: cookieSecure(request) }));
    return redirectDocument("/auth/sso/logout", { headers });
  }
  return redirectWithToast(request, "/login", { type: "info", key: "login.signedOut" }, { headers });
}
