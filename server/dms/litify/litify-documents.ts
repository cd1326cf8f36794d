import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Connection } from "jsforce/lib/connection.js";
import { DmsTargetError } from "../dms-target";
import { LITIFY_KIND } from "./litify-errors";
import { query } from "./litify-matters";
import { soqlString } from "./litify-soql";

// A filed document is a Salesforce File: a ContentVersion inserted with FirstPublishLocationId =
// the matter's Id, so its ContentDocument is linked to the matter and listed in its Files.
// Salesforce has no folders on a record: the policy's folder path leads the title
// ("2_24-cv-00501 / 0 Order"), so the matter's files sort and read by it. The filing's
// idempotency key and content hash are kept in ReasonForChange (a filterable text field) and an
// attempt's copy is found again by it. The policy's document properties go into Description.
// Bodies up to JSON_LIMIT_BYTES are sent base64 in JSON, larger ones as multipart (the REST
// API's "Insert or Update Blob Data": 37.5 MB of base64 in JSON, 2 GB for a ContentVersion).

/** Above this many bytes a document is sent multipart (base64 of 10 MB is 13.4 MB, far below the JSON limit). */
export const JSON_LIMIT_BYTES = 10 * 1024 * 1024;
/** The largest ContentVersion Salesforce takes. */
export const MAX_CONTENT_BYTES = 2 * 1024 * 1024 * 1024;

const TITLE_MAX = 255;
const PATH_MAX = 255;
const DESCRIPTION_MAX = 1000;
export const FOLDER_SEPARATOR = " / ";

/** Control characters never make a title; "/" and "\" would read as folders in a name. */
const clean = (text: string) =>
  text
    .replace(/\p{Cc}/gu, " ")
    .replace(/\s+/g, " ")
    .trim();

/** The file name (PathOnClient): the document's name and extension, without folder characters. */
export function pathOnClient(name: string, extension: string): string {
  const ext = clean(extension).replace(/[\\/.]/g, "");
  const base = clean(name).replace(/[\\/]/g, "_") || "document";
  const room = PATH_MAX - (ext ? ext.length + 1 : 0);
  return ext ? `${base.slice(0, room)}.${ext}` : base.slice(0, room);
}

/** The title: the folder path, then the name; folders are shortened from the front when it is too long. */
export function documentTitle(folder: string[], name: string): string {
  const own = clean(name).slice(0, TITLE_MAX) || "document";
  const parts = folder.map(clean).filter(Boolean);
  while (parts.length > 0 && [...parts, own].join(FOLDER_SEPARATOR).length > TITLE_MAX) parts.shift();
  return [...parts, own].join(FOLDER_SEPARATOR);
}

/** What ReasonForChange holds for one filing: the same on every attempt, another for any other document. */
export const filingMarker = (idempotencyKey: string, contentHash: string) => `ECFX filing ${idempotencyKey} sha256:${contentHash}`;

/** The policy's document properties as "name: value" lines. */
export function propertiesText(properties: Record<string, string>): string {
  const lines = Object.entries(properties).map(([key, value]) => `${clean(key)}: ${clean(value)}`);
  return lines.join("\n").slice(0, DESCRIPTION_MAX);
}

export interface NewVersion {
  Title: string;
  PathOnClient: string;
  FirstPublishLocationId: string;
  ReasonForChange: string;
  Description?: string;
}

/** Salesforce's answer to an insert ({ id, success, errors }); anything else reads as no id, which fails the filing in words. */
const saveAnswerSchema = z.object({ id: z.string().optional(), success: z.boolean().optional(), errors: z.array(z.unknown()).optional() });
type SaveAnswer = z.infer<typeof saveAnswerSchema>;

/** The ContentDocument of a filing's earlier copy, found by its marker, or null. */
export async function findByMarker(connection: Connection, marker: string): Promise<string | null> {
  const rows = await query<{ ContentDocumentId: string }>(
    connection,
    `SELECT Id, ContentDocumentId FROM ContentVersion WHERE ReasonForChange = ${soqlString(marker)} LIMIT 1`,
  );
  return rows[0]?.ContentDocumentId ?? null;
}

/** "--b\r\n…": the entity's fields as JSON, then the bytes, as the REST API's multipart insert takes them. */
function multipartBody(fields: NewVersion, bytes: Buffer, contentType: string): { body: Buffer; boundary: string } {
  const boundary = `ecfx-${randomBytes(12).toString("hex")}`;
  const fileName = fields.PathOnClient.replace(/["\r\n]/g, "_");
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="entity_content"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(fields)}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="VersionData"; filename="${fileName}"\r\nContent-Type: ${contentType || "application/octet-stream"}\r\n\r\n`;
  return { body: Buffer.concat([Buffer.from(head, "utf8"), bytes, Buffer.from(`\r\n--${boundary}--\r\n`, "utf8")]), boundary };
}

/** Inserts the ContentVersion; its ContentDocument's Id. */
export async function insertVersion(
  connection: Connection,
  fields: NewVersion,
  bytes: Buffer,
  contentType: string,
  jsonLimitBytes = JSON_LIMIT_BYTES,
): Promise<string> {
  if (bytes.length > MAX_CONTENT_BYTES) {
    throw new DmsTargetError(LITIFY_KIND, `${fields.PathOnClient} is larger than the 2 GB Salesforce takes for a file`, false);
  }
  let saved: SaveAnswer;
  if (bytes.length <= jsonLimitBytes) {
    saved = saveAnswerSchema.catch({}).parse(await connection.sobject("ContentVersion").create({ ...fields, VersionData: bytes.toString("base64") }));
  } else {
    const { body, boundary } = multipartBody(fields, bytes, contentType);
    saved = saveAnswerSchema.catch({}).parse(
      await connection.request({
        method: "POST",
        url: "/sobjects/ContentVersion",
        body,
        headers: { "content-type": `multipart/form-data; boundary="${boundary}"` },
      }),
    );
  }
  if (!saved.id || saved.success === false) {
    throw new DmsTargetError(LITIFY_KIND, `Salesforce did not save ${fields.PathOnClient}: ${JSON.stringify(saved.errors ?? saved)}`, false);
  }
  const rows = await query<{ ContentDocumentId: string }>(connection, `SELECT Id, ContentDocumentId FROM ContentVersion WHERE Id = ${soqlString(saved.id)}`);
  const documentId = rows[0]?.ContentDocumentId;
  if (!documentId) throw new DmsTargetError(LITIFY_KIND, `Salesforce saved ${fields.PathOnClient} but does not show its document`, true);
  return documentId;
}
