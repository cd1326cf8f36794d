import { createHash } from "node:crypto";
import { DmsTargetError, type DmsIntended, type DmsStoreRequest, type DmsStoreResult } from "../dms-target";
import type { ConnectionReport, ConnectionStep, VendorContext, VendorTarget } from "../vendor-target";
import { GraphApi } from "./graph-api";
import { GraphTokens } from "./graph-auth";
import { GRAPH_DEFAULT_BASE_URL, graphEndpoints } from "./graph-endpoints";
import { type DriveItem, type Library, ensureFolder, findItem, resolveLibrary } from "./graph-library";
import { removeItem, uploadFile } from "./graph-upload";
import { parseLibraryUrl } from "./library-url";
import type { CallOptions } from "./sharepoint-http";
import { firstFreeName, sharePointFolder } from "./sharepoint-names";
import { documentDescription, isFromFiling, profileFields } from "./sharepoint-profile";

// SharePoint Online through Microsoft Graph: the app signs in with its client credentials
// (application permission Sites.ReadWrite.All or Sites.Selected), finds the library the
// credential's base_url names, files below the folders that URL names, and describes each
// document with the policy's properties. See docs/dms/sharepoint.md.

export const SHAREPOINT_CLOUD_KIND = "share_point_cloud_credential";
export const SHAREPOINT_CLOUD_DEFAULT_BASE_URL = GRAPH_DEFAULT_BASE_URL;

export interface SharePointCloudSettings {
  client_id: string;
  client_secret: string;
  author_field: string;
  signature: string;
  tenant_id: string;
  /** The site or library address, e.g. https://contoso.sharepoint.com/sites/Legal/Shared%20Documents. */
  base_url: string;
  folder_creation_sync_delay: number;
}

export const sha256Hex = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

const failure = (message: string, cause?: unknown) => new DmsTargetError(SHAREPOINT_CLOUD_KIND, message, false, { cause });

/** A location is the document's path inside the library: "Matters/123/Notice.pdf". */
const splitLocation = (location: string) => location.split("/").filter(Boolean);

export function createSharePointCloudTarget(settings: SharePointCloudSettings, ctx: VendorContext): VendorTarget {
  let url: ReturnType<typeof parseLibraryUrl>;
  try {
    url = parseLibraryUrl(settings.base_url);
  } catch (error) {
    throw failure((error as Error).message, error);
  }
  const endpoints = graphEndpoints(ctx, settings.base_url);
  const call: CallOptions = { guard: ctx.guard, purpose: endpoints.purpose, timeoutMs: ctx.timeoutMs, kind: SHAREPOINT_CLOUD_KIND };
  const tokens = new GraphTokens(settings, ctx, call, endpoints);
  const api = new GraphApi(tokens, call, endpoints, () => ctx.now());
  let library: Library | undefined;
  const theLibrary = async () => (library ??= await resolveLibrary(api, url, SHAREPOINT_CLOUD_KIND));

  const folderOf = (lib: Library, request: DmsStoreRequest) => [...lib.root, ...sharePointFolder(request.folder)];
  const resultOf = (location: string, item: DriveItem): DmsStoreResult => ({ location, link: item.webUrl });

  async function intend(request: DmsStoreRequest, idempotencyKey: string): Promise<DmsIntended> {
    const lib = await theLibrary();
    const folder = folderOf(lib, request);
    const pathLength = lib.rootPathLength + folder.slice(lib.root.length).join("/").length + 1;
    let name: string;
    try {
      name = await firstFreeName(request.name, request.extension, pathLength, async (candidate) => (await findItem(api, lib, [...folder, candidate])) !== null);
    } catch (error) {
      if (error instanceof RangeError) throw failure(error.message, error);
      throw error;
    }
    return { location: [...folder, name].join("/"), contentHash: sha256Hex(request.bytes), idempotencyKey };
  }

  async function findExisting(intended: DmsIntended): Promise<DmsStoreResult | null> {
    const item = await findItem(api, await theLibrary(), splitLocation(intended.location));
    return item?.file && isFromFiling(item.description, intended.idempotencyKey) ? resultOf(intended.location, item) : null;
  }

  async function write(request: DmsStoreRequest, intended: DmsIntended): Promise<DmsStoreResult> {
    const lib = await theLibrary();
    const segments = splitLocation(intended.location);
    const name = segments.pop() ?? "";
    const folder = await ensureFolder(api, lib, segments);
    if (folder.created) await ctx.sleep(settings.folder_creation_sync_delay);
    const item = await uploadFile(api, call, { library: lib, parentId: folder.id, name, location: intended.location }, request.bytes, request.contentType, () =>
      ctx.now(),
    );
    try {
      await describe(lib, item, request, intended);
    } catch (error) {
      await removeItem(api, lib, item.id).catch(() => undefined);
      throw error;
    }
    return resultOf(intended.location, item);
  }

  async function describe(lib: Library, item: DriveItem, request: DmsStoreRequest, intended: DmsIntended): Promise<void> {
    const drive = `/drives/${encodeURIComponent(lib.driveId)}/items/${encodeURIComponent(item.id)}`;
    const fields = profileFields(settings, request.properties);
    if (Object.keys(fields).length) {
      await api.json({ method: "PATCH", path: `${drive}/listItem/fields`, json: fields, action: `setting the properties of ${intended.location}` });
    }
    await api.json({
      method: "PATCH",
      path: drive,
      json: { description: documentDescription(settings, intended.idempotencyKey) },
      action: `describing ${intended.location}`,
    });
  }

  async function testConnection(): Promise<ConnectionReport> {
    const steps: ConnectionStep[] = [];
    const attempt = async (step: string, run: () => Promise<string>) => {
      try {
        steps.push({ step, ok: true, detail: await run() });
        return true;
      } catch (error) {
        steps.push({ step, ok: false, detail: (error as Error).message });
        return false;
      }
    };
    const ok =
      (await attempt("Sign in", async () => {
        await tokens.renew();
        return `Signed in as app ${settings.client_id} of tenant ${settings.tenant_id}`;
      })) &&
      (await attempt("Find the library", async () => {
        const lib = await theLibrary();
        return `Found library ${lib.driveName} on site ${lib.siteName}`;
      })) &&
      (await attempt("List the root folder", async () => {
        const lib = await theLibrary();
        const root = await findItem(api, lib, lib.root);
        if (!root?.folder) throw failure(`/${lib.root.join("/")} is not a folder in library ${lib.driveName}`);
        const children = await api.json<{ value: DriveItem[] }>({
          method: "GET",
          path: `/drives/${encodeURIComponent(lib.driveId)}/items/${encodeURIComponent(root.id)}/children?$select=name`,
          action: "listing the root folder",
        });
        return `Listed ${children.value.length} items in /${[lib.driveName, ...lib.root].join("/")}`;
      }));
    return { ok, steps };
  }

  return { kind: SHAREPOINT_CLOUD_KIND, intend, findExisting, write, testConnection };
}
