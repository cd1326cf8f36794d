import { cabinetInfo, uploaded, userInfo } from "./answers";
import { createHash } from "node:crypto";
import { FormData } from "undici";
import { DmsLocationTaken, DmsTargetError, type DmsStoreRequest, type DmsStoreResult } from "../dms-target";
import { type ConnectionReport, type VendorContext, type VendorTarget, runConnectionChecks } from "../vendor-target";
import { NetDocumentsApi, type NetDocumentsSignIn } from "./api";
import { FOLDER_EXTENSION, NetDocumentsFolders, type NetDocumentsItem, type WorkspaceKey, findWorkspace } from "./folders";
import { type NetDocumentsEndpoints, consentUrl, documentLink, netDocumentsEndpoints } from "./hosts";
import type { AuthorizingTarget } from "../authorization-code";
import { fullName, netDocumentsName, numberedName, sameName } from "./names";
import { profileAttributes } from "./profile";

// The NetDocuments storage targets, one per credential type: "cloud" signs in with a refresh
// token a person granted once (rotated by NetDocuments on each use), "client" with a service
// account's client credentials. Both file into the credential's default cabinet: the policy's
// folder segments are folders in it, the document goes in with one multipart POST /v1/Document
// (NetDocuments creates the document whole or not at all), and its profile attributes come from
// the policy's document properties. NetDocuments lets two documents share a name, so the name
// rule (never a second document under a name) is this client's: write looks before it uploads.
// A retry recognises its earlier copy by name and content (the bytes' SHA-256), since
// NetDocuments has no free-form field a document could carry the filing's key in without the
// firm defining one. With matter_workspaces on, the document goes into the matter workspace the
// policy's document properties `client` and `matter` name (the cabinet's workspace attributes),
// the policy's folders below it; the location then starts with client and matter.

export { NETDOCUMENTS_DEFAULT_BASE_URL } from "./hosts";
export const NETDOCUMENTS_CLOUD_KIND = "net_documents_cloud_credential";
export const NETDOCUMENTS_CLIENT_KIND = "net_documents_client_credential";

export interface NetDocumentsCloudSettings {
  /** base64 of client_id:client_secret of the firm's NetDocuments application. */
  basic_auth: string;
  refresh_token: string;
  recent_access_token: string;
  /** "US" (vault), "EU", "AU", "DE", "UK"; empty means US. */
  cloud_environment: string;
  default_cabinet: string;
  /** The number of the profile attribute that holds the author. */
  author_field: string;
  folder_creation_sync_delay: number;
  /** File into the matter workspace of the filing's client and matter, not the cabinet's folders. */
  matter_workspaces?: boolean;
}

export interface NetDocumentsClientSettings {
  client_id: string;
  client_secret: string;
  /** The repository id (CA-…) the service account belongs to. */
  repository: string;
  default_cabinet: string;
  author_field: string;
  region: string;
  folder_creation_sync_delay: number;
  create_folders: boolean;
  matter_workspaces?: boolean;
}

/** Beyond this many copies of one name something is wrong (a loop storing the same notice). */
const MAX_COPIES = 10_000;
/** A candidate copy larger than this is not downloaded to compare: a duplicate is better than a wrong adoption. */
const MAX_COMPARE_BYTES = 64 * 1024 * 1024;

interface TargetSetup {
  kind: string;
  region: string;
  cabinet: string;
  authorField: string;
  syncDelayMs: number;
  createFolders: boolean;
  workspaces: boolean;
  signIn: NetDocumentsSignIn;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function basicOf(value: string): string {
  const bare = value.replace(/^Basic\s+/i, "").trim();
  return bare.includes(":") ? Buffer.from(bare, "utf8").toString("base64") : bare;
}

/**
 * A cloud credential holds a refresh token a person obtained once; when NetDocuments stops taking
 * it, a person approves ECFX again at NetDocuments' consent page (as for Clio) and the new pair
 * is kept sealed in the token store, ahead of the credential's own.
 */
export function createNetDocumentsCloudTarget(settings: NetDocumentsCloudSettings, ctx: VendorContext): AuthorizingTarget {
  const kind = NETDOCUMENTS_CLOUD_KIND;
  const basic = basicOf(settings.basic_auth ?? "");
  const { target, api, endpoints } = createTarget(
    {
      kind,
      region: settings.cloud_environment ?? "",
      cabinet: settings.default_cabinet,
      authorField: settings.author_field ?? "",
      syncDelayMs: settings.folder_creation_sync_delay || 0,
      createFolders: true,
      workspaces: settings.matter_workspaces === true,
      signIn: {
        initialAccessToken: settings.recent_access_token || undefined,
        mend: "connect to NetDocuments again from the credential's page",
        grant: (stored) => {
          // NetDocuments may hand out a new refresh token with each token: the newest one kept wins.
          const refreshToken = stored?.extra?.refresh_token ?? stored?.refreshToken ?? settings.refresh_token;
          if (!refreshToken) throw new DmsTargetError(kind, "Token generation failed: the credential has no refresh token", false);
          return { basic, form: { grant_type: "refresh_token", refresh_token: refreshToken } };
        },
      },
    },
    ctx,
  );
  return {
    ...target,
    authorization: {
      async status() {
        const stored = await ctx.tokens.read();
        const connectedAt = stored?.extra?.connected_at ? Number(stored.extra.connected_at) : null;
        return { connected: Boolean(stored || settings.refresh_token), connectedAt, required: true };
      },
      authorizeUrl: (state, redirectUri) => consentUrl(endpoints, clientIdOf(basic), state, redirectUri),
      complete: (code, redirectUri) => api.connect(code, redirectUri, basic),
    },
  };
}

/** The application's client id, from its Basic credentials (base64 of client_id:client_secret). */
const clientIdOf = (basic: string) => {
  const decoded = Buffer.from(basic, "base64").toString("utf8");
  return decoded.slice(0, Math.max(0, decoded.indexOf(":")));
};

export function createNetDocumentsClientTarget(settings: NetDocumentsClientSettings, ctx: VendorContext): VendorTarget {
  return createTarget(
    {
      kind: NETDOCUMENTS_CLIENT_KIND,
      region: settings.region ?? "",
      cabinet: settings.default_cabinet,
      authorField: settings.author_field ?? "",
      syncDelayMs: settings.folder_creation_sync_delay || 0,
      createFolders: settings.create_folders !== false,
      workspaces: settings.matter_workspaces === true,
      signIn: {
        // A service account signs in as "client_id|repository": the repository is part of who asks.
        grant: () => ({
          basic: Buffer.from(`${settings.client_id}|${settings.repository}:${settings.client_secret}`, "utf8").toString("base64"),
          form: { grant_type: "client_credentials", scope: "full" },
        }),
      },
    },
    ctx,
  ).target;
}

function createTarget(setup: TargetSetup, ctx: VendorContext): { target: VendorTarget; api: NetDocumentsApi; endpoints: NetDocumentsEndpoints } {
  const { kind } = setup;
  if (!setup.cabinet?.trim()) throw new DmsTargetError(kind, "The NetDocuments credential names no default cabinet", false);
  const endpoints = netDocumentsEndpoints(kind, setup.region, ctx.baseUrl);
  const api = new NetDocumentsApi(kind, ctx, endpoints, setup.signIn);
  const cabinetFolders = new NetDocumentsFolders(api, setup.cabinet.trim());
  const permanent = (text: string) => new DmsTargetError(kind, text, false);

  /** The workspace key of a request, when filing into workspaces: the policy's client and matter properties. */
  function workspaceOf(request: DmsStoreRequest): WorkspaceKey | null {
    if (!setup.workspaces) return null;
    const property = (name: string) =>
      Object.entries(request.properties)
        .find(([key]) => key.trim().toLowerCase() === name)?.[1]
        ?.trim() ?? "";
    const key = { client: property("client"), matter: property("matter") };
    if (!key.client || !key.matter)
      throw permanent("Filing into NetDocuments matter workspaces needs the storage policy's document properties client and matter");
    if (/[/\\]/.test(key.client + key.matter)) throw permanent(`Client ${key.client} and matter ${key.matter} cannot name a NetDocuments workspace`);
    return key;
  }

  /** The folders below the cabinet, or below the key's workspace (which must exist: ECFX never makes one). */
  async function foldersOf(key: WorkspaceKey | null): Promise<NetDocumentsFolders> {
    if (!key) return cabinetFolders;
    const workspace = await findWorkspace(api, cabinetFolders.cabinet, key);
    if (!workspace) throw permanent(`NetDocuments has no workspace for client ${key.client} and matter ${key.matter} in cabinet ${cabinetFolders.cabinet}`);
    return new NetDocumentsFolders(api, cabinetFolders.cabinet, workspace);
  }
  const folders = cabinetFolders;
  const link = (id: string) => documentLink(endpoints, id);

  function extensionOf(request: DmsStoreRequest): string {
    const bare = request.extension.trim().replace(/^\./, "");
    if (bare !== "" && !/^[A-Za-z0-9]{1,16}$/.test(bare)) throw new DmsTargetError(kind, `"${request.extension}" is not a file extension`, false);
    return bare.toLowerCase();
  }

  const segmentsOf = (request: DmsStoreRequest) => request.folder.map((segment) => netDocumentsName(segment));
  const isDocument = (item: NetDocumentsItem) => item.extension !== FOLDER_EXTENSION;
  const itemName = (item: NetDocumentsItem) => fullName(item.name, item.extension);
  const missingFolder = (missing: string) =>
    new DmsTargetError(kind, `The NetDocuments folder ${missing} is missing in cabinet ${folders.cabinet} and folder creation is off`, false);

  /** The documents in the folder the segments name; empty when it does not exist yet. */
  async function documentsIn(within: NetDocumentsFolders, segments: string[]): Promise<NetDocumentsItem[] | { missing: string }> {
    const folder = await within.resolve(segments, false);
    if ("missing" in folder) return folder;
    return (await within.content(folder.id, segments.join("/") || within.cabinet)).filter(isDocument);
  }

  /** Client and matter (with workspaces), the folders and the file a location names. */
  function splitLocation(location: string): { key: WorkspaceKey | null; segments: string[]; file: string } {
    const parts = location.split("/");
    const key = setup.workspaces ? { client: parts.shift() ?? "", matter: parts.shift() ?? "" } : null;
    return { key, segments: parts.slice(0, -1), file: parts[parts.length - 1] ?? "" };
  }
  const prefixOf = (key: WorkspaceKey | null) => (key ? [key.client, key.matter] : []);

  const target: VendorTarget = {
    kind,
    // Its documents carry no key of ours: a copy is known by its name and bytes.
    recognisesCopyBy: "content",

    async intend(request, idempotencyKey) {
      const extension = extensionOf(request);
      const segments = segmentsOf(request);
      const key = workspaceOf(request);
      const found = await documentsIn(await foldersOf(key), segments);
      if ("missing" in found && !setup.createFolders) throw missingFolder(found.missing);
      const taken = "missing" in found ? [] : found.map(itemName);
      for (let copy = 1; copy <= MAX_COPIES; copy++) {
        const candidate = fullName(numberedName(request.name, copy), extension);
        if (!taken.some((name) => sameName(name, candidate))) {
          return { location: [...prefixOf(key), ...segments, candidate].join("/"), contentHash: sha256(request.bytes), idempotencyKey };
        }
      }
      throw new DmsTargetError(kind, `More than ${MAX_COPIES} documents are named ${request.name} in ${segments.join("/")}`, false);
    },

    async findExisting(intended) {
      const { key, segments, file } = splitLocation(intended.location);
      const found = await documentsIn(await foldersOf(key), segments);
      if ("missing" in found) return null;
      for (const item of found.filter((candidate) => sameName(itemName(candidate), file))) {
        if (item.size !== undefined && item.size > MAX_COMPARE_BYTES) continue;
        const bytes = await api.bytes(`reading document ${item.id}`, `/v1/Document/${encodeURIComponent(item.id)}`, MAX_COMPARE_BYTES);
        if (sha256(bytes) === intended.contentHash) return { location: item.id, link: link(item.id) };
      }
      return null;
    },

    async write(request, intended): Promise<DmsStoreResult> {
      const extension = extensionOf(request);
      const { key, segments, file } = splitLocation(intended.location);
      const suffix = extension === "" ? "" : `.${extension}`;
      if (!file.endsWith(suffix) || file.length === suffix.length)
        throw new DmsTargetError(kind, `${intended.location} is not a name for a .${extension} document`, false);
      const name = file.slice(0, file.length - suffix.length);
      // A property NetDocuments cannot take stops the filing before anything is created.
      const profile = profileAttributes(kind, request.properties, setup.authorField, setup.workspaces);
      const within = await foldersOf(key);
      const folder = await within.resolve(segments, setup.createFolders);
      if ("missing" in folder) throw missingFolder(folder.missing);
      // NetDocuments lists a new folder to other calls only after a while: the firm sets how long.
      if (folder.created && setup.syncDelayMs > 0) await ctx.sleep(setup.syncDelayMs);
      // A document directly in the workspace has the workspace as its destination.
      const destination = folder.id ?? within.rootId;
      const present = (await within.content(folder.id, segments.join("/") || within.cabinet)).filter(isDocument);
      if (present.some((item) => sameName(itemName(item), file))) throw new DmsLocationTaken(kind, intended.location);
      const answer = await api.json(`the upload of ${intended.location}`, "/v1/Document", uploaded, {
        multipart: () => {
          const form = new FormData();
          form.append("action", "upload");
          form.append("cabinet", folders.cabinet);
          if (destination !== null) form.append("destination", destination);
          form.append("name", name);
          form.append("extension", extension);
          if (profile.length > 0) form.append("profile", JSON.stringify(profile));
          form.append("file", new Blob([Uint8Array.from(request.bytes)], { type: request.contentType || "application/octet-stream" }), file);
          return form;
        },
      });
      return { location: answer.id, link: link(answer.id) };
    },

    testConnection(): Promise<ConnectionReport> {
      return runConnectionChecks([
        {
          step: "Sign in",
          run: async () => {
            const user = await api.json("reading the signed-in user", "/v1/User/info", userInfo);
            return `Signed in as ${user.displayName || user.email || user.id || "the credential's account"}`;
          },
        },
        {
          step: "List the cabinet",
          run: async () => {
            const info = await api.json(`reading cabinet ${folders.cabinet}`, `/v1/Cabinet/${encodeURIComponent(folders.cabinet)}/info`, cabinetInfo);
            const name = info.name || folders.cabinet;
            const count = (await folders.topLevel()).length;
            return `Listed ${count} ${count === 1 ? "folder" : "folders"} in cabinet ${name}`;
          },
        },
      ]);
    },
  };
  return { target, api, endpoints };
}
