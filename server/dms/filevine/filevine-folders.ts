import { DmsTargetError } from "../dms-target";
import { FILEVINE_KIND } from "./filevine-http";
import { fileVineSafeName } from "./filevine-names";
import type { FileVineProject } from "./filevine-projects";
import { folderAnswer, folderList } from "./filevine-schemas";
import type { FileVineSession } from "./filevine-session";

// A project's document folders: the storage policy's folder path, segment by segment, below the
// project's root documents folder. FileVine lists a project's whole folder structure at once
// (GET /Folders/list?projectId=…) and creates one folder at a time (POST /Folders with a
// `Folder`: its project, parent and name, not archived).

interface Folder {
  id: string;
  parentId: string | null;
  name: string;
}

const PAGE = 1000;

async function projectFolders(session: FileVineSession, projectId: string): Promise<Folder[]> {
  const folders: Folder[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await session.call("/Folders/list", { query: { projectId, limit: PAGE, offset } }, "to list the project's folders", folderList);
    for (const item of page.Items) if (item.IsArchived !== true) folders.push({ id: item.FolderId, parentId: item.ParentId, name: item.Name });
    if (!page.HasMore || page.Items.length === 0) return folders;
  }
}

/** The project's root documents folder: the one FileVine names, else the folder without a parent. */
function rootOf(project: FileVineProject, folders: Folder[]): string {
  if (project.rootFolderId) return project.rootFolderId;
  const root = folders.find((folder) => !folder.parentId || folder.parentId === "0");
  if (!root) throw new DmsTargetError(FILEVINE_KIND, `FileVine did not say which folder holds project ${project.number || project.id}'s documents`, false);
  return root.id;
}

export interface ResolvedFolder {
  /** The folder the document goes into, or null when a segment is missing and nothing was created. */
  id: string | null;
  created: boolean;
}

/** The folder at `path` below the project's root, created segment by segment when `create`. */
export async function resolveFolder(session: FileVineSession, project: FileVineProject, path: string[], create: boolean): Promise<ResolvedFolder> {
  const folders = await projectFolders(session, project.id);
  let current = rootOf(project, folders);
  let created = false;
  for (const segment of path.map(fileVineSafeName)) {
    const existing = folders.find((folder) => folder.parentId === current && folder.name.toLowerCase() === segment.toLowerCase());
    if (existing) {
      current = existing.id;
      continue;
    }
    if (!create) return { id: null, created: false };
    const { FolderId: id } = await session.call(
      "/Folders",
      { method: "POST", json: { ProjectId: { Native: Number(project.id) }, ParentId: { Native: Number(current) }, Name: segment, IsArchived: false } },
      `to create folder "${segment}"`,
      folderAnswer,
    );
    folders.push({ id, parentId: current, name: segment });
    current = id;
    created = true;
  }
  return { id: current, created };
}
