import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import type { BoxClient } from "box-node-sdk";
import type { ByteStream } from "box-node-sdk/lib/internal/utils";
import { BoxCallError, nameInUse } from "./box-errors";
import { type BoxItem, listItems } from "./box-folders";
import { boxAnswer, uploadSession, uploadedFiles } from "./box-answers";
import { METADATA_SCOPE, METADATA_TEMPLATE } from "./box-metadata";
import type { VendorContext } from "../vendor-target";
import { GuardedBoxNetworkClient } from "./box-session";

// Getting bytes into Box without ever showing a half document under its final name: the file is
// uploaded under a temporary name marked with the filing (one multipart upload, or above
// CHUNKED_UPLOAD_BYTES an upload session that Box assembles only on commit and that is aborted on
// failure), given its metadata, and only then renamed to the intended name. The rename fails
// when the name was taken meanwhile, so a document is never overwritten; whatever fails after the
// upload deletes the temporary file. A crash between upload and rename leaves the temporary file,
// which the filing's next attempt removes.

/** Box takes upload sessions from 20 MB on; below that one multipart upload is the cheaper call. */
export const CHUNKED_UPLOAD_BYTES = 20 * 1024 * 1024;
const TEMPORARY_PREFIX = ".ecfx-";

/** The mark of the temporary uploads of one filing. */
export const temporaryTag = (idempotencyKey: string): string => createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 16);

/** Whether a name is one of the temporary names uploads go up under (never a filed document). */
export const isTemporaryName = (name: string): boolean => name.startsWith(TEMPORARY_PREFIX) && name.endsWith(".upload");

const stream = (bytes: Buffer) => Readable.from([bytes]) as unknown as ByteStream;

/** Removes what an attempt of this filing cut short left behind. */
export async function removeLeftovers(client: BoxClient, folderId: string, idempotencyKey: string): Promise<void> {
  const prefix = `${TEMPORARY_PREFIX}${temporaryTag(idempotencyKey)}-`;
  const leftovers = (await listItems(client, folderId)).filter(
    (item: BoxItem) => item.type === "file" && item.name.startsWith(prefix) && isTemporaryName(item.name),
  );
  for (const item of leftovers) await client.files.deleteFileById(item.id);
}

/**
 * How many times one attempt commits a session Box is still assembling (202), and the longest
 * wait between two commits: past that the attempt gives up and the session is aborted.
 */
const MAX_COMMITS = 10;
const MAX_COMMIT_WAIT_MS = 60_000;
/** Box's documented default when a 202 names no Retry-After. */
const DEFAULT_COMMIT_WAIT_MS = 5_000;

/** Box's digest header: "sha=" and the base64 SHA-1. */
const digest = (bytes: Buffer) => `sha=${createHash("sha1").update(bytes).digest("base64")}`;

async function uploadInParts(client: BoxClient, ctx: VendorContext, folderId: string, name: string, bytes: Buffer): Promise<string> {
  const session = boxAnswer(
    uploadSession,
    await client.chunkedUploads.createFileUploadSession({ fileName: name, fileSize: bytes.length, folderId }),
    "the upload session",
  );
  const { session_endpoints: sent, part_size: partSize } = session;
  const endpoints = { uploadPart: sent.upload_part, commit: sent.commit, abort: sent.abort };
  try {
    const parts = [];
    for (let offset = 0; offset < bytes.length; offset += partSize) {
      const chunk = bytes.subarray(offset, Math.min(offset + partSize, bytes.length));
      const range = `bytes ${offset}-${offset + chunk.length - 1}/${bytes.length}`;
      const uploaded = await client.chunkedUploads.uploadFilePartByUrl(endpoints.uploadPart, stream(chunk), { digest: digest(chunk), contentRange: range });
      if (uploaded.part) parts.push(uploaded.part);
    }
    // 202 (the SDK answers undefined): Box is still processing the parts. The same session is
    // committed again after the wait Box asks for; starting over would only add to its work.
    const network = client.networkSession?.networkClient;
    for (let commit = 1; ; commit++) {
      const committed = await client.chunkedUploads.createFileUploadSessionCommitByUrl(endpoints.commit, { parts }, { digest: digest(bytes) });
      if (committed) return boxAnswer(uploadedFiles, committed, "the upload's commit").entries[0]!.id;
      const asked = network instanceof GuardedBoxNetworkClient ? network.retryAfterAccepted(endpoints.commit) : undefined;
      if (commit >= MAX_COMMITS)
        throw new BoxCallError(503, "upload_not_committed", `Box had not finished assembling the upload after ${commit} commits`, asked, false);
      await ctx.sleep(Math.min(asked ?? DEFAULT_COMMIT_WAIT_MS, MAX_COMMIT_WAIT_MS));
    }
  } catch (error) {
    await client.chunkedUploads.deleteFileUploadSessionByUrl(endpoints.abort).catch(() => undefined);
    throw error;
  }
}

async function uploadTemporary(client: BoxClient, ctx: VendorContext, folderId: string, name: string, bytes: Buffer, contentType: string): Promise<string> {
  if (bytes.length >= CHUNKED_UPLOAD_BYTES) return uploadInParts(client, ctx, folderId, name, bytes);
  const files = await client.uploads.uploadFile({
    attributes: { name, parent: { id: folderId } },
    file: stream(bytes),
    fileFileName: name,
    fileContentType: contentType || "application/octet-stream",
  });
  return boxAnswer(uploadedFiles, files, "the upload").entries[0]!.id;
}

export interface UploadRequest {
  folderId: string;
  name: string;
  bytes: Buffer;
  contentType: string;
  metadata: Record<string, string>;
  idempotencyKey: string;
}

/** The outcome: the file's id, or "taken" when another document has the name (nothing is left behind then). */
export async function uploadUnderName(client: BoxClient, ctx: VendorContext, request: UploadRequest): Promise<{ id: string } | "taken"> {
  const temporary = `${TEMPORARY_PREFIX}${temporaryTag(request.idempotencyKey)}-${randomBytes(6).toString("hex")}.upload`;
  const id = await uploadTemporary(client, ctx, request.folderId, temporary, request.bytes, request.contentType);
  let step = "metadata";
  try {
    await client.fileMetadata.createFileMetadataById(id, METADATA_SCOPE, METADATA_TEMPLATE, request.metadata);
    step = "rename";
    await client.files.updateFileById(id, { requestBody: { name: request.name } });
    return { id };
  } catch (error) {
    await client.files.deleteFileById(id).catch(() => undefined);
    if (step === "rename" && nameInUse(error)) return "taken";
    throw error;
  }
}
