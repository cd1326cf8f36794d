import type { file_properties, files } from "dropbox";
import type { DropboxClient } from "./dropbox-client";
import { dropboxContentHash } from "./content-hash";
import { type FileMetadata, fileMetadata, unread, uploadSession } from "./dropbox-answers";

// Uploads that never leave half a document: a small file in one files/upload call; a larger one
// through an upload session, whose bytes stay invisible until files/upload_session/finish
// commits them under the name (an abandoned session expires at Dropbox after 7 days). Both
// commit with mode "add" and autorename off, so a taken name is refused, never overwritten or
// renamed, and with Dropbox's content hash, so bytes changed on the way are refused too.

/** Above this a file goes through an upload session. */
export const SESSION_THRESHOLD = 8 * 1024 * 1024;
/** Bytes per session call: a multiple of Dropbox's 4 MiB block. */
export const SESSION_CHUNK = 4 * 1024 * 1024;

export async function uploadFile(client: DropboxClient, path: string, bytes: Buffer, propertyGroups: file_properties.PropertyGroup[]): Promise<FileMetadata> {
  const commit: files.CommitInfo = { path, mode: { ".tag": "add" }, autorename: false, strict_conflict: true, property_groups: propertyGroups };
  const action = `the upload of ${path}`;
  if (bytes.length <= SESSION_THRESHOLD) {
    return client.call(action, fileMetadata, (dropbox) => dropbox.filesUpload({ ...commit, content_hash: dropboxContentHash(bytes), contents: bytes }));
  }
  const first = bytes.subarray(0, SESSION_CHUNK);
  const { session_id } = await client.call(action, uploadSession, (dropbox) =>
    dropbox.filesUploadSessionStart({ close: false, content_hash: dropboxContentHash(first), contents: first }),
  );
  let offset = first.length;
  for (; bytes.length - offset > SESSION_CHUNK; offset += SESSION_CHUNK) {
    const chunk = bytes.subarray(offset, offset + SESSION_CHUNK);
    const cursor = { session_id, offset };
    await client.call(action, unread, (dropbox) =>
      dropbox.filesUploadSessionAppendV2({ cursor, close: false, content_hash: dropboxContentHash(chunk), contents: chunk }),
    );
  }
  const last = bytes.subarray(offset);
  const cursor = { session_id, offset };
  return client.call(action, fileMetadata, (dropbox) =>
    dropbox.filesUploadSessionFinish({ cursor, commit, content_hash: dropboxContentHash(last), contents: last }),
  );
}
