import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { authenticate, requireAccess } from "../../auth/caller";
import { HttpError, invalid, notFound } from "../../lib/errors";
import { message } from "../../lib/messages";
import { findFirmForHost, implicitHostNames } from "../../firm/firm-repository";
import { acceptResponse, firmSaml, refusedSignIn, signInUrl, spMetadata } from "../../sso/saml";
import { endSsoSessions, signInVouched } from "../../sso/sso-sign-in";
import { acceptOidcCallback, oidcSignInUrl } from "../../sso/oidc";
import { readSsoSettings, ssoSettingsBody, writeSsoSettings } from "../../sso/sso-settings";

// Single sign-on (decision 099). The console forwards what the browser and the identity provider
// send on the firm's host (`host`); the firm is the one that host leads to, as for the sign-in
// page's branding.

const hostQuery = z.object({ host: z.string().max(255).default("") });
const startBody = z.object({ host: z.string().max(255).default(""), relay_state: z.string().max(1000).default("") });
const acsBody = z.object({ host: z.string().max(255).default(""), SAMLResponse: z.string().min(1).max(1_000_000) });
const callbackBody = z.object({ host: z.string().max(255).default(""), query: z.string().max(20_000) });
const sloBody = z.object({
  host: z.string().max(255).default(""),
  /** The query string exactly as the browser sent it (HTTP-Redirect binding: its signature covers the raw text). */
  query: z.string().max(100_000).default(""),
  SAMLRequest: z.string().max(1_000_000).optional(),
  SAMLResponse: z.string().max(1_000_000).optional(),
  RelayState: z.string().max(1000).optional(),
});

export function ssoRoutes(app: FastifyInstance, ctx: ServerContext) {
  const firmOfHost = async (host: string) => {
    const firm = await findFirmForHost(ctx.database, host || undefined, implicitHostNames(ctx.config.publicUrl));
    if (!firm) throw notFound();
    return firm;
  };

  app.get("/auth/saml/metadata", async (request, reply) => {
    const { host } = hostQuery.parse(request.query ?? {});
    const firm = await firmOfHost(host);
    return reply.type("application/samlmetadata+xml").send(spMetadata(await firmSaml(ctx, firm.id)));
  });

  app.post("/auth/saml/start", async (request) => {
    const body = startBody.parse(request.body ?? {});
    const firm = await firmOfHost(body.host);
    if (firm.signon_type !== "saml") throw new HttpError(404, message("errors:sso.notConfigured"));
    return { url: await signInUrl(await firmSaml(ctx, firm.id), body.relay_state) };
  });

  app.post("/auth/saml/acs", async (request) => {
    const body = acsBody.parse(request.body ?? {});
    const firm = await firmOfHost(body.host);
    if (firm.signon_type !== "saml") throw new HttpError(404, message("errors:sso.notConfigured"));
    const saml = await firmSaml(ctx, firm.id);
    const accepted = await acceptResponse(ctx, saml, body.SAMLResponse);
    const signedIn = await signInVouched(ctx, saml.sso, {
      method: "saml",
      issuer: accepted.issuer,
      email: accepted.email,
      subject: accepted.nameId,
      subjectFormat: accepted.nameIdFormat,
      sessionIndex: accepted.sessionIndex,
      groups: accepted.groups,
    });
    return { user: signedIn.user, ...signedIn.tokens };
  });

  // The identity provider's single logout: its LogoutRequest ends the subject's sessions here and
  // is answered; its LogoutResponse ends a logout this side started.
  app.post("/auth/saml/slo", async (request) => {
    const body = sloBody.parse(request.body ?? {});
    const firm = await firmOfHost(body.host);
    const saml = await firmSaml(ctx, firm.id);
    const params = Object.fromEntries(new URLSearchParams(body.query));
    const redirectBinding = Boolean(params.SAMLRequest || params.SAMLResponse);
    if (redirectBinding ? !params.SAMLRequest && !params.SAMLResponse : !body.SAMLRequest && !body.SAMLResponse)
      throw invalid({}, message("errors:invalidRequest"));
    // node-saml takes an unsigned redirect as valid; a logout request must prove where it came from.
    if (redirectBinding && params.SAMLRequest && !params.Signature) throw refusedSignIn("signature");
    let outcome: Awaited<ReturnType<typeof saml.saml.validateRedirectAsync>>;
    try {
      outcome = redirectBinding
        ? await saml.saml.validateRedirectAsync(params, body.query)
        : body.SAMLRequest
          ? await saml.saml.validatePostRequestAsync({ SAMLRequest: body.SAMLRequest })
          : await saml.saml.validatePostResponseAsync({ SAMLResponse: body.SAMLResponse! });
    } catch {
      throw refusedSignIn("signature");
    }
    const relayState = (redirectBinding ? params.RelayState : body.RelayState) ?? "";
    // A logout request comes with the subject it ends; a logout response with none.
    if (outcome.profile) {
      const ended = await endSsoSessions(ctx, firm.id, outcome.profile.nameID, outcome.profile.sessionIndex || undefined);
      const url = await saml.saml.getLogoutResponseUrlAsync(outcome.profile, relayState, {}, true);
      return { ended, redirect: url };
    }
    return { ended: 0, redirect: null };
  });

  app.post("/auth/oidc/start", async (request) => {
    const body = startBody.parse(request.body ?? {});
    const firm = await firmOfHost(body.host);
    if (firm.signon_type !== "oidc") throw new HttpError(404, message("errors:sso.notConfigured"));
    return { url: await oidcSignInUrl(ctx, firm.id, body.relay_state) };
  });

  app.post("/auth/oidc/callback", async (request) => {
    const body = callbackBody.parse(request.body ?? {});
    const firm = await firmOfHost(body.host);
    if (firm.signon_type !== "oidc") throw new HttpError(404, message("errors:sso.notConfigured"));
    const accepted = await acceptOidcCallback(ctx, firm.id, body.query);
    const signedIn = await signInVouched(ctx, accepted.sso, accepted.who);
    return { user: signedIn.user, ...signedIn.tokens, relay_state: accepted.relayState };
  });

  app.get("/api/v1/firm/sso", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "read");
    return readSsoSettings(ctx, caller.firmId);
  });

  app.put("/api/v1/firm/sso", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "write");
    const body = ssoSettingsBody.parse(request.body ?? {});
    await writeSsoSettings(ctx, caller, body);
    return readSsoSettings(ctx, caller.firmId);
  });
}
