import { type Container, listAll, sameContainer } from "./clio-lists";
import type { ClioSession } from "./clio-session";

// The policy's folder path below the matter: each segment a Clio folder inside the one before,
// the first inside the matter itself. Clio's folder search (`query`) is a wildcard over names, so
// the answer is narrowed here to the exact name in the exact parent. Missing folders are created
// only when a document is written; the caller then waits folder_creation_sync_delay.

interface ClioFolder {
  id: number;
  name: string;
  parent?: { id?: unknown; type?: unknown } | null;
}

async function childFolder(session: ClioSession, matterId: number, parent: Container, name: string): Promise<number | null> {
  const found = await listAll<ClioFolder>(
    session,
    "/api/v4/folders.json",
    { matter_id: matterId, query: name, fields: "id,name,parent{id,type}" },
    `the search for folder ${name}`,
  );
  // Clio compares names without regard to case.
  return found.find((folder) => folder.name.toLowerCase() === name.toLowerCase() && sameContainer(folder.parent, parent))?.id ?? null;
}

async function createFolder(session: ClioSession, parent: Container, name: string): Promise<number> {
  const answer = (await session.call(
    "/api/v4/folders.json",
    {
      method: "POST",
      query: { fields: "id,name" },
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ data: { name, parent: { id: parent.id, type: parent.type } } }),
    },
    `to create folder ${name}`,
  )) as { data?: { id?: number } } | null;
  return Number(answer?.data?.id);
}

/**
 * The container of `folder` below the matter: null when a segment is missing and `create` is
 * false; `created` tells whether any folder was made.
 */
export async function resolveFolders(
  session: ClioSession,
  matterId: number,
  folder: string[],
  create: boolean,
): Promise<{ container: Container; created: boolean } | null> {
  let container: Container = { id: matterId, type: "Matter" };
  let created = false;
  for (const name of folder) {
    let id = await childFolder(session, matterId, container, name);
    if (id === null) {
      if (!create) return null;
      id = await createFolder(session, container, name);
      created = true;
    }
    container = { id, type: "Folder" };
  }
  return { container, created };
}
