import { DmsTargetError } from "../dms-target";
import { PROLAW_KIND, type ProLawApi } from "./prolaw-api";
import { type ProLawFolder, itemsOf, proLawFolderSchema } from "./prolaw-types";

// The storage policy's folder segments as the matter's document folders, found by name (without
// case, as Windows compares them) one level at a time, and created when missing on a write. A
// 409 on creation means a concurrent filing made it first: it is looked up again.

export interface ResolvedFolder {
  /** null: the matter's top level. */
  id: string | null;
  created: boolean;
}

const foldersPath = (mattersId: string) => `matters/${encodeURIComponent(mattersId)}/folders`;

async function childNamed(api: ProLawApi, mattersId: string, parent: string | null, name: string): Promise<ProLawFolder | undefined> {
  const list = await api.get(foldersPath(mattersId), `to list the folders of the matter`, itemsOf(proLawFolderSchema), { parentFolderId: parent ?? undefined });
  return list.Items.find((folder) => folder.Name.toLowerCase() === name.toLowerCase());
}

/** The folder at `segments` below the matter's top; null when it is missing and `create` is off. */
export async function resolveFolder(api: ProLawApi, mattersId: string, segments: string[], create: boolean): Promise<ResolvedFolder | null> {
  let parent: string | null = null;
  let created = false;
  for (const name of segments) {
    let folder = await childNamed(api, mattersId, parent, name);
    if (!folder && !create) return null;
    if (!folder) {
      const made: ProLawFolder | null = await api.send(
        foldersPath(mattersId),
        `to create the folder ${name}`,
        proLawFolderSchema,
        { method: "POST", json: { Name: name, ParentFolderId: parent } },
        [409],
      );
      if (made) created = true;
      // 409: a concurrent filing made it first.
      folder = made ?? (await childNamed(api, mattersId, parent, name));
      if (!folder) throw new DmsTargetError(PROLAW_KIND, `ProLaw refused to create the folder ${name}: it exists, yet is not listed`, true);
    }
    parent = folder.FolderId;
  }
  if (segments.length > 0 && parent === null) throw new DmsTargetError(PROLAW_KIND, "ProLaw answered a folder without an id", false);
  return { id: parent, created };
}
