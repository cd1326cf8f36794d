import type { z } from "zod";
import { folderListing, metadata, unread } from "./dropbox-answers";
import type { DropboxClient } from "./dropbox-client";
import { DropboxRefusal } from "./dropbox-errors";
import { dropboxSegment } from "./dropbox-names";

// Folder paths below the credential's root path, and creating them. Dropbox creates missing
// parents with the folder, so one call makes the whole path.

/** "/ECFX/Smith v Jones/2026": the root path's and the request's segments, each a name Dropbox accepts. */
export function folderPath(rootPath: string, segments: string[]): string {
  const parts = [...rootPath.split("/"), ...segments].map((part) => part.trim()).filter((part) => part !== "");
  return parts.map((part) => `/${dropboxSegment(part)}`).join("");
}

/** The folder part of a path: "/a/b.pdf" → "/a", "/b.pdf" → "". */
export const parentOf = (path: string) => path.slice(0, path.lastIndexOf("/"));

const isNotFound = (error: unknown) => error instanceof DropboxRefusal && error.status === 409 && /^path\/not_found/.test(error.summary);

/** The metadata at `path`, or null when nothing is there. */
export async function metadataOrNull(client: DropboxClient, path: string, templateId?: string): Promise<z.infer<typeof metadata> | null> {
  try {
    return await client.call(`looking up ${path}`, metadata, (dropbox) =>
      dropbox.filesGetMetadata({ path, ...(templateId ? { include_property_groups: { ".tag": "filter_some", filter_some: [templateId] } } : {}) }),
    );
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Creates the folder (and any missing parent); true when it was created, false when it was there. */
export async function ensureFolder(client: DropboxClient, path: string): Promise<boolean> {
  if (path === "") return false;
  try {
    await client.call(`creating the folder ${path}`, unread, (dropbox) => dropbox.filesCreateFolderV2({ path, autorename: false }));
    return true;
  } catch (error) {
    if (error instanceof DropboxRefusal && /^path\/conflict\/folder/.test(error.summary)) return false;
    throw error;
  }
}

/** The entries directly in a folder (the first page: enough to say the folder can be read). */
export async function listFolder(client: DropboxClient, path: string): Promise<z.infer<typeof folderListing> | null> {
  try {
    return await client.call(`listing ${path || "the root folder"}`, folderListing, (dropbox) => dropbox.filesListFolder({ path, limit: 2000 }));
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}
