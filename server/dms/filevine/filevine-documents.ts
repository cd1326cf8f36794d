import { DmsTargetError } from "../dms-target";
import { FILEVINE_KIND, refusal, send } from "./filevine-http";
import { documentAnswer, documentList, uploadLocator } from "./filevine-schemas";
import type { FileVineSession } from "./filevine-session";

// A project's documents and FileVine's upload, as its API v2 reference describes it: ask for an
// upload address (POST /Documents with the file's name and size, its project and folder: a
// document id and an address on Amazon S3), PUT the bytes there, add the document to the project
// (POST /Projects/<project>/Documents/<document>?folderId=<folder>, no body: only this step puts
// it in the project), then set its hashtags (PATCH /Documents/<document> with `Hashtags`, which
// replaces the document's tags). A document whose upload was cut short is never seen in the project.

export interface FileVineDocument {
  id: string;
  name: string;
  uploaderId: string | null;
  hashtags: string[];
}

const PAGE = 1000;

/** The documents of one folder of the project. */
export async function folderDocuments(session: FileVineSession, projectId: string, folderId: string): Promise<FileVineDocument[]> {
  const documents: FileVineDocument[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await session.call("/Documents", { query: { projectId, folderId, limit: PAGE, offset } }, "to list the folder's documents", documentList);
    for (const item of page.Items) documents.push({ id: item.DocumentId, name: item.Filename, uploaderId: item.UploaderId, hashtags: item.Hashtags });
    if (!page.HasMore || page.Items.length === 0) return documents;
  }
}

export interface Upload {
  projectId: string;
  folderId: string;
  name: string;
  bytes: Buffer;
  contentType: string;
  hashtags: string[];
}

/** Sets a document's hashtags (all of them: FileVine replaces the document's tags with these). */
export async function tagDocument(session: FileVineSession, documentId: string, hashtags: string[]): Promise<void> {
  await session.call(
    `/Documents/${encodeURIComponent(documentId)}`,
    { method: "PATCH", json: { Hashtags: hashtags } },
    "to set the document's hashtags",
    documentAnswer,
  );
}

/** Uploads the bytes, adds the document to the project's folder and tags it; its document id. */
export async function uploadDocument(session: FileVineSession, upload: Upload): Promise<string> {
  const placed = await session.call(
    "/Documents",
    {
      method: "POST",
      json: {
        Filename: upload.name,
        Size: upload.bytes.length,
        ProjectId: { Native: Number(upload.projectId) },
        FolderId: { Native: Number(upload.folderId) },
      },
    },
    "the upload",
    uploadLocator,
  );
  // The address is signed for the content type FileVine answered: the bytes go up under it.
  const contentType = placed.ContentType || upload.contentType || "application/octet-stream";
  const put = await send(session.ctx, session.hosts, new URL(placed.Url), {
    method: "PUT",
    headers: { "content-type": contentType, accept: "*/*" },
    body: upload.bytes,
  });
  if (!put.ok) throw await refusal(session.ctx, put, "the document's bytes");
  await put.body?.cancel();

  const added = await session.call(
    `/Projects/${encodeURIComponent(upload.projectId)}/Documents/${encodeURIComponent(placed.DocumentId)}`,
    { method: "POST", query: { folderId: upload.folderId } },
    "to add the document to the project",
    documentAnswer,
  );
  if (added.DocumentId !== placed.DocumentId)
    throw new DmsTargetError(FILEVINE_KIND, `FileVine added document ${added.DocumentId} to the project, not ${placed.DocumentId}`, false);
  await tagDocument(session, placed.DocumentId, upload.hashtags);
  return placed.DocumentId;
}
