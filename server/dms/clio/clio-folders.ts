import { z } from "zod";
import { inFolder, listAll, parentSchema, parseAnswer } from "./clio-lists";
import type { ClioSession } from "./clio-session";

// The policy's folder path below the matter: each segment a Clio folder inside the one before,
// the first inside the matter's own folder (Matter.folder). Clio reports every item's parent as
// a Folder, the matter's top level included, so segments are matched by folder id, never by a
// parent of type Matter. Clio's folder search (`query`) is a wildcard over names, so the answer
// is narrowed here to the exact name in the exact parent. Missing folders are created only when
// a document is written; the caller then waits folder_creation_sync_delay.

const folderSchema = z.object({ id: z.number(), name: z.string(), parent: parentSchema });
const createdSchema = z.object({ data: z.object({ id: z.number() }).passthrough() });

async function childFolder(session: ClioSession, matterId: number, parentId: number, name: string): Promise<number | null> {
  const found = await listAll(
    session,
    "/api/v4/folders.json",
    { matter_id: matterId, query: name, fields: "id,name,parent{id,type}" },
    `the search for folder ${name}`,
    folderSchema,
  );
  // Clio compares names without regard to case.
  return found.find((folder) => folder.name.toLowerCase() === name.toLowerCase() && inFolder(folder.parent, parentId))?.id ?? null;
}

async function createFolder(session: ClioSession, parentId: number, name: string): Promise<number> {
  const answer = await session.call(
    "/api/v4/folders.json",
    {
      method: "POST",
      query: { fields: "id,name" },
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ data: { name, parent: { id: parentId, type: "Folder" } } }),
    },
    `to create folder ${name}`,
  );
  return parseAnswer(createdSchema, answer, `the new folder ${name}`).data.id;
}

/**
 * The folder id of `folder` below the matter's own folder `matterFolderId`: null when a segment is
 * missing and `create` is false; `created` tells whether any folder was made.
 */
export async function resolveFolders(
  session: ClioSession,
  matter: { id: number; folderId: number },
  folder: string[],
  create: boolean,
): Promise<{ container: number; created: boolean } | null> {
  let container = matter.folderId;
  let created = false;
  for (const name of folder) {
    let id = await childFolder(session, matter.id, container, name);
    if (id === null) {
      if (!create) return null;
      id = await createFolder(session, container, name);
      created = true;
    }
    container = id;
  }
  return { container, created };
}
