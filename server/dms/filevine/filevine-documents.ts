import { DmsTargetError } from "../dms-target";
import { FILEVINE_KIND, field, nativeId, pageOf, refusal, send } from "./filevine-http";
import type { FileVineSession } from "./filevine-session";

// A project's documents and FileVine's three-step upload: ask for an upload address for the
// file (POST /Documents with its name and size: a document id and a short-lived address on
// Amazon S3), PUT the bytes there, then add the document to the project's folder with its
// hashtags (POST /Projects/<project>/Documents/<document>). Only that last step puts the document
// in the project, so a document whose upload was cut short is never seen in it.

export interface FileVineDocument {
  id: string;
  name: string;
  folderId: string | null;
  hashtags: string[];
}

const PAGE = 1000;

/** The documents of one folder of the project. */
export async function folderDocuments(session: FileVineSession, projectId: string, folderId: string): Promise<FileVineDocument[]> {
  const documents: FileVineDocument[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const answer = await session.call("/Documents", { query: { projectId, folderId, limit: PAGE, offset } }, "to list the folder's documents");
    const page = pageOf(answer);
    for (const item of page.items) {
      const id = nativeId(field(item, "documentId"));
      if (!id) continue;
      const hashtags = field(item, "hashtags");
      documents.push({
        id,
        name: String(field(item, "filename") ?? ""),
        folderId: nativeId(field(item, "folderId")),
        hashtags: Array.isArray(hashtags) ? hashtags.map((tag) => String(tag).replace(/^#+/, "").toLowerCase()) : [],
      });
    }
    if (!page.hasMore || page.items.length === 0) return documents;
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

/** Uploads the bytes and adds the document to the project's folder; its document id. */
export async function uploadDocument(session: FileVineSession, upload: Upload): Promise<string> {
  const size = upload.bytes.length;
  const placed = await session.call("/Documents", { method: "POST", json: { filename: upload.name, size } }, "the upload");
  const documentId = nativeId(field(placed, "documentId"));
  const address = field(placed, "url");
  if (!documentId || typeof address !== "string" || !address) {
    throw new DmsTargetError(FILEVINE_KIND, "FileVine did not give an upload address for the document", false);
  }
  let target: URL;
  try {
    target = new URL(address);
  } catch (error) {
    throw new DmsTargetError(FILEVINE_KIND, "FileVine gave an upload address that is not a URL", false, { cause: error });
  }
  // The address is signed for the content type FileVine answered: the bytes go up under it.
  const contentType = String(field(placed, "contentType") || upload.contentType || "application/octet-stream");
  const put = await send(session.ctx, session.hosts, target, {
    method: "PUT",
    headers: { "content-type": contentType, accept: "*/*" },
    body: upload.bytes,
  });
  if (!put.ok) throw await refusal(session.ctx, put, "the document's bytes");
  await put.body?.cancel();

  await session.call(
    `/Projects/${encodeURIComponent(upload.projectId)}/Documents/${encodeURIComponent(documentId)}`,
    {
      method: "POST",
      json: {
        documentId: { native: Number(documentId) },
        projectId: { native: Number(upload.projectId) },
        folderId: { native: Number(upload.folderId) },
        filename: upload.name,
        size,
        uploadDate: new Date(session.ctx.now()).toISOString(),
        hashtags: upload.hashtags,
      },
    },
    "to add the document to the project",
  );
  return documentId;
}
