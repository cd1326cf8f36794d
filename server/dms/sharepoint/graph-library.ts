import { DmsTargetError } from "../dms-target";
import type { GraphApi } from "./graph-api";
import { type LibraryUrl, encodePath } from "./library-url";

// The credential's document library in Graph's terms (a site, a drive and a root folder) and
// the folders below it: looked up by path, created when missing with conflictBehavior "fail"
// (a 409 means another filing created it first, which is as good).

export interface DriveItem {
  id: string;
  name: string;
  webUrl?: string;
  description?: string;
  folder?: { childCount?: number };
  file?: { mimeType?: string };
  size?: number;
}

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

export interface Library {
  siteName: string;
  driveId: string;
  driveName: string;
  /** Folders inside the drive that are the credential's root. */
  root: string[];
  /** Characters of the server-relative path up to and including the root, for SharePoint's 400-character limit. */
  rootPathLength: number;
}

const lastSegment = (webUrl: string | undefined) => decodeURIComponent(new URL(webUrl ?? "http://x/").pathname.split("/").filter(Boolean).pop() ?? "");

export async function resolveLibrary(api: GraphApi, url: LibraryUrl, kind: string): Promise<Library> {
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
  if (!drive) throw new DmsTargetError(kind, `SharePoint has no library ${url.library || "of documents"} on site ${site.webUrl ?? url.sitePath}`, false);
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
  return api.find<DriveItem>({ method: "GET", path: itemPath(library, segments), action: `looking up /${segments.join("/")}` });
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
