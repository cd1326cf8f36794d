import type { Server } from "node:http";
import Provider from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../free-port";
import { DEMO, DEMO_PASSWORD, api, backends, login, useApi } from "./harness";

// OpenID Connect sign-on against oidc-provider, an issuer we did not write: discovery, code with
// PKCE, state and nonce, through its own login and consent pages.

const CLIENT = { client_id: "ecfx-demo", client_secret: "a-client-secret-of-the-demo-firm" };
const REDIRECT = "http://localhost:3000/auth/oidc/callback";
const POST_LOGOUT = "http://localhost:3000/auth/oidc/logout";

const port = await freePort();
const issuer = `http://127.0.0.1:${port}`;
let provider: Server;

beforeAll(async () => {
  const oidc = new Provider(issuer, {
    clients: [
      { ...CLIENT, redirect_uris: [REDIRECT], post_logout_redirect_uris: [POST_LOGOUT], grant_types: ["authorization_code"], response_types: ["code"] },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, email: id, email_verified: true }),
    }),
    pkce: { required: () => true },
  });
  provider = oidc.listen(port);
});

afterAll(() => new Promise<void>((resolve) => provider.close(() => resolve())));

/** Goes through the issuer's pages as a browser would (cookies, forms), and answers where it sends the browser back. */
async function signInAtIssuer(start: string, account: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = start;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    const res = await fetch(url, {
      method: body ? "POST" : "GET",
      body,
      redirect: "manual",
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "), ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    });
    for (const cookie of res.headers.getSetCookie()) {
      const pair = cookie.split(";")[0]!;
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    const location = res.headers.get("location");
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(REDIRECT)) return next;
      url = next.href;
      body = undefined;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`the issuer answered ${res.status} without a form: ${html.slice(0, 300)}`);
    body = new URLSearchParams();
    for (const input of html.matchAll(/<input[^>]*>/g)) {
      const name = /name="([^"]+)"/.exec(input[0])?.[1];
      if (name) body.set(name, /value="([^"]*)"/.exec(input[0])?.[1] ?? "");
    }
    if (body.has("login")) body.set("login", account);
    if (body.has("password")) body.set("password", "anything");
    url = new URL(action, url).href;
  }
  throw new Error("the issuer never sent the browser back");
}

describe.each(backends)("OpenID Connect sign-on with oidc-provider as the issuer (%s)", (backend) => {
  const server = useApi({ backend, env: { ECFX_SSO_ALLOWED_ORIGINS: issuer } });

  beforeAll(async () => {
    const admin = api(server().url, (await login(server().url, DEMO.admin)).access_token);
    const saved = await admin.put("/api/v1/firm/sso", {
      oidc_issuer: issuer,
      ...{ oidc_client_id: CLIENT.client_id, oidc_client_secret: CLIENT.client_secret },
      break_glass_email: DEMO.admin,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.text).not.toContain(CLIENT.client_secret);
    const firm = (await admin.get("/api/v1/firm")).body;
    const switched = await admin.put(`/api/v1/firm/${firm.id}`, { ...firm, signon_type: "oidc" });
    expect(switched.status, switched.text).toBe(200);
  });

  const start = async () => {
    const res = await api(server().url).post("/auth/oidc/start", { host: "localhost", relay_state: "/inbox-items" });
    expect(res.status, res.text).toBe(200);
    return new URL(res.body.url);
  };
  const callback = (back: URL) => api(server().url).post("/auth/oidc/callback", { host: "localhost", query: back.search.slice(1) });

  it("asks for a code with PKCE (S256), state and nonce", async () => {
    const url = await start();
    expect(url.origin).toBe(issuer);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    for (const name of ["code_challenge", "state", "nonce"]) expect(url.searchParams.get(name)).toBeTruthy();
    expect(url.searchParams.get("redirect_uri")).toBe(REDIRECT);
  });

  it("signs a user of the firm in, and /auth/me tells the single sign-on session", async () => {
    const back = await signInAtIssuer((await start()).href, DEMO.manager);
    const res = await callback(back);
    expect(res.status, res.text).toBe(200);
    expect(res.body.user.email).toBe(DEMO.manager);
    expect(res.body.relay_state).toBe("/inbox-items");
    const me = await api(server().url, res.body.access_token).get("/auth/me");
    expect(me.body.sso).toMatchObject({ method: "oidc", issuer, subject: DEMO.manager });
  });

  it("signs out at the issuer too: its end-session endpoint with the ID token as hint and the post-logout address", async () => {
    const settings = await api(server().url, (await login(server().url, DEMO.admin)).access_token).get("/api/v1/firm/sso");
    expect(settings.body.oidc_logout_url).toBe(POST_LOGOUT);
    const signedIn = (await callback(await signInAtIssuer((await start()).href, DEMO.docketing))).body;
    const out = await api(server().url, signedIn.access_token).post("/auth/logout", { refresh_token: signedIn.refresh_token });
    expect(out.status, out.text).toBe(200);
    const logout = new URL(out.body.redirect);
    const discovered = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as { end_session_endpoint: string };
    expect(`${logout.origin}${logout.pathname}`).toBe(discovered.end_session_endpoint);
    expect(logout.searchParams.get("post_logout_redirect_uri")).toBe(POST_LOGOUT);
    const hint = logout.searchParams.get("id_token_hint")!.split(".")[1]!;
    expect(JSON.parse(Buffer.from(hint, "base64url").toString())).toMatchObject({ iss: issuer, aud: CLIENT.client_id, sub: DEMO.docketing });
    // The issuer takes it: its sign-out confirmation, not an error page.
    const page = await fetch(logout, { redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`action="${issuer}/session/end/confirm"`);
    expect((await api(server().url, signedIn.access_token).get("/auth/me")).status).toBe(401);
  });

  it("refuses a callback used twice, a state it never gave, and a user of another firm", async () => {
    const back = await signInAtIssuer((await start()).href, DEMO.viewOnly);
    expect((await callback(back)).status).toBe(200);
    expect((await callback(back)).status).toBe(401);
    const forged = new URL(back);
    forged.searchParams.set("state", "not-a-state-we-gave");
    expect((await callback(forged)).status).toBe(401);
    const other = await callback(await signInAtIssuer((await start()).href, DEMO.secondAdmin));
    expect(other.status).toBe(401);
    expect(other.body.message).toContain("no user of this firm");
  });

  it("refuses password sign-in but for the break-glass administrator", async () => {
    expect((await api(server().url).post("/auth/login", { username: DEMO.manager, password: DEMO_PASSWORD })).status).toBe(403);
    expect((await api(server().url).post("/auth/login", { username: DEMO.admin, password: DEMO_PASSWORD })).status).toBe(200);
  });
});
