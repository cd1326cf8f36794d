import { DmsTargetError } from "../dms-target";
import type { GraphApi } from "./graph-api";
import { removeItem, uploadFile } from "./graph-upload";
import { type LibraryUrl, encodePath } from "./library-url";
import type { CallOptions } from "../guarded-call";
import type { DriveItem, Library } from "./graph-types";
import type { LibraryEntry, SharePointLibrary } from "./sharepoint-target-core";

// The credential's document library in Graph's terms (a site, a drive and a root folder) and
// the folders below it: looked up by path, created when missing with conflictBehavior "fail"
// (a 409 means another filing created it first, which is as good).

interface Site {
  id: string;
  displayName?: string;
  webUrl?: string;
}

interface Drive {
  id: string;
  name: string;
  webUrl?: string;
}

const ITEM_PROPERTIES = "id,name,webUrl,description,file,folder,size";

const lastSegment = (webUrl: string | undefined) => decodeURIComponent(new URL(webUrl ?? "http://x/").pathname.split("/").filter(Boolean).pop() ?? "");

export async function resolveLibrary(api: GraphApi, url: LibraryUrl): Promise<Library> {
  const sitePath = url.sitePath ? `/sites/${url.host}:/${encodePath(url.sitePath.split("/").filter(Boolean))}` : `/sites/${url.host}`;
  const site = await api.json<Site>({ method: "GET", path: sitePath, action: `finding site ${url.origin}${url.sitePath}` });
  const drives = await api.json<{ value: Drive[] }>({
    method: "GET",
    path: `/sites/${encodeURIComponent(site.id)}/drives`,
    action: "listing the site's libraries",
  });
  const wanted = url.library.toLowerCase();
  const drive = wanted
    ? drives.value.find((candidate) => lastSegment(candidate.webUrl).toLowerCase() === wanted || candidate.name.toLowerCase() === wanted)
    : (drives.value.find((candidate) => lastSegment(candidate.webUrl).toLowerCase() === "shared documents") ?? drives.value[0]);
  if (!drive) throw new DmsTargetError(api.kind, `SharePoint has no library ${url.library || "of documents"} on site ${site.webUrl ?? url.sitePath}`, false);
  const libraryPath = `${url.sitePath}/${lastSegment(drive.webUrl) || drive.name}`;
  const root = url.folders;
  return {
    siteName: site.displayName ?? url.sitePath,
    driveId: drive.id,
    driveName: drive.name,
    root,
    rootPathLength: [libraryPath, ...root].join("/").length,
  };
}

/** Graph's address of a path inside the drive: the root itself, or "items/root:/a/b:". */
export function itemPath(library: Library, segments: string[]): string {
  const drive = `/drives/${encodeURIComponent(library.driveId)}/items/root`;
  return segments.length ? `${drive}:/${encodePath(segments)}:` : drive;
}

export async function findItem(api: GraphApi, library: Library, segments: string[]): Promise<DriveItem | null> {
  // description is not among the properties Graph returns unasked.
  return api.find<DriveItem>({ method: "GET", path: `${itemPath(library, segments)}?$select=${ITEM_PROPERTIES}`, action: `looking up /${segments.join("/")}` });
}

/**
 * The folder at `segments` (below the drive's root), created segment by segment where missing.
 * Says whether it created any, so the caller waits for SharePoint to settle only then.
 */
export async function ensureFolder(api: GraphApi, library: Library, segments: string[]): Promise<{ id: string; created: boolean }> {
  let parent = await findItem(api, library, []);
  if (!parent) throw new DmsTargetError(api.kind, `SharePoint library ${library.driveName} has no root folder`, false);
  let created = false;
  for (let depth = 1; depth <= segments.length; depth++) {
    const path = segments.slice(0, depth);
    const existing = await findItem(api, library, path);
    if (existing) {
      parent = existing;
      continue;
    }
    const response = await api.send({
      method: "POST",
      path: `/drives/${encodeURIComponent(library.driveId)}/items/${encodeURIComponent(parent.id)}/children`,
      json: { name: path[depth - 1], folder: {}, "@microsoft.graph.conflictBehavior": "fail" },
      action: `creating folder /${path.join("/")}`,
    });
    if (response.status === 409) {
      await response.body?.cancel();
      const raced = await findItem(api, library, path);
      if (!raced) throw new DmsTargetError(api.kind, `SharePoint says /${path.join("/")} exists but does not show it`, true);
      parent = raced;
      continue;
    }
    parent = await api.read<DriveItem>(response, `creating folder /${path.join("/")}`);
    created = true;
  }
  if (!parent.folder) throw new DmsTargetError(api.kind, `/${segments.join("/")} in SharePoint is a file, not a folder`, false);
  return { id: parent.id, created };
}

/** The credential's library as the filing protocol uses it, in Graph calls. */
export class GraphLibrary implements SharePointLibrary<DriveItem> {
  private resolved?: Promise<Library>;

  constructor(
    private readonly api: GraphApi,
    private readonly call: CallOptions,
    private readonly url: LibraryUrl,
    private readonly now: () => number,
  ) {}

  library(): Promise<Library> {
    // A failed lookup is not kept: the next filing asks again.
    this.resolved ??= resolveLibrary(this.api, this.url).catch((error: unknown) => {
      this.resolved = undefined;
      throw error;
    });
    return this.resolved;
  }

  async root(): Promise<{ folders: string[]; pathLength: number }> {
    const library = await this.library();
    return { folders: library.root, pathLength: library.rootPathLength };
  }

  async find(path: string[]): Promise<LibraryEntry | null> {
    const item = await findItem(this.api, await this.library(), path);
    return item && { isFile: Boolean(item.file), link: item.webUrl, description: item.description };
  }

  async ensureFolder(path: string[]): Promise<{ created: boolean }> {
    return ensureFolder(this.api, await this.library(), path);
  }

  async upload(path: string[], bytes: Buffer, contentType: string, location: string): Promise<DriveItem> {
    const library = await this.library();
    const parent = await findItem(this.api, library, path.slice(0, -1));
    if (!parent?.folder) throw new DmsTargetError(this.api.kind, `The folder of ${location} is missing in SharePoint`, true);
    return uploadFile(this.api, this.call, { library, parentId: parent.id, name: path[path.length - 1] ?? "", location }, bytes, contentType, this.now);
  }

  async describe(item: DriveItem, fields: Record<string, string>, description: string, location: string): Promise<void> {
    const address = `/drives/${encodeURIComponent((await this.library()).driveId)}/items/${encodeURIComponent(item.id)}`;
    if (Object.keys(fields).length)
      await this.api.json({ method: "PATCH", path: `${address}/listItem/fields`, json: fields, action: `setting the properties of ${location}` });
    await this.api.json({ method: "PATCH", path: address, json: { description }, action: `describing ${location}` });
  }

  async remove(item: DriveItem): Promise<void> {
    await removeItem(this.api, await this.library(), item.id);
  }

  linkOf(item: DriveItem): string | undefined {
    return item.webUrl;
  }

  connectionSteps() {
    return [
      {
        step: "Find the library",
        run: async () => {
          const library = await this.library();
          return `Found library ${library.driveName} on site ${library.siteName}`;
        },
      },
      {
        step: "List the root folder",
        run: async () => {
          const library = await this.library();
          const root = await findItem(this.api, library, library.root);
          if (!root?.folder) throw new DmsTargetError(this.api.kind, `/${library.root.join("/")} is not a folder in library ${library.driveName}`, false);
          const children = await this.api.json<{ value: DriveItem[] }>({
            method: "GET",
            path: `/drives/${encodeURIComponent(library.driveId)}/items/${encodeURIComponent(root.id)}/children?$select=name`,
            action: "listing the root folder",
          });
          return `Listed ${children.value.length} items in /${[library.driveName, ...library.root].join("/")}`;
        },
      },
    ];
  }
}
