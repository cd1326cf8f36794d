import type { ServerContext } from "../context";
import type { Selectable } from "kysely";
import type { FirmSsoTable } from "../db/schema";
import { selfSignedCertificate } from "../auth/self-signed-certificate";

// A firm's single sign-on settings (decision 099): its identity provider, and the key pair its
// service provider signs and decrypts with, made the first time the firm's settings are read.

export interface FirmSso {
  firmId: number;
  idpEntityId: string;
  idpSsoUrl: string;
  idpSloUrl: string;
  idpCertificates: string[];
  idpMetadataUrl: string;
  spPrivateKey: string;
  spCertificate: string;
  /** Empty: the NameID is the e-mail address. */
  emailAttribute: string;
  breakGlassUserId: string | null;
  groupAttribute: string;
  /** Identity provider group → security role id. */
  groupRoles: Record<string, string>;
  oidcIssuer: string;
  oidcClientId: string;
  /** Opened; empty when none is kept. */
  oidcClientSecret: string;
}

const parseJson = <T>(text: string, fallback: T): T => {
  try {
    return (JSON.parse(text) as T) ?? fallback;
  } catch {
    return fallback;
  }
};

function fromRow(ctx: ServerContext, row: Selectable<FirmSsoTable>): FirmSso {
  return {
    firmId: row.firm_id,
    idpEntityId: row.idp_entity_id,
    idpSsoUrl: row.idp_sso_url,
    idpSloUrl: row.idp_slo_url,
    idpCertificates: parseJson<string[]>(row.idp_certificates, []),
    idpMetadataUrl: row.idp_metadata_url,
    spPrivateKey: ctx.secretBox.open(row.sp_private_key),
    spCertificate: row.sp_certificate,
    emailAttribute: row.email_attribute,
    breakGlassUserId: row.break_glass_user_id,
    groupAttribute: row.group_attribute,
    groupRoles: parseJson<Record<string, string>>(row.group_roles, {}),
    oidcIssuer: row.oidc_issuer,
    oidcClientId: row.oidc_client_id,
    oidcClientSecret: row.oidc_client_secret ? ctx.secretBox.open(row.oidc_client_secret) : "",
  };
}

/** The firm's settings, or undefined when it never had any. */
export async function findFirmSso(ctx: ServerContext, firmId: number): Promise<FirmSso | undefined> {
  const row = await ctx.database.db.selectFrom("firm_sso").selectAll().where("firm_id", "=", firmId).executeTakeFirst();
  return row ? fromRow(ctx, row) : undefined;
}

/** The firm's settings, its service provider's key pair made now when it has none yet. */
export async function firmSsoWithKeys(ctx: ServerContext, firmId: number, spEntityId: string): Promise<FirmSso> {
  const found = await findFirmSso(ctx, firmId);
  if (found) return found;
  const pair = selfSignedCertificate(spEntityId, new Date(ctx.clock.now()));
  await ctx.database.db
    .insertInto("firm_sso")
    .values({ firm_id: firmId, sp_private_key: ctx.secretBox.seal(pair.privateKeyPem), sp_certificate: pair.certificatePem, updated_at: ctx.clock.now() })
    // Two first reads at once: the one written first stays.
    .onConflict((oc) => oc.column("firm_id").doNothing())
    .execute();
  return (await findFirmSso(ctx, firmId))!;
}

export type FirmSsoUpdate = Pick<
  FirmSso,
  | "idpEntityId"
  | "idpSsoUrl"
  | "idpSloUrl"
  | "idpCertificates"
  | "idpMetadataUrl"
  | "emailAttribute"
  | "breakGlassUserId"
  | "groupAttribute"
  | "groupRoles"
  | "oidcIssuer"
  | "oidcClientId"
  | "oidcClientSecret"
>;

export async function saveFirmSso(ctx: ServerContext, firmId: number, update: FirmSsoUpdate): Promise<void> {
  await ctx.database.db
    .updateTable("firm_sso")
    .set({
      idp_entity_id: update.idpEntityId,
      idp_sso_url: update.idpSsoUrl,
      idp_slo_url: update.idpSloUrl,
      idp_certificates: JSON.stringify(update.idpCertificates),
      idp_metadata_url: update.idpMetadataUrl,
      email_attribute: update.emailAttribute,
      break_glass_user_id: update.breakGlassUserId,
      group_attribute: update.groupAttribute,
      group_roles: JSON.stringify(update.groupRoles),
      oidc_issuer: update.oidcIssuer,
      oidc_client_id: update.oidcClientId,
      oidc_client_secret: update.oidcClientSecret ? ctx.secretBox.seal(update.oidcClientSecret) : null,
      updated_at: ctx.clock.now(),
    })
    .where("firm_id", "=", firmId)
    .execute();
}

/** Whether the firm's identity provider is known well enough to send its staff there. */
export const samlReady = (sso: FirmSso | undefined): boolean => Boolean(sso?.idpEntityId && sso.idpSsoUrl && sso.idpCertificates.length > 0);

/** Whether the firm may switch to this sign-on type: its identity provider is set up for it. */
export async function ssoReady(ctx: ServerContext, firmId: number, signonType: string): Promise<boolean> {
  const sso = await findFirmSso(ctx, firmId);
  if (signonType === "saml") return samlReady(sso);
  return signonType === "oidc" && Boolean(sso?.oidcIssuer && sso.oidcClientId);
}

/**
 * Where the firm's service provider lives: the console's public address on the firm's first host
 * name (the default firm: the public address itself). Identity providers keep these addresses,
 * so they do not follow the host a browser happened to use.
 */
export async function spBaseUrl(ctx: ServerContext, firmId: number): Promise<string> {
  const firm = await ctx.database.db.selectFrom("firm").select(["host_names", "is_default"]).where("id", "=", firmId).executeTakeFirstOrThrow();
  const host = parseJson<string[]>(firm.host_names, [])[0];
  if (firm.is_default || !host) return ctx.config.publicUrl;
  const url = new URL(ctx.config.publicUrl);
  url.hostname = host;
  return url.origin;
}

export interface SpUrls {
  entityId: string;
  acs: string;
  slo: string;
}

export const spUrls = (base: string): SpUrls => ({ entityId: `${base}/auth/saml/metadata`, acs: `${base}/auth/saml/acs`, slo: `${base}/auth/saml/slo` });
