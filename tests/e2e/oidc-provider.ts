import type { Server } from "node:http";
import Provider from "oidc-provider";

// oidc-provider (a certified OpenID Provider implementation we did not write) as a firm's OpenID
// Connect issuer: its own sign-in and consent pages (plain forms, any password), its own
// RP-initiated logout, and one client, ECFX, with its redirect and post-logout addresses.

export interface RunningIssuer {
  issuer: string;
  client: { id: string; secret: string };
  stop(): Promise<void>;
}

export async function startOidcProvider(port: number, ecfx: { redirectUri: string; postLogoutUri: string }): Promise<RunningIssuer> {
  const issuer = `http://127.0.0.1:${port}`;
  const client = { id: "ecfx-console", secret: "a-client-secret-of-the-browser-tests" };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: [ecfx.redirectUri],
        post_logout_redirect_uris: [ecfx.postLogoutUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    // The login typed on its sign-in page is the account, and its e-mail address.
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, email: id, email_verified: true }) }),
    pkce: { required: () => true },
  });
  const server: Server = provider.listen(port);
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  return {
    issuer,
    client,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
