import { randomUUID } from "node:crypto";
import * as samlify from "samlify";
import { beforeAll, describe, expect, it } from "vitest";
import { selfSignedCertificate } from "../../server/auth/self-signed-certificate";
import { DEMO, DEMO_PASSWORD, api, backends, login, useApi } from "./harness";

// SAML sign-on against samlify in identity provider mode: an implementation of the protocol we
// did not write. Each refusal the service provider owes is a response of its own.

samlify.setSchemaValidator({ validate: () => Promise.resolve("skipped") });

const IDP_ENTITY = "https://idp.example.test/metadata";
const DEMO_BASE = "http://localhost:3000";

function identityProvider(keys = selfSignedCertificate("idp", new Date()), encrypt = false) {
  return samlify.IdentityProvider({
    entityID: IDP_ENTITY,
    privateKey: keys.privateKeyPem,
    signingCert: keys.certificatePem,
    isAssertionEncrypted: encrypt,
    singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: "https://idp.example.test/sso" }],
    singleLogoutService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: "https://idp.example.test/slo" }],
    nameIDFormat: ["urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"],
    loginResponseTemplate: {
      context: samlify.SamlLib.defaultLoginResponseTemplate.context,
      attributes: [{ name: "groups", valueTag: "groups", nameFormat: "urn:oasis:names:tc:SAML:2.0:attrname-format:basic", valueXsiType: "xs:string" }],
    },
  });
}

interface Overrides {
  nameId?: string;
  audience?: string;
  destination?: string;
  recipient?: string;
  inResponseTo?: string;
  notOnOrAfter?: Date;
  issueInstant?: Date;
  groups?: string;
}

/** A response of `idp` for `sp`, each tag as given or as a correct response has it. */
async function respond(idp: ReturnType<typeof identityProvider>, sp: samlify.ServiceProviderInstance, base: string, o: Overrides = {}): Promise<string> {
  const now = o.issueInstant ?? new Date();
  const until = o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
  const result = await idp.createLoginResponse(
    sp,
    { extract: { request: { id: o.inResponseTo ?? "" } } },
    "post",
    { email: o.nameId ?? DEMO.manager },
    (template: string) => {
      const id = `_${randomUUID()}`;
      const tags: Record<string, string> = {
        ID: id,
        AssertionID: `_${randomUUID()}`,
        Destination: o.destination ?? `${base}/auth/saml/acs`,
        Audience: o.audience ?? `${base}/auth/saml/metadata`,
        SubjectRecipient: o.recipient ?? `${base}/auth/saml/acs`,
        NameIDFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
        NameID: o.nameId ?? DEMO.manager,
        Issuer: IDP_ENTITY,
        IssueInstant: now.toISOString(),
        StatusCode: "urn:oasis:names:tc:SAML:2.0:status:Success",
        ConditionsNotBefore: now.toISOString(),
        ConditionsNotOnOrAfter: until.toISOString(),
        SubjectConfirmationDataNotOnOrAfter: until.toISOString(),
        InResponseTo: o.inResponseTo ?? "",
        AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_s${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
        attrGroups: o.groups ?? "staff",
      };
      let context = template.replace(/\{([A-Za-z]+)\}/g, (whole, tag: string) => tags[tag] ?? whole);
      // An empty InResponseTo is no InResponseTo (IdP-initiated sign-on).
      if (!o.inResponseTo) context = context.replace(/ InResponseTo=""/g, "");
      // The NameID's text goes in as given: a comment in it stays a comment.
      return { id, context };
    },
  );
  return (result as { context: string }).context;
}

describe.each(backends)("SAML sign-on with samlify as the identity provider (%s)", (backend) => {
  const server = useApi({ backend });
  const idpKeys = selfSignedCertificate("idp", new Date());
  const idp = identityProvider(idpKeys);
  let sp: samlify.ServiceProviderInstance;
  let spSignedAssertions: samlify.ServiceProviderInstance;
  let secondSp: samlify.ServiceProviderInstance;

  const acs = (SAMLResponse: string, host = "localhost") => api(server().url).post("/auth/saml/acs", { host, SAMLResponse });

  async function configure(email: string, host: string) {
    const token = (await login(server().url, email)).access_token;
    const admin = api(server().url, token);
    const saved = await admin.put("/api/v1/firm/sso", {
      idp_metadata_xml: idp.getMetadata(),
      email_attribute: "",
      break_glass_email: email,
      group_attribute: "groups",
      group_roles: "docketers = Docketing",
    });
    expect(saved.status, saved.text).toBe(200);
    const firm = (await admin.get("/api/v1/firm")).body;
    const switched = await admin.put(`/api/v1/firm/${firm.id}`, { ...firm, signon_type: "saml" });
    expect(switched.status, switched.text).toBe(200);
    const metadata = await api(server().url).get(`/auth/saml/metadata?host=${host}`);
    expect(metadata.status).toBe(200);
    return { token, metadata: metadata.text };
  }

  beforeAll(async () => {
    const demo = await configure(DEMO.admin, "localhost");
    sp = samlify.ServiceProvider({ metadata: demo.metadata });
    // The same service provider as samlify reads it when told to sign and encrypt the assertion
    // and to sign logout requests (the published metadata asks for neither).
    const certificate = /<(?:ds:)?X509Certificate[^>]*>([^<]+)<\/(?:ds:)?X509Certificate>/.exec(demo.metadata)![1]!;
    spSignedAssertions = samlify.ServiceProvider({
      entityID: `${DEMO_BASE}/auth/saml/metadata`,
      assertionConsumerService: [{ Binding: samlify.Constants.namespace.binding.post, Location: `${DEMO_BASE}/auth/saml/acs` }],
      singleLogoutService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: `${DEMO_BASE}/auth/saml/slo` }],
      encryptCert: `-----BEGIN CERTIFICATE-----\n${certificate}\n-----END CERTIFICATE-----`,
      wantAssertionsSigned: true,
      wantMessageSigned: false,
      wantLogoutRequestSigned: true,
    });
    secondSp = samlify.ServiceProvider({ metadata: (await configure(DEMO.secondAdmin, "second.localhost")).metadata });
  });

  it("publishes the firm's service provider metadata: entity id, ACS, SLO, signing and encryption certificates", async () => {
    const res = await api(server().url).get("/auth/saml/metadata?host=localhost");
    expect(res.headers.get("content-type")).toContain("samlmetadata+xml");
    expect(res.text).toContain(`entityID="${DEMO_BASE}/auth/saml/metadata"`);
    expect(res.text).toContain(`Location="${DEMO_BASE}/auth/saml/acs"`);
    expect(res.text).toContain(`Location="${DEMO_BASE}/auth/saml/slo"`);
    expect(res.text).toContain('use="signing"');
    expect(res.text).toContain('use="encryption"');
  });

  it("signs in through an SP-initiated request, and /auth/me tells the single sign-on session", async () => {
    const start = await api(server().url).post("/auth/saml/start", { host: "localhost", relay_state: "/inbox-items" });
    expect(start.status).toBe(200);
    const url = new URL(start.body.url);
    expect(url.origin + url.pathname).toBe("https://idp.example.test/sso");
    const parsed = await idp.parseLoginRequest(sp, "redirect", { query: Object.fromEntries(url.searchParams) });
    const requestId = parsed.extract.request!.id as string;
    const res = await acs(await respond(idp, sp, DEMO_BASE, { inResponseTo: requestId }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.user.email).toBe(DEMO.manager);
    const me = await api(server().url, res.body.access_token).get("/auth/me");
    expect(me.status).toBe(200);
    expect(me.body.sso).toMatchObject({ method: "saml", issuer: IDP_ENTITY, subject: DEMO.manager });
    // The request is answered once.
    const again = await acs(await respond(idp, sp, DEMO_BASE, { inResponseTo: requestId }));
    expect(again.status).toBe(401);
  });

  it("signs in through an IdP-initiated response, with a signed assertion or an encrypted one", async () => {
    expect((await acs(await respond(idp, spSignedAssertions, DEMO_BASE))).status).toBe(200);
    const encrypting = identityProvider(idpKeys, true);
    const res = await acs(await respond(encrypting, spSignedAssertions, DEMO_BASE));
    expect(Buffer.from(await respond(encrypting, spSignedAssertions, DEMO_BASE), "base64").toString()).toContain("EncryptedAssertion");
    expect(res.status, res.text).toBe(200);
  });

  it("gives a role only through the firm's group mapping", async () => {
    const res = await acs(await respond(idp, sp, DEMO_BASE, { nameId: DEMO.viewOnly, groups: "docketers" }));
    expect(res.status).toBe(200);
    const docketing = await server()
      .ctx.database.db.selectFrom("security_role")
      .select("id")
      .where("firm_id", "=", res.body.user.firmId)
      .where("name", "=", "Docketing")
      .executeTakeFirstOrThrow();
    expect(res.body.user.securityRoleId).toBe(docketing.id);
    const me = await api(server().url, res.body.access_token).get("/auth/me");
    expect(me.body.roleName).toBe("Docketing");
  });

  it("keeps the firm's last administrator when the group mapping would give them another role", async () => {
    const res = await acs(await respond(idp, sp, DEMO_BASE, { nameId: DEMO.admin, groups: "docketers" }));
    expect(res.status, res.text).toBe(200);
    const me = await api(server().url, res.body.access_token).get("/auth/me");
    expect(me.body.roleName).toBe("Administrator");
  });

  it("refuses a user the identity provider deactivated by provisioning", async () => {
    const db = server().ctx.database.db;
    const user = await db.selectFrom("app_user").select(["id", "firm_id"]).where("email", "=", DEMO.docketing).executeTakeFirstOrThrow();
    await db
      .insertInto("scim_user")
      .values({ user_id: user.id, firm_id: user.firm_id, external_id: null, given_name: "", family_name: "", active: 0 })
      .execute();
    try {
      const res = await acs(await respond(idp, sp, DEMO_BASE, { nameId: DEMO.docketing }));
      expect(res.status).toBe(401);
      expect(res.body.access_token).toBeUndefined();
    } finally {
      await db.deleteFrom("scim_user").where("user_id", "=", user.id).execute();
    }
  });

  it("refuses password sign-in but for the break-glass administrator", async () => {
    const refused = await api(server().url).post("/auth/login", { username: DEMO.manager, password: DEMO_PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("single sign-on");
    expect((await api(server().url).post("/auth/login", { username: DEMO.admin, password: DEMO_PASSWORD })).status).toBe(200);
  });

  const refusals: [string, () => Promise<string>, string][] = [
    [
      "an unsigned assertion",
      async () => {
        const signed = Buffer.from(await respond(idp, sp, DEMO_BASE), "base64").toString("utf8");
        return Buffer.from(signed.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, "")).toString("base64");
      },
      "signature",
    ],
    [
      "a signature over another element (XML signature wrapping)",
      async () => {
        const signed = Buffer.from(await respond(idp, spSignedAssertions, DEMO_BASE, { nameId: DEMO.viewOnly }), "base64").toString("utf8");
        const original = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signed)![0];
        const forged = original
          .replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, "")
          .replace(/ID="[^"]+"/, `ID="_forged"`)
          .replace(DEMO.viewOnly, DEMO.admin)
          .replace("</saml:Subject>", `</saml:Subject><saml:Advice>${original}</saml:Advice>`);
        return Buffer.from(signed.replace(original, forged)).toString("base64");
      },
      "signature",
    ],
    ["a wrong audience", () => respond(idp, sp, DEMO_BASE, { audience: "https://other.example/sp" }), "meant for another service"],
    ["a wrong destination", () => respond(idp, sp, DEMO_BASE, { destination: "https://other.example/acs" }), "sent to another address"],
    ["a wrong recipient", () => respond(idp, sp, DEMO_BASE, { recipient: "https://other.example/acs" }), "meant for another address"],
    [
      "an expired assertion",
      () => respond(idp, sp, DEMO_BASE, { issueInstant: new Date(Date.now() - 3_600_000), notOnOrAfter: new Date(Date.now() - 600_000) }),
      "expired",
    ],
    ["an InResponseTo of no request of this firm", () => respond(idp, sp, DEMO_BASE, { inResponseTo: "_never-asked" }), "did not send"],
    ["an assertion for a user of another firm", () => respond(idp, sp, DEMO_BASE, { nameId: DEMO.secondAdmin }), "no user of this firm"],
    // The signature covers the NameID without its comment: the identity provider vouched for
    // manager@demo.ecfx.test.evil.com, which is nobody here, never for manager@demo.ecfx.test.
    ["a comment-injected NameID", () => respond(idp, sp, DEMO_BASE, { nameId: `${DEMO.manager}<!---->.evil.com` }), "no user of this firm"],
    ["an identity provider certificate that is not the configured one", () => respond(identityProvider(), sp, DEMO_BASE), "signature"],
  ];

  it.each(refusals)("refuses %s", async (_name, make, words) => {
    const res = await acs(await make());
    expect(res.status, res.text).toBe(401);
    expect(res.body.message).toContain(words);
    expect(res.body).not.toHaveProperty("access_token");
  });

  it("refuses an InResponseTo of a request sent for another firm", async () => {
    const start = await api(server().url).post("/auth/saml/start", { host: "second.localhost", relay_state: "" });
    const url = new URL(start.body.url);
    const parsed = await idp.parseLoginRequest(secondSp, "redirect", { query: Object.fromEntries(url.searchParams) });
    const res = await acs(await respond(idp, sp, DEMO_BASE, { inResponseTo: parsed.extract.request!.id as string }));
    expect(res.status).toBe(401);
    expect(res.body.message).toContain("did not send");
  });

  it("refuses a replayed response", async () => {
    const response = await respond(idp, sp, DEMO_BASE);
    expect((await acs(response)).status).toBe(200);
    const replayed = await acs(response);
    expect(replayed.status).toBe(401);
    expect(replayed.body.message).toContain("already used");
  });

  it("ends the sessions of a subject on the identity provider's signed logout request, and refuses an unsigned one", async () => {
    const signedIn = (await acs(await respond(idp, sp, DEMO_BASE, { nameId: DEMO.docketing }))).body;
    const logout = idp.createLogoutRequest(spSignedAssertions, "redirect", { email: DEMO.docketing, logoutNameID: DEMO.docketing }) as { context: string };
    const query = new URL(logout.context).search.slice(1);
    const unsigned = query.replace(/&SigAlg=[^&]*/, "").replace(/&Signature=[^&]*/, "");
    expect((await api(server().url).post("/auth/saml/slo", { host: "localhost", query: unsigned })).status).toBe(401);
    expect((await api(server().url, signedIn.access_token).get("/auth/me")).status).toBe(200);
    const res = await api(server().url).post("/auth/saml/slo", { host: "localhost", query });
    expect(res.status, res.text).toBe(200);
    expect(res.body.ended).toBe(1);
    expect(new URL(res.body.redirect).searchParams.has("SAMLResponse")).toBe(true);
    expect((await api(server().url, signedIn.access_token).get("/auth/me")).status).toBe(401);
    const refresh = await api(server().url).post("/oauth/access_token", { grant_type: "refresh_token", refresh_token: signedIn.refresh_token });
    expect(refresh.status).toBe(400);
  });

  it("sends the browser on to the identity provider's logout when a single sign-on session signs out", async () => {
    const signedIn = (await acs(await respond(idp, sp, DEMO_BASE))).body;
    const res = await api(server().url, signedIn.access_token).post("/auth/logout", { refresh_token: signedIn.refresh_token });
    expect(res.status).toBe(200);
    const url = new URL(res.body.redirect);
    expect(url.origin + url.pathname).toBe("https://idp.example.test/slo");
    expect(url.searchParams.has("SAMLRequest")).toBe(true);
    expect((await api(server().url, signedIn.access_token).get("/auth/me")).status).toBe(401);
  });

  it("refuses to switch a firm to SAML before its identity provider is set up", async () => {
    const token = (await login(server().url, DEMO.admin)).access_token;
    const admin = api(server().url, token);
    const firm = (await admin.get("/api/v1/firm")).body;
    expect((await admin.put(`/api/v1/firm/${firm.id}`, { ...firm, signon_type: "local" })).status).toBe(200);
    await admin.put("/api/v1/firm/sso", { idp_entity_id: "", idp_sso_url: "", idp_certificates: "", break_glass_email: DEMO.admin });
    const refused = await admin.put(`/api/v1/firm/${firm.id}`, { ...firm, signon_type: "saml" });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("Single sign-on is not set up for this firm.");
  });
});
