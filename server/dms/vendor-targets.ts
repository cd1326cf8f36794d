import { findResource } from "../../app/common/resources";
import { DMS_CREDENTIAL_TABLES, type DmsCredentialKind } from "../../app/common/resources/credentials";
import type { Config } from "../config";
import type { ServerContext } from "../context";
import { DmsTargetError } from "./dms-target";
import type { VendorContext, VendorTarget } from "./vendor-target";
import { message } from "../lib/messages";
import { credentialTokenStore } from "./credential-tokens";
import { BOX_DEFAULT_BASE_URL, createBoxTarget } from "./box/box-target";
import { DROPBOX_DEFAULT_BASE_URL, createDropboxTarget } from "./dropbox/dropbox-target";
import { IMANAGE_DEFAULT_BASE_URL, createIManageCloudTarget, createIManageOnPremTarget } from "./imanage/imanage-target";
import { SHAREPOINT_CLOUD_DEFAULT_BASE_URL, createSharePointCloudTarget } from "./sharepoint/sharepoint-cloud-target";
import { SHAREPOINT_ON_PREM_DEFAULT_BASE_URL, createSharePointOnPremTarget } from "./sharepoint/sharepoint-on-prem-target";
import { SALESFORCE_LOGIN_URL, createLitifyTarget } from "./litify/litify-target";
import { NETDOCUMENTS_DEFAULT_BASE_URL, createNetDocumentsClientTarget, createNetDocumentsCloudTarget } from "./netdocuments/netdocuments-target";
import { FILEVINE_DEFAULT_BASE_URL, createFileVineTarget } from "./filevine/filevine-target";
import { PROLAW_DEFAULT_BASE_URL, createProLawTarget } from "./prolaw/prolaw-target";
import { CLIO_DEFAULT_BASE_URL, createClioTarget } from "./clio/clio-target";

// From a firm's vendor DMS credential to its client: the credential's row with its secrets
// opened, the operator's switch of the vendor's address, the DMS guard and the sealed token
// store. Each vendor's client lives in server/dms/<vendor>/ and knows nothing of the database.

export type VendorSettings = Record<string, unknown>;

export interface VendorClient {
  /** The vendor's own service, unless the operator switched it (ECFX_<VENDOR>_BASE_URL). */
  baseUrl(config: Config): string;
  create(settings: never, ctx: VendorContext): VendorTarget;
}

const client = <S>(
  defaultBaseUrl: string,
  switched: (config: Config) => string | undefined,
  create: (settings: S, ctx: VendorContext) => VendorTarget,
): VendorClient => ({
  baseUrl: (config) => switched(config) ?? defaultBaseUrl,
  create: create as VendorClient["create"],
});

const imanage = (config: Config) => config.ECFX_IMANAGE_BASE_URL;
const netDocuments = (config: Config) => config.ECFX_NETDOCUMENTS_BASE_URL;

/** The clients by credential kind; a kind without one cannot file yet and says so. */
export const VENDOR_CLIENTS: Partial<Record<DmsCredentialKind, VendorClient>> = {
  imanage_cloud_credential: client(IMANAGE_DEFAULT_BASE_URL, imanage, createIManageCloudTarget),
  imanage_on_prem_credential: client(IMANAGE_DEFAULT_BASE_URL, imanage, createIManageOnPremTarget),
  net_documents_cloud_credential: client(NETDOCUMENTS_DEFAULT_BASE_URL, netDocuments, createNetDocumentsCloudTarget),
  net_documents_client_credential: client(NETDOCUMENTS_DEFAULT_BASE_URL, netDocuments, createNetDocumentsClientTarget),
  share_point_cloud_credential: client(SHAREPOINT_CLOUD_DEFAULT_BASE_URL, (config) => config.ECFX_SHAREPOINT_GRAPH_BASE_URL, createSharePointCloudTarget),
  // The credential's own base URL names the farm.
  share_point_on_prem_credential: client(SHAREPOINT_ON_PREM_DEFAULT_BASE_URL, () => undefined, createSharePointOnPremTarget),
  box_client_credential_grant_credential: client(BOX_DEFAULT_BASE_URL, (config) => config.ECFX_BOX_BASE_URL, createBoxTarget),
  dropbox_credential: client(DROPBOX_DEFAULT_BASE_URL, (config) => config.ECFX_DROPBOX_BASE_URL, createDropboxTarget),
  litify_credential: client(SALESFORCE_LOGIN_URL, (config) => config.ECFX_SALESFORCE_LOGIN_URL, createLitifyTarget),
  file_vine_credential: client(FILEVINE_DEFAULT_BASE_URL, (config) => config.ECFX_FILEVINE_BASE_URL, createFileVineTarget),
  pro_law_credential: client(PROLAW_DEFAULT_BASE_URL, () => undefined, createProLawTarget),
  clio_credential: client(CLIO_DEFAULT_BASE_URL, (config) => config.ECFX_CLIO_BASE_URL, createClioTarget),
};

const keyOfKind = new Map(Object.entries(DMS_CREDENTIAL_TABLES).map(([key, kind]) => [kind as string, key]));

/** The credential's settings as its client takes them: secrets opened, flags as booleans, maps as objects. */
async function loadSettings(ctx: ServerContext, firmId: number, kind: DmsCredentialKind, credentialId: string): Promise<VendorSettings> {
  const def = findResource(keyOfKind.get(kind) ?? "");
  const row = (await ctx.database.db
    .selectFrom(kind as "box_client_credential_grant_credential")
    .selectAll()
    .where("id", "=", credentialId)
    .where("firm_id", "=", firmId)
    .executeTakeFirst()) as Record<string, unknown> | undefined;
  if (!def || !row) throw new DmsTargetError(kind, message("filing:credentialsMissing"), false);
  const settings: VendorSettings = { folder_creation_sync_delay: Number(row.folder_creation_sync_delay ?? 0) };
  for (const field of def.fields) {
    const value = row[field.name];
    if (field.computed || field.name === "folder_creation_sync_delay") continue;
    if (field.secret) settings[field.name] = typeof value === "string" && value !== "" ? openSecret(ctx, kind, value) : "";
    else if (field.kind === "boolean") settings[field.name] = Boolean(value);
    else if (field.kind === "properties") settings[field.name] = typeof value === "string" ? (JSON.parse(value) as Record<string, string>) : {};
    else if (field.kind === "number") settings[field.name] = value === null || value === undefined ? null : Number(value);
    else settings[field.name] = value ?? "";
  }
  return settings;
}

function openSecret(ctx: ServerContext, kind: string, sealed: string): string {
  try {
    return ctx.secretBox.reveal(sealed);
  } catch (error) {
    // The key that sealed it is gone: only someone typing the secret again mends this.
    throw new DmsTargetError(kind, message("filing:secretUnreadable"), false, { cause: error });
  }
}

export function vendorContext(ctx: ServerContext, firmId: number, credentialId: string, baseUrl: string): VendorContext {
  return {
    guard: ctx.dmsGuard,
    baseUrl,
    tokens: credentialTokenStore(ctx, firmId, credentialId),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: () => ctx.clock.now(),
    timeoutMs: ctx.config.ECFX_DMS_TIMEOUT_MS,
  };
}

/** The client of a vendor credential; DmsTargetError when the kind has none or the credential is gone. */
export async function vendorTargetFor(ctx: ServerContext, firmId: number, kind: DmsCredentialKind, credentialId: string): Promise<VendorTarget> {
  const client = VENDOR_CLIENTS[kind];
  if (!client) throw new DmsTargetError(kind, message("filing:noClient", { kind }), false);
  const settings = await loadSettings(ctx, firmId, kind, credentialId);
  return client.create(settings as never, vendorContext(ctx, firmId, credentialId, client.baseUrl(ctx.config)));
}
