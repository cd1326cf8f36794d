import type { BoxClient } from "box-node-sdk";
import { type BoxItem, boxAnswer, created as createdAnswer, folderItems } from "./box-answers";
import { BOX_KIND, nameInUse, toDmsError } from "./box-errors";
import { nameKey } from "./box-names";
import { DmsTargetError } from "../dms-target";

// The credential's folders: request.folder is a path of folder names below the subject's root
// folder (id "0", "All Files"). Box finds a child only by listing its parent, page by page.

export const BOX_ROOT_FOLDER_ID = "0";
/** Box's largest page of folder items. */
const PAGE_SIZE = 1000;

export type { BoxItem } from "./box-answers";

/** Every item of a folder, with `fields` besides type, id and name. */
export async function listItems(client: BoxClient, folderId: string, fields: string[] = []): Promise<BoxItem[]> {
  const items: BoxItem[] = [];
  let marker: string | undefined;
  do {
    const page = await client.folders.getFolderItems(folderId, {
      queryParams: { fields: ["type", "id", "name", ...fields], usemarker: true, limit: PAGE_SIZE, ...(marker ? { marker } : {}) },
    });
    // The raw answer: the fields asked for (metadata above all) as Box sent them.
    const raw = boxAnswer(folderItems, page, `listing folder ${folderId}`);
    items.push(...raw.entries);
    marker = raw.next_marker ?? undefined;
  } while (marker);
  return items;
}

async function childFolder(client: BoxClient, parentId: string, name: string): Promise<string | null> {
  const items = await listItems(client, parentId);
  return items.find((item) => item.type === "folder" && nameKey(item.name) === nameKey(name))?.id ?? null;
}

export interface ResolvedFolder {
  id: string;
  /** Whether a folder of the path was created just now (then Box needs folder_creation_sync_delay). */
  created: boolean;
}

/** The id of the folder at `path` below the root, created where missing; or, without `create`, null when one is missing. */
export async function resolveFolder(client: BoxClient, path: string[], create: true): Promise<ResolvedFolder>;
export async function resolveFolder(client: BoxClient, path: string[], create: false): Promise<ResolvedFolder | null>;
export async function resolveFolder(client: BoxClient, path: string[], create: boolean): Promise<ResolvedFolder | null> {
  let id = BOX_ROOT_FOLDER_ID;
  let created = false;
  for (const [depth, name] of path.entries()) {
    const where = `/${path.slice(0, depth + 1).join("/")}`;
    try {
      const existing = await childFolder(client, id, name);
      if (existing) {
        id = existing;
        continue;
      }
      if (!create) return null;
      id = await createFolder(client, id, name, where);
      created = true;
    } catch (error) {
      throw toDmsError(error, `Box refused to open folder ${where}`);
    }
  }
  return { id, created };
}

/** Creates one folder; when another filing created it first (409), that folder is the one. */
async function createFolder(client: BoxClient, parentId: string, name: string, where: string): Promise<string> {
  try {
    const folder = await client.folders.createFolder({ name, parent: { id: parentId } });
    return boxAnswer(createdAnswer, folder, `creating folder ${where}`).id;
  } catch (error) {
    if (!nameInUse(error)) throw toDmsError(error, `Box refused to create folder ${where}`);
    const raced = await childFolder(client, parentId, name);
    if (raced) return raced;
    throw new DmsTargetError(BOX_KIND, `Box refused to create folder ${where}: a file of that name is in the way`, false, { cause: error });
  }
}
