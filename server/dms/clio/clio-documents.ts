import { type ClioConnection, refusal, send } from "./clio-http";
import { z } from "zod";
import { inFolder, listAll, parentSchema, parseAnswer } from "./clio-lists";
import type { ClioSession } from "./clio-session";

// Clio's three-step upload (developers.clio.com, "Documents: multipart upload"): create the
// document with its name and parent, PUT the bytes to the put_url Clio answers with its
// put_headers, then mark the version fully_uploaded. The filing's idempotency key travels as the
// document's external property FILING_PROPERTY, which Clio's document list filters by, so a retry
// finds what an interrupted attempt made: a finished copy is adopted, a half-uploaded one deleted
// and uploaded again.

export const FILING_PROPERTY = "ecfx_filing";

const propertySchema = z.object({ name: z.string(), value: z.string().nullish() }).passthrough();
const documentSchema = z.object({
  id: z.number(),
  name: z.string(),
  parent: parentSchema,
  external_properties: z.array(propertySchema).nullish(),
  latest_document_version: z.object({ uuid: z.string().optional(), fully_uploaded: z.boolean().optional() }).passthrough().nullish(),
});

export type ClioDocument = z.infer<typeof documentSchema>;

const DOCUMENTS = "/api/v4/documents.json";

/**
 * Names of the documents in folder `container` that look like `stem` (Clio's wildcard search),
 * half-uploaded ones included, except what an earlier attempt of this filing left (it is
 * replaced, not avoided).
 */
export async function namesIn(session: ClioSession, matterId: number, container: number, stem: string, key: string): Promise<string[]> {
  const found = await listAll(
    session,
    DOCUMENTS,
    { matter_id: matterId, query: stem, show_uncompleted: true, fields: "id,name,parent{id,type},external_properties{name,value}" },
    "the list of the matter's documents",
    documentSchema,
  );
  const ours = (document: ClioDocument) => (document.external_properties ?? []).some((property) => property.name === FILING_PROPERTY && property.value === key);
  return found.filter((document) => inFolder(document.parent, container) && !ours(document)).map((document) => document.name);
}

/** The documents an attempt of this filing made. */
export async function documentsOfFiling(session: ClioSession, key: string): Promise<ClioDocument[]> {
  return listAll(
    session,
    DOCUMENTS,
    {
      external_property_name: FILING_PROPERTY,
      external_property_value: key,
      show_uncompleted: true,
      fields: "id,name,parent{id,type},latest_document_version{uuid,fully_uploaded}",
    },
    "the search for an earlier attempt's document",
    documentSchema,
  );
}

export async function deleteDocument(session: ClioSession, id: number): Promise<void> {
  await session.call(`/api/v4/documents/${id}.json`, { method: "DELETE" }, "to delete a half-uploaded document");
}

const createdSchema = z.object({
  data: z.object({
    id: z.number(),
    latest_document_version: z.object({
      uuid: z.string().min(1),
      put_url: z.string().url(),
      put_headers: z.array(z.object({ name: z.string(), value: z.string().nullish() })).nullish(),
    }),
  }),
});

export interface Upload {
  /** The folder the document goes into. */
  container: number;
  name: string;
  contentType: string;
  bytes: Buffer;
  key: string;
}

/** Creates, sends and completes one document; its id. */
export async function uploadDocument(session: ClioSession, connection: ClioConnection, upload: Upload): Promise<number> {
  const answer = await session.call(
    DOCUMENTS,
    {
      method: "POST",
      query: { fields: "id,latest_document_version{uuid,put_url,put_headers}" },
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        data: {
          name: upload.name,
          parent: { id: upload.container, type: "Folder" },
          content_type: upload.contentType,
          external_properties: [{ name: FILING_PROPERTY, value: upload.key }],
        },
      }),
    },
    "the new document",
  );
  const { id, latest_document_version: version } = parseAnswer(createdSchema, answer, "the new document (a place to upload it)").data;

  const headers: Record<string, string> = {};
  for (const header of version.put_headers ?? []) headers[header.name] = header.value ?? "";
  // The put_url carries its own signature: no Clio token goes with the bytes.
  const put = await send(connection, version.put_url, { method: "PUT", headers, body: upload.bytes });
  if (!put.ok) throw await refusal(connection, put, "the document's bytes");
  await put.body?.cancel();

  await session.call(
    `/api/v4/documents/${id}.json`,
    {
      method: "PATCH",
      query: { fields: "id,latest_document_version{fully_uploaded}" },
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ data: { uuid: version.uuid, fully_uploaded: true } }),
    },
    "to complete the upload",
  );
  return id;
}
