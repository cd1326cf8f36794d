import { createHash } from "node:crypto";
import { DmsLocationTaken, DmsTargetError, type DmsIntended, type DmsStoreRequest, type DmsStoreResult } from "../dms-target";
import { type ConnectionReport, type VendorContext, runConnectionChecks } from "../vendor-target";
import { IManageDocuments } from "./imanage-documents";
import { type FolderRef, IManageFolders } from "./imanage-folders";
import { IMANAGE_DEFAULT_BASE_URL, cloudBase, imanagePurpose } from "./imanage-hosts";
import type { IManageConnection } from "./imanage-http";
import { displayName, firstFreeName, imanageExtension, imanageName } from "./imanage-names";
import { type ProfileSettings, documentProfile, filingComment } from "./imanage-profile";
import { IManageSession, type IManageSignInMethod, imanageAuthorizeUrl } from "./imanage-session";
import type { AuthorizingTarget } from "../authorization-code";

// iManage Work (cloud and on-premises) as a DMS target, over the Work API v2. Documents go into
// the folder the storage policy names below the credential's folder (folder_id) or, with matter
// workspace search, below the workspace of the filing's matter. Names follow iManage's rules and
// never repeat one in the folder ("Order (2)"); the filing's idempotency key goes into the
// document's comment so a retry adopts the copy an earlier attempt filed. See docs/dms/imanage.md.

export { IMANAGE_DEFAULT_BASE_URL } from "./imanage-hosts";

export const IMANAGE_CLOUD_KIND = "imanage_cloud_credential";
export const IMANAGE_ON_PREM_KIND = "imanage_on_prem_credential";

/** What both kinds of iManage credential hold (spec §3), secrets decrypted. */
interface IManageCommonSettings extends ProfileSettings {
  /** How the credential signs in; "password" when unset. */
  sign_in?: IManageSignInMethod | null;
  username: string;
  password: string;
  client_id: string;
  client_secret: string;
  /** The library documents are filed in ("ACTIVE"). */
  database: string;
  /** 0 when unset: the customer id discovery reports is used. */
  customer_id: number;
  /** The folder documents are filed below ("ACTIVE!456"), unless matter workspace search finds a workspace. */
  folder_id: string;
  matter_workspace_search: boolean;
  /** The workspace profile field holding the matter number (custom1…custom30). */
  matter_workspace_search_path: string;
  /** Milliseconds to wait after creating a folder before uploading into it; 0 when unset. */
  folder_creation_sync_delay: number;
}

export interface IManageOnPremSettings extends IManageCommonSettings {
  /** The firm's iManage Work server ("https://dms.firm.example"). */
  base_url: string;
  /** The firm reaches its server through an agent on its network: the server's address range must be allowed (ECFX_OUTBOUND_ALLOW). */
  use_agent: boolean;
}

export interface IManageCloudSettings extends IManageCommonSettings {
  /** "US", "EU", "UK", "AU", "CA", or the firm's own host under cloudimanage.com. */
  cloud_environment: string;
}

/** Where a request's document goes: the root (folder or workspace), the folders below it, and how the path reads. */
interface Place {
  root: FolderRef;
  segments: string[];
  /** Folder names as a person reads the location: the matter first when its workspace is the root. */
  path: string[];
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const joinLocation = (path: string[], fileName: string) => [...path, fileName].join("/");
/** iManage compares names without regard to case. */
const sameFile = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function createIManageTarget(kind: string, settings: IManageCommonSettings, connection: IManageConnection): AuthorizingTarget {
  const session = new IManageSession(connection, settings);
  const library = (settings.database ?? "").trim();
  const folders = new IManageFolders(session, kind, library);
  const documents = new IManageDocuments(session, kind, library);
  const permanent = (text: string) => new DmsTargetError(kind, text, false);
  const linkTo = (documentId: string) => new URL(`/work/link/d/${encodeURIComponent(documentId)}`, connection.base.origin).toString();
  const result = (documentId: string): DmsStoreResult => ({ location: documentId, link: linkTo(documentId) });

  function configured(): void {
    if (!library) throw permanent("The iManage credential names no library (database)");
    if (!settings.matter_workspace_search && !settings.folder_id?.trim()) throw permanent("The iManage credential names no folder (folder_id)");
    if (settings.matter_workspace_search && !settings.matter_workspace_search_path?.trim())
      throw permanent("The iManage credential names no field to search matters by");
  }

  function extensionOf(request: DmsStoreRequest): string {
    const extension = imanageExtension(request.extension);
    if (extension === null) throw permanent(`${request.extension} is not a file extension iManage keeps`);
    return extension;
  }

  /** The root and folders of a request: the credential's folder, or the matter's workspace. */
  async function place(request: DmsStoreRequest): Promise<Place> {
    configured();
    const names = request.folder.map((segment) => imanageName(segment));
    if (!settings.matter_workspace_search) return { root: { kind: "folders", id: settings.folder_id.trim() }, segments: names, path: names };
    const fromProperty = request.properties.matter?.trim();
    const matter = fromProperty || request.folder[0]?.trim();
    if (!matter) throw permanent("The filing names no matter to find its iManage workspace by");
    const segments = fromProperty ? names : names.slice(1);
    if (segments.length === 0) throw permanent("A document filed into a matter workspace needs a folder below the workspace; the storage policy names none");
    const root = await folders.matterWorkspace(settings.matter_workspace_search_path.trim(), matter);
    return { root, segments, path: [imanageName(matter), ...segments] };
  }

  /** The root and folders a recorded location names (names hold no "/", so the path splits back exactly). */
  async function placeOf(location: string): Promise<{ root: FolderRef; segments: string[]; fileName: string }> {
    configured();
    const path = location.split("/");
    const fileName = path.pop() ?? "";
    if (!settings.matter_workspace_search) return { root: { kind: "folders", id: settings.folder_id.trim() }, segments: path, fileName };
    const [matter = "", ...segments] = path;
    return { root: await folders.matterWorkspace(settings.matter_workspace_search_path.trim(), matter), segments, fileName };
  }

  const walkOptions = (create: boolean) => ({ create, defaultSecurity: (settings.default_security ?? "").trim() });

  async function intend(request: DmsStoreRequest, idempotencyKey: string): Promise<DmsIntended> {
    const extension = extensionOf(request);
    const name = imanageName(request.name);
    const where = await place(request);
    const { folder } = await folders.walk(where.root, where.segments, walkOptions(false));
    const taken = folder ? (await documents.inFolder(folder.id)).map((document) => document.fileName) : [];
    const free = firstFreeName(name, extension, taken);
    if (free === null) throw permanent(`Too many documents in ${joinLocation(where.path, "")} are named ${displayName(name, extension)}`);
    return { location: joinLocation(where.path, displayName(free, extension)), contentHash: sha256(request.bytes), idempotencyKey };
  }

  /**
   * The filing's document by its comment; iManage's search index can lag behind a fresh upload,
   * so the intended folder is also looked at for the intended name carrying the comment.
   */
  async function findExisting(intended: DmsIntended): Promise<DmsStoreResult | null> {
    configured();
    const comment = filingComment(intended.idempotencyKey);
    const [found] = await documents.withComment(comment);
    if (found) return result(found.id);
    const where = await placeOf(intended.location);
    const { folder } = await folders.walk(where.root, where.segments, walkOptions(false));
    if (!folder || folder.kind !== "folders") return null;
    const named = (await documents.inFolder(folder.id)).find((document) => sameFile(document.fileName, where.fileName) && document.comment === comment);
    return named ? result(named.id) : null;
  }

  async function write(request: DmsStoreRequest, intended: DmsIntended): Promise<DmsStoreResult> {
    const extension = extensionOf(request);
    const where = await place(request);
    const fileName = intended.location.slice(intended.location.lastIndexOf("/") + 1);
    if (joinLocation(where.path, fileName) !== intended.location) throw permanent(`${intended.location} is not where this filing's document goes`);
    const name = extension && fileName.toLowerCase().endsWith(`.${extension}`) ? fileName.slice(0, -extension.length - 1) : fileName;
    const { folder, created } = await folders.walk(where.root, where.segments, walkOptions(true));
    if (!folder || folder.kind !== "folders") throw permanent("iManage files documents into folders; the location names none");
    // A folder iManage has just created may not take documents until its index has caught up.
    if (created) await connection.ctx.sleep(Math.max(0, settings.folder_creation_sync_delay || 0));
    const comment = filingComment(intended.idempotencyKey);
    const sameName = (await documents.inFolder(folder.id)).find((document) => sameFile(document.fileName, fileName));
    if (sameName) {
      if (sameName.comment === comment) return result(sameName.id);
      throw new DmsLocationTaken(kind, intended.location);
    }
    const profile = documentProfile(settings, request, name, extension, intended.idempotencyKey);
    const documentId = await documents.upload(folder.id, profile, { bytes: request.bytes, contentType: request.contentType, fileName });
    return result(documentId);
  }

  function testConnection(): Promise<ConnectionReport> {
    return runConnectionChecks([
      {
        step: "Sign in",
        run: async () => {
          const user = await session.user();
          return `Signed in as ${user.userId} (customer ${user.customerId})`;
        },
      },
      {
        step: "List the root folder",
        run: async () => {
          configured();
          if (settings.matter_workspace_search) {
            return `Listed ${await folders.workspaceCount()} workspaces in library ${library}`;
          }
          const children = await folders.children({ kind: "folders", id: settings.folder_id.trim() });
          return `Listed ${children.length} folders in ${settings.folder_id.trim()} of library ${library}`;
        },
      },
    ]);
  }

  return {
    kind,
    recognisesCopyBy: "key",
    intend,
    findExisting,
    write,
    testConnection,
    authorization: {
      status: () => session.status(),
      authorizeUrl: (state, redirectUri) => imanageAuthorizeUrl(connection.base, settings.client_id, state, redirectUri),
      complete: (code, redirectUri) => session.exchange(code, redirectUri),
    },
  };
}

/** An iManage Cloud credential's target; calls go to its environment's host unless ECFX_IMANAGE_BASE_URL switched them. */
export function createIManageCloudTarget(settings: IManageCloudSettings, ctx: VendorContext): AuthorizingTarget {
  const base = cloudBase(settings.cloud_environment ?? "", ctx.baseUrl || IMANAGE_DEFAULT_BASE_URL);
  if (!base) throw new DmsTargetError(IMANAGE_CLOUD_KIND, `${settings.cloud_environment} is not an iManage Cloud environment`, false);
  return createIManageTarget(IMANAGE_CLOUD_KIND, settings, {
    kind: IMANAGE_CLOUD_KIND,
    base,
    purpose: imanagePurpose(base, ctx.baseUrl || IMANAGE_DEFAULT_BASE_URL),
    ctx,
  });
}

/** An on-premises iManage Work server's target; calls go to the credential's base_url. */
export function createIManageOnPremTarget(settings: IManageOnPremSettings, ctx: VendorContext): AuthorizingTarget {
  let base: URL;
  try {
    base = new URL(new URL(settings.base_url.trim()).origin);
  } catch {
    throw new DmsTargetError(IMANAGE_ON_PREM_KIND, `${settings.base_url} is not the address of an iManage Work server`, false);
  }
  return createIManageTarget(IMANAGE_ON_PREM_KIND, settings, {
    kind: IMANAGE_ON_PREM_KIND,
    base,
    purpose: imanagePurpose(base, ctx.baseUrl || base.origin),
    ctx,
  });
}
