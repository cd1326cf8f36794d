import { createCookie, redirect } from "@remix-run/node";
import { ApiError, apiJson, apiRequest } from "./api.server";
import { type AuthSession, clearSession, writeSession } from "./session.server";
import { forwardedFor, sessionFromTokens } from "./auth.server";
import { safeRedirect } from "./safe-redirect";
import { redirectWithToast } from "./toast.server";

// The console's half of single sign-on (decision 099): it forwards what the browser and the
// identity provider send on the firm's host to the API, and keeps the session the API answers in
// the encrypted cookie, as a password sign-in does.

/** Where signing out goes on at the identity provider: set by /logout, read once by /auth/sso/logout. */
export const idpLogoutCookie = createCookie("ecfx_idp_logout", { httpOnly: true, sameSite: "lax", path: "/auth/sso/logout", maxAge: 120 });

/** The page that sends the browser on to the identity provider's logout: a refresh, and a link. */
export async function continueIdpLogout(request: Request): Promise<Response> {
  const target = (await idpLogoutCookie.parse(request.headers.get("Cookie"))) as string | null;
  if (typeof target !== "string" || !/^https?:\/\//i.test(target)) return redirect("/login");
  const href = target.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>Sign out</title></head><body><p><a href="${href}">Continue signing out at your identity provider</a></p></body></html>`;
  return new Response(html, {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Set-Cookie": await idpLogoutCookie.serialize("", { maxAge: 0 }) },
  });
}

/** Back from the OpenID Connect issuer's logout: signed out there and here. */
export async function oidcSignedOut(request: Request): Promise<Response> {
  const headers = new Headers({ "Set-Cookie": await clearSession(request) });
  return redirectWithToast(request, "/login", { type: "info", key: "login.signedOut" }, { headers });
}

const hostOf = (request: Request) => new URL(request.url).host;

/** The API's refusal in words, for the sign-in page's toast. */
const refusal = (error: unknown) => (error instanceof ApiError && error.status < 500 && error.body.message ? error.body.message : "errors:somethingWrong");

const toLogin = (request: Request, error: unknown, headers?: Headers) => {
  const text = refusal(error);
  return redirectWithToast(request, "/login", text.startsWith("errors:") ? { type: "error", key: text } : { type: "error", text }, { headers });
};

export async function samlMetadata(request: Request): Promise<Response> {
  const response = await apiRequest(`/auth/saml/metadata?host=${encodeURIComponent(hostOf(request))}`, { accept: "application/samlmetadata+xml" });
  if (!response.ok) return new Response(null, { status: response.status === 404 ? 404 : 503 });
  return new Response(await response.text(), { headers: { "Content-Type": "application/samlmetadata+xml; charset=utf-8" } });
}

/** Sends the browser to the firm's identity provider; it comes back to the ACS or callback with where it was headed. */
export async function startSsoSignIn(request: Request, method: "saml" | "oidc"): Promise<Response> {
  const from = safeRedirect(new URL(request.url).searchParams.get("from"));
  try {
    const { data } = await apiJson<{ url: string }>(`/auth/${method}/start`, { method: "POST", json: { host: hostOf(request), relay_state: from } });
    return redirect(data.url);
  } catch (error) {
    return toLogin(request, error);
  }
}

type SignedInAnswer = Parameters<typeof sessionFromTokens>[1] & { user: Parameters<typeof sessionFromTokens>[0]; relay_state?: string };

/** The OpenID Connect issuer's answer (code and state in the query): the API redeems and checks it. */
export async function acceptOidcCallback(request: Request): Promise<Response> {
  try {
    const { data } = await apiJson<SignedInAnswer>("/auth/oidc/callback", {
      method: "POST",
      json: { host: hostOf(request), query: new URL(request.url).search.replace(/^\?/, "") },
      forwardedFor: forwardedFor(request),
    });
    const headers = new Headers({ "Set-Cookie": await writeSession(request, sessionFromTokens(data.user, data)) });
    return redirect(safeRedirect(data.relay_state), { headers });
  } catch (error) {
    return toLogin(request, error);
  }
}

export async function acceptSamlResponse(request: Request): Promise<Response> {
  const form = await request.formData();
  const samlResponse = form.get("SAMLResponse");
  if (typeof samlResponse !== "string" || !samlResponse) return redirect("/login");
  try {
    const { data } = await apiJson<SignedInAnswer>("/auth/saml/acs", {
      method: "POST",
      json: { host: hostOf(request), SAMLResponse: samlResponse },
      forwardedFor: forwardedFor(request),
    });
    const session: AuthSession = sessionFromTokens(data.user, data);
    const headers = new Headers({ "Set-Cookie": await writeSession(request, session) });
    return redirect(safeRedirect(form.get("RelayState")), { headers });
  } catch (error) {
    return toLogin(request, error);
  }
}

/**
 * The identity provider's single logout, by redirect (`query`) or by post (`form`): a logout
 * request ends the sessions of its subject and is answered at the provider; a logout response
 * closes a sign-out this console started. Either way this browser's session ends.
 */
export async function samlLogout(request: Request, form?: FormData): Promise<Response> {
  const headers = new Headers({ "Set-Cookie": await clearSession(request) });
  const field = (name: string) => (form?.get(name) as string | null) ?? undefined;
  try {
    const { data } = await apiJson<{ redirect: string | null }>("/auth/saml/slo", {
      method: "POST",
      json: {
        host: hostOf(request),
        query: new URL(request.url).search.replace(/^\?/, ""),
        SAMLRequest: field("SAMLRequest"),
        SAMLResponse: field("SAMLResponse"),
        RelayState: field("RelayState"),
      },
    });
    if (data.redirect) return redirect(data.redirect, { headers });
    return redirectWithToast(request, "/login", { type: "info", key: "login.signedOut" }, { headers });
  } catch (error) {
    return toLogin(request, error, headers);
  }
}
