import { DmsLocationTaken, DmsTargetError } from "../dms-target";
import type { GraphApi } from "./graph-api";
import { type DriveItem, type Library, driveItemSchema, uploadSessionSchema } from "./graph-types";

// Puts a file into a folder under exactly one name, never replacing another document
// (conflictBehavior "fail": a 409 is DmsLocationTaken). Up to 4 MB in one PUT; above, through an
// upload session, which creates the file only when its last range arrives: a session that
// fails is deleted, so no half document is left either way.

export const SIMPLE_UPLOAD_LIMIT = 4 * 1024 * 1024;
/** Graph wants ranges in multiples of 320 KiB. */
export const UPLOAD_RANGE_BYTES = 10 * 320 * 1024;

export interface UploadTarget {
  library: Library;
  parentId: string;
  name: string;
  /** The path shown in errors ("Matters/123/Notice.pdf"). */
  location: string;
}

const itemAddress = (target: UploadTarget) =>
  `/drives/${encodeURIComponent(target.library.driveId)}/items/${encodeURIComponent(target.parentId)}:/${encodeURIComponent(target.name)}:`;

export async function uploadFile(api: GraphApi, target: UploadTarget, bytes: Buffer, contentType: string): Promise<DriveItem> {
  if (bytes.length <= SIMPLE_UPLOAD_LIMIT) {
    const response = await api.send({
      method: "PUT",
      path: `${itemAddress(target)}/content?@microsoft.graph.conflictBehavior=fail`,
      bytes,
      contentType: contentType || "application/octet-stream",
      action: `the upload of ${target.location}`,
    });
    if (response.status === 409) {
      await response.body?.cancel();
      throw new DmsLocationTaken(api.kind, target.location);
    }
    return api.read(response, `the upload of ${target.location}`, driveItemSchema);
  }
  return uploadInSession(api, target, bytes);
}

async function uploadInSession(api: GraphApi, target: UploadTarget, bytes: Buffer): Promise<DriveItem> {
  const action = `the upload of ${target.location}`;
  const session = await api.json(
    {
      method: "POST",
      path: `${itemAddress(target)}/createUploadSession`,
      json: { item: { "@microsoft.graph.conflictBehavior": "fail", name: target.name } },
      action,
    },
    uploadSessionSchema,
  );
  const uploadUrl = new URL(session.uploadUrl);
  try {
    for (let start = 0; ; start += UPLOAD_RANGE_BYTES) {
      const end = Math.min(start + UPLOAD_RANGE_BYTES, bytes.length);
      // The upload URL carries its own authorisation: no bearer token goes with it.
      const response = await api.sendTo(uploadUrl, {
        method: "PUT",
        headers: { "content-range": `bytes ${start}-${end - 1}/${bytes.length}`, "content-length": String(end - start) },
        body: bytes.subarray(start, end),
      });
      if (response.status === 409) {
        await response.body?.cancel();
        throw new DmsLocationTaken(api.kind, target.location);
      }
      if (!response.ok) throw await api.refusal(response, action);
      if (end === bytes.length) {
        if (response.status !== 200 && response.status !== 201) throw new DmsTargetError(api.kind, `SharePoint did not finish ${action}`, true);
        return api.wire.http.answer(response, driveItemSchema, action);
      }
      await response.body?.cancel();
    }
  } catch (error) {
    await api.sendTo(uploadUrl, { method: "DELETE" }).then(
      (response) => response.body?.cancel(),
      () => undefined,
    );
    throw error;
  }
}

/** Removes a file this attempt uploaded but could not finish describing, so no half-filed document stays. */
export async function removeItem(api: GraphApi, library: Library, itemId: string): Promise<void> {
  const response = await api.send({
    method: "DELETE",
    path: `/drives/${encodeURIComponent(library.driveId)}/items/${encodeURIComponent(itemId)}`,
    action: "removing the unfinished upload",
  });
  await response.body?.cancel();
}
