import { X509Certificate } from "node:crypto";
import { z } from "zod";
import type { Caller } from "../auth/caller";
import type { ServerContext } from "../context";
import { HttpError, invalid } from "../lib/errors";
import { message } from "../lib/messages";
import { identityProviderPurpose, ssoGuard } from "./sso-guard";
import { OutboundRefusedError } from "../outbound/guard";
import { auditFirmChange } from "../resources/audit";
import { type FirmSsoUpdate, saveFirmSso } from "./firm-sso";
import { IdpMetadataError, certificatePem, parseIdpMetadata } from "./idp-metadata";
import { postLogoutUri } from "./oidc";
import { firmSaml } from "./saml";

// The firm's single sign-on settings as the control room edits them: the identity provider by
// its metadata address (fetched through the outbound guard), by uploaded metadata, or by hand.

const MAX_METADATA_BYTES = 512 * 1024;
const text = (max: number) => z.string().trim().max(max).default("");

export const ssoSettingsBody = z.object({
  idp_metadata_url: text(2000),
  idp_metadata_xml: z.string().max(MAX_METADATA_BYTES).default(""),
  idp_entity_id: text(1000),
  idp_sso_url: text(2000),
  idp_slo_url: text(2000),
  /** One or more PEM certificates, one after the other. */
  idp_certificates: z.string().max(100_000).default(""),
  email_attribute: text(500),
  break_glass_email: text(320),
  group_attribute: text(500),
  /** One mapping a line: `IdP group = security role name`. */
  group_roles: z.string().max(20_000).default(""),
  oidc_issuer: text(2000),
  oidc_client_id: text(500),
  /** Empty keeps the secret already kept; never answered back. */
  oidc_client_secret: z.string().max(2000).default(""),
});

export type SsoSettingsBody = z.infer<typeof ssoSettingsBody>;

const isHttpUrl = (value: string) => {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

async function fetchMetadata(ctx: ServerContext, address: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw invalid({ idp_metadata_url: ["errors:sso.metadataUrl"] }, message("errors:sso.metadataUrl"));
  }
  try {
    const response = await ssoGuard(ctx.config).fetch(url, identityProviderPurpose(url), { signal: AbortSignal.timeout(15_000) });
    if (!response.ok) throw new HttpError(400, message("errors:sso.metadataFetch", { status: response.status }));
    const body = await response.text();
    if (body.length > MAX_METADATA_BYTES) throw invalid({ idp_metadata_url: ["errors:sso.metadata"] }, message("errors:sso.metadata"));
    return body;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (error instanceof OutboundRefusedError) throw invalid({ idp_metadata_url: [error.message] }, error.message);
    throw new HttpError(400, message("errors:sso.metadataFetch", { status: error instanceof Error ? error.message : "" }));
  }
}

function splitCertificates(textValue: string): string[] {
  const blocks = textValue.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? (textValue.trim() ? [textValue] : []);
  return blocks.map((b) => {
    const pem = certificatePem(b);
    // Base64 text alone is not a certificate: one that does not parse would refuse every sign-in.
    new X509Certificate(pem);
    return pem;
  });
}

export async function readSsoSettings(ctx: ServerContext, firmId: number) {
  const { sso, urls } = await firmSaml(ctx, firmId);
  const db = ctx.database.db;
  const firm = await db.selectFrom("firm").select("signon_type").where("id", "=", firmId).executeTakeFirstOrThrow();
  const breakGlass = sso.breakGlassUserId
    ? await db.selectFrom("app_user").select("email").where("id", "=", sso.breakGlassUserId).where("firm_id", "=", firmId).executeTakeFirst()
    : undefined;
  const roles = await db.selectFrom("security_role").select(["id", "name"]).where("firm_id", "=", firmId).execute();
  const roleName = new Map(roles.map((r) => [r.id, r.name]));
  const spBase = urls.entityId.replace(/\/auth\/saml\/metadata$/, "");
  return {
    signon_type: firm.signon_type,
    sp_entity_id: urls.entityId,
    sp_acs_url: urls.acs,
    sp_slo_url: urls.slo,
    sp_certificate: sso.spCertificate,
    idp_metadata_url: sso.idpMetadataUrl,
    idp_entity_id: sso.idpEntityId,
    idp_sso_url: sso.idpSsoUrl,
    idp_slo_url: sso.idpSloUrl,
    idp_certificates: sso.idpCertificates.join(""),
    email_attribute: sso.emailAttribute,
    break_glass_email: breakGlass?.email ?? "",
    group_attribute: sso.groupAttribute,
    group_roles: Object.entries(sso.groupRoles)
      .filter(([, id]) => roleName.has(id))
      .map(([group, id]) => `${group} = ${roleName.get(id)}`)
      .join("\n"),
    oidc_issuer: sso.oidcIssuer,
    oidc_client_id: sso.oidcClientId,
    oidc_redirect_url: `${spBase}/auth/oidc/callback`,
    oidc_logout_url: postLogoutUri(spBase),
    oidc_client_secret_kept: Boolean(sso.oidcClientSecret),
  };
}

export async function writeSsoSettings(ctx: ServerContext, caller: Caller, body: SsoSettingsBody): Promise<void> {
  const db = ctx.database.db;
  const before = await readSsoSettings(ctx, caller.firmId);
  let idp = { entityId: body.idp_entity_id, ssoUrl: body.idp_sso_url, sloUrl: body.idp_slo_url, certificates: [] as string[] };
  try {
    idp.certificates = splitCertificates(body.idp_certificates);
  } catch {
    throw invalid({ idp_certificates: ["errors:sso.certificate"] }, message("errors:sso.certificate"));
  }
  const metadataXml = body.idp_metadata_xml.trim() || (body.idp_metadata_url ? await fetchMetadata(ctx, body.idp_metadata_url) : "");
  if (metadataXml) {
    try {
      idp = parseIdpMetadata(metadataXml);
    } catch (error) {
      if (!(error instanceof IdpMetadataError)) throw error;
      const field = body.idp_metadata_xml.trim() ? "idp_metadata_xml" : "idp_metadata_url";
      throw invalid({ [field]: ["errors:sso.metadata"] }, message("errors:sso.metadata"));
    }
  }
  const fieldErrors: Record<string, string[]> = {};
  if (idp.ssoUrl && !isHttpUrl(idp.ssoUrl)) fieldErrors.idp_sso_url = ["errors:sso.url"];
  if (idp.sloUrl && !isHttpUrl(idp.sloUrl)) fieldErrors.idp_slo_url = ["errors:sso.url"];
  if (body.oidc_issuer && !isHttpUrl(body.oidc_issuer)) fieldErrors.oidc_issuer = ["errors:sso.url"];

  let breakGlassUserId: string | null = null;
  if (body.break_glass_email) {
    const user = await db
      .selectFrom("app_user")
      .select("id")
      .where("firm_id", "=", caller.firmId)
      .where("email", "=", body.break_glass_email.toLowerCase())
      .executeTakeFirst();
    if (user) breakGlassUserId = user.id;
    else fieldErrors.break_glass_email = ["errors:sso.unknownUser"];
  }
  const roles = await db.selectFrom("security_role").select(["id", "name"]).where("firm_id", "=", caller.firmId).execute();
  const groupRoles: Record<string, string> = {};
  for (const line of body.group_roles
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)) {
    const at = line.lastIndexOf("=");
    const group = line.slice(0, Math.max(at, 0)).trim();
    const role = roles.find(
      (r) =>
        r.name.toLowerCase() ===
        line
          .slice(at + 1)
          .trim()
          .toLowerCase(),
    );
    if (at <= 0 || !group || !role) fieldErrors.group_roles = ["errors:sso.groupRole"];
    else groupRoles[group] = role.id;
  }
  if (Object.keys(fieldErrors).length > 0) throw invalid(fieldErrors, message(Object.values(fieldErrors)[0]![0]!));

  const update: FirmSsoUpdate = {
    idpEntityId: idp.entityId,
    idpSsoUrl: idp.ssoUrl,
    idpSloUrl: idp.sloUrl,
    idpCertificates: idp.certificates,
    idpMetadataUrl: body.idp_metadata_url,
    emailAttribute: body.email_attribute,
    breakGlassUserId,
    groupAttribute: body.group_attribute,
    groupRoles,
    oidcIssuer: body.oidc_issuer,
    oidcClientId: body.oidc_client_id,
    oidcClientSecret: body.oidc_client_secret || (await firmSaml(ctx, caller.firmId)).sso.oidcClientSecret,
  };
  await firmSaml(ctx, caller.firmId);
  await saveFirmSso(ctx, caller.firmId, update);
  const after = await readSsoSettings(ctx, caller.firmId);
  const { sp_certificate: _b, ...shownBefore } = before;
  const { sp_certificate: _a, ...shownAfter } = after;
  await auditFirmChange(db, caller, { name: "", ...shownBefore }, shownAfter, ctx.clock.now());
}
