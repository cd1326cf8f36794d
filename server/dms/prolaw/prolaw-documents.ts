import { randomBytes } from "node:crypto";
import { PROLAW_KIND, type ProLawApi } from "./prolaw-api";
import type { DocumentProfile } from "./prolaw-profile";
import { type ProLawDocument, itemsOf, proLawDocumentSchema } from "./prolaw-types";
import { DmsTargetError } from "../dms-target";

// A matter's documents: the names taken in one folder, the copy an earlier attempt left (found by
// its ExternalReference), and the upload of a profile and its file in one multipart request, so
// ProLaw holds the whole document or none of it.

const documentsPath = (mattersId: string) => `matters/${encodeURIComponent(mattersId)}/documents`;

export async function namesIn(api: ProLawApi, mattersId: string, folderId: string | null): Promise<string[]> {
  const list = await api.get(documentsPath(mattersId), "to list the documents of the matter", itemsOf(proLawDocumentSchema), {
    folderId: folderId ?? undefined,
  });
  return list.Items.map((document) => document.FileName);
}

export async function findByReference(api: ProLawApi, reference: string): Promise<ProLawDocument | null> {
  const list = await api.get("documents", "to look for an earlier copy", itemsOf(proLawDocumentSchema), { externalReference: reference });
  return list.Items.find((document) => document.ExternalReference === reference) ?? null;
}

/** multipart/form-data with the profile as a JSON part and the file as a binary part. */
function multipart(profile: DocumentProfile, bytes: Buffer, contentType: string): { body: Buffer; contentType: string } {
  const boundary = `ecfx-${randomBytes(12).toString("hex")}`;
  // The file name in the header is informative only (the profile names the document): kept ASCII.
  const asciiName = profile.FileName.replace(/[^\x20-\x7e]|"/g, "_");
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="profile"\r\nContent-Type: application/json\r\n\r\n`),
    Buffer.from(JSON.stringify(profile), "utf8"),
    Buffer.from(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${asciiName}"\r\nContent-Type: ${contentType || "application/octet-stream"}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The created document; "taken" when the folder already holds the name (ProLaw's 409). */
export async function upload(
  api: ProLawApi,
  mattersId: string,
  profile: DocumentProfile,
  bytes: Buffer,
  contentType: string,
): Promise<ProLawDocument | "taken"> {
  const { body, contentType: type } = multipart(profile, bytes, contentType);
  const created = await api.send(
    documentsPath(mattersId),
    `the upload of ${profile.FileName}`,
    proLawDocumentSchema,
    { method: "POST", body, contentType: type },
    [409],
  );
  if (!created) return "taken";
  if (!created.DocumentId) throw new DmsTargetError(PROLAW_KIND, "ProLaw answered the upload without a document id", false);
  return created;
}
