import { type CacheProvider, type Profile, SAML, ValidateInResponseTo } from "@node-saml/node-saml";
import { DOMParser } from "@xmldom/xmldom";
import type { ServerContext } from "../context";
import { HttpError } from "../lib/errors";
import { newId } from "../lib/ids";
import { message } from "../lib/messages";
import { type FirmSso, type SpUrls, firmSsoWithKeys, samlReady, spBaseUrl, spUrls } from "./firm-sso";

// The firm's SAML 2.0 service provider (decision 099). Signatures, decryption, audience, time
// window and InResponseTo are node-saml's; what it leaves to its caller is checked here:
// the response's Destination and the assertion's Recipient, the issuer, a replay of an assertion
// already used (recorded in the database, so every process refuses it), and a NameID or e-mail
// attribute that is not one plain text node (a comment inside it would make a parser read it as
// another address).

const REQUEST_TTL_MS = 10 * 60 * 1000;
const CLOCK_SKEW_MS = 2 * 60 * 1000;
const SAML_ASSERTION = "urn:oasis:names:tc:SAML:2.0:assertion";
const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

export const refusedSignIn = (reason: string) => new HttpError(401, message("errors:sso.refused", { reason: message(`errors:sso.reason.${reason}`) }));

/** The requests this firm sent and still waits an answer to, shared by every process. */
function requestStore(ctx: ServerContext, firmId: number): CacheProvider {
  const db = ctx.database.db;
  return {
    async saveAsync(key, value) {
      const now = ctx.clock.now();
      await db.deleteFrom("sso_request").where("expires_at", "<", now).execute();
      await db
        .insertInto("sso_request")
        .values({ id: key, firm_id: firmId, data: value, expires_at: now + REQUEST_TTL_MS })
        .execute();
      return { value, createdAt: now };
    },
    async getAsync(key) {
      const row = await db
        .selectFrom("sso_request")
        .select("data")
        .where("id", "=", key)
        .where("firm_id", "=", firmId)
        .where("expires_at", ">", ctx.clock.now())
        .executeTakeFirst();
      return row?.data ?? null;
    },
    async removeAsync(key) {
      if (key === null) return null;
      await db.deleteFrom("sso_request").where("id", "=", key).where("firm_id", "=", firmId).execute();
      return key;
    },
  };
}

function samlOf(ctx: ServerContext, sso: FirmSso, urls: SpUrls): SAML {
  return new SAML({
    issuer: urls.entityId,
    audience: urls.entityId,
    callbackUrl: urls.acs,
    logoutCallbackUrl: urls.slo,
    entryPoint: sso.idpSsoUrl || undefined,
    logoutUrl: sso.idpSloUrl || sso.idpSsoUrl,
    idpCert: sso.idpCertificates.length > 0 ? sso.idpCertificates : "-",
    idpIssuer: sso.idpEntityId || undefined,
    privateKey: sso.spPrivateKey,
    publicCert: sso.spCertificate,
    decryptionPvk: sso.spPrivateKey,
    signatureAlgorithm: "sha256",
    digestAlgorithm: "sha256",
    // Either the response or the assertion must carry a valid signature: node-saml refuses a
    // response where neither does.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    // IdP-initiated sign-on has no InResponseTo; one that is present must be a request of this firm.
    validateInResponseTo: ValidateInResponseTo.ifPresent,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: requestStore(ctx, sso.firmId),
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    generateUniqueId: () => `_${newId().replace(/-/g, "")}`,
  });
}

export interface FirmSaml {
  sso: FirmSso;
  urls: SpUrls;
  saml: SAML;
}

export async function firmSaml(ctx: ServerContext, firmId: number): Promise<FirmSaml> {
  const urls = spUrls(await spBaseUrl(ctx, firmId));
  const sso = await firmSsoWithKeys(ctx, firmId, urls.entityId);
  return { sso, urls, saml: samlOf(ctx, sso, urls) };
}

/** The service provider's metadata: entity id, ACS and SLO addresses, signing and encryption certificates. */
export function spMetadata({ saml, sso, urls }: FirmSaml): string {
  const xml = saml.generateServiceProviderMetadata(sso.spCertificate, sso.spCertificate);
  // node-saml names the POST binding for logout; most identity providers send logout by redirect.
  return xml.replace(
    /(<SingleLogoutService [^>]*\/>)/,
    `$1<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${urls.slo}"/>`,
  );
}

/** Where the browser goes to sign in: the identity provider, with a request this firm then waits an answer to. */
export async function signInUrl(firm: FirmSaml, relayState: string): Promise<string> {
  if (!samlReady(firm.sso)) throw new HttpError(404, message("errors:sso.notConfigured"));
  return firm.saml.getAuthorizeUrlAsync(relayState, undefined, {});
}

/** Where the browser goes to end a session at the identity provider, or null when it takes no logout (node-saml records the request). */
export async function logoutRequestUrl(ctx: ServerContext, firmId: number, subject: Profile): Promise<string | null> {
  const { sso, saml } = await firmSaml(ctx, firmId);
  return sso.idpSloUrl ? saml.getLogoutUrlAsync(subject, "", {}) : null;
}

/** The one text node of an element, or null when it holds anything else (a comment, an element). */
function plainText(element: Element): string | null {
  const nodes = Array.from(element.childNodes);
  if (nodes.length !== 1 || nodes[0]!.nodeType !== 3) return null;
  return nodes[0]!.nodeValue;
}

export interface AcceptedAssertion {
  issuer: string;
  email: string;
  nameId: string;
  nameIdFormat: string;
  sessionIndex: string;
  groups: string[];
}

/** Checks a response posted to the ACS and answers who it signs in; anything else is a 401 naming why. */
export async function acceptResponse(ctx: ServerContext, firm: FirmSaml, samlResponse: string): Promise<AcceptedAssertion> {
  if (!samlReady(firm.sso)) throw new HttpError(404, message("errors:sso.notConfigured"));
  let profile: Profile | null;
  try {
    ({ profile } = await firm.saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw refusedSignIn(reasonOf(error));
  }
  if (!profile) throw refusedSignIn("noAssertion");
  const responseXml = profile.getSamlResponseXml?.() ?? "";
  const assertionXml = profile.getAssertionXml?.() ?? "";
  const response = new DOMParser().parseFromString(responseXml, "text/xml").documentElement;
  const assertion = new DOMParser().parseFromString(assertionXml, "text/xml").documentElement;
  if (!response || !assertion) throw refusedSignIn("noAssertion");

  const destination = response.localName === "Response" ? response.getAttribute("Destination") : null;
  if (destination && destination !== firm.urls.acs) throw refusedSignIn("destination");
  const confirmations = Array.from(assertion.getElementsByTagNameNS(SAML_ASSERTION, "SubjectConfirmationData"));
  if (confirmations.length === 0 || confirmations.some((c) => c.getAttribute("Recipient") !== firm.urls.acs)) throw refusedSignIn("recipient");
  if (profile.issuer !== firm.sso.idpEntityId) throw refusedSignIn("issuer");

  const nameIdElement = assertion.getElementsByTagNameNS(SAML_ASSERTION, "NameID")[0];
  const nameId = nameIdElement ? plainText(nameIdElement) : null;
  if (nameId === null || nameId !== profile.nameID) throw refusedSignIn("subject");
  const attributeValues = (name: string): (string | null)[] =>
    Array.from(assertion.getElementsByTagNameNS(SAML_ASSERTION, "Attribute"))
      .filter((a) => a.getAttribute("Name") === name || a.getAttribute("FriendlyName") === name)
      .flatMap((a) => Array.from(a.getElementsByTagNameNS(SAML_ASSERTION, "AttributeValue")).map(plainText));
  let email: string | null = nameId;
  if (firm.sso.emailAttribute) {
    const values = attributeValues(firm.sso.emailAttribute);
    email = values.length === 1 ? values[0]! : null;
  } else if (profile.nameIDFormat && profile.nameIDFormat !== EMAIL_FORMAT && !nameId.includes("@")) email = null;
  if (!email) throw refusedSignIn("subject");

  // Each assertion signs in once, in whichever process it arrives; kept until it expires anyway.
  const assertionId = assertion.getAttribute("ID") ?? "";
  const notOnOrAfter = Math.max(0, ...confirmations.map((c) => Date.parse(c.getAttribute("NotOnOrAfter") ?? "") || 0));
  const now = ctx.clock.now();
  if (!assertionId) throw refusedSignIn("noAssertion");
  await ctx.database.db.deleteFrom("sso_replay").where("expires_at", "<", now).execute();
  const recorded = await ctx.database.db
    .insertInto("sso_replay")
    .values({ firm_id: firm.sso.firmId, assertion_id: assertionId, expires_at: Math.max(notOnOrAfter + CLOCK_SKEW_MS, now + 24 * 3600 * 1000) })
    .onConflict((oc) => oc.columns(["firm_id", "assertion_id"]).doNothing())
    .executeTakeFirst();
  if (Number(recorded.numInsertedOrUpdatedRows ?? 0) !== 1) throw refusedSignIn("replayed");

  const groups = firm.sso.groupAttribute ? attributeValues(firm.sso.groupAttribute).filter((g): g is string => g !== null) : [];
  return {
    issuer: profile.issuer,
    email: email.trim().toLowerCase(),
    nameId,
    nameIdFormat: profile.nameIDFormat ?? "",
    sessionIndex: profile.sessionIndex ?? "",
    groups,
  };
}

/** node-saml's refusals as the reason shown to the person (its words are for the log). */
function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : "";
  if (/InResponseTo/i.test(text)) return "inResponseTo";
  if (/audience/i.test(text)) return "audience";
  if (/expired|NotBefore|NotOnOrAfter|too old/i.test(text)) return "expired";
  if (/signature|cert/i.test(text)) return "signature";
  if (/SAML provider returned/i.test(text)) return "idpError";
  return "invalid";
}
