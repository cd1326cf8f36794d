import { type Kysely, sql } from "kysely";
import sanitizeFilename from "sanitize-filename";
import type { FirmRecord } from "../../app/common/firm-schema";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { signPublicLink } from "./public-link";

// What a mail about one notice carries, by delivery method:
//   PDF               the fetched documents attached up to the firm's size limit, the rest linked
//   WEB_LINK          links only
//   DMS_LINK          links to the filed copies in the DMS; web links where none was filed
//   PDF_AND_DMS_LINK  attachments as PDF, plus DMS links
// (*_NO_EMAIL methods send nothing; see planNotifications.)

export interface DeliveryDocument {
  id: string;
  number: number;
  name: string;
  /** Blob of the fetched bytes; null when the document was not fetched. */
  fileId: string | null;
  size: number;
  contentType: string;
  /** The DMS record of a filed copy, when the storage step filed one. */
  dmsRecordId: string | null;
  /** The vendor DMS's own link to the filed copy (iManage, NetDocuments, SharePoint, Box, Dropbox), when it gave one. */
  dmsLink: string | null;
}

export interface ChosenDelivery {
  attached: DeliveryDocument[];
  links: { document: DeliveryDocument; kind: "web" | "dms" }[];
  bytes: number;
}

const attaches = (method: string) => method === "PDF" || method === "PDF_AND_DMS_LINK" || method === "PDF_NO_EMAIL" || method === "PDF_AND_DMS_LINK_NO_EMAIL";
const linksToDms = (method: string) => method === "DMS_LINK" || method === "PDF_AND_DMS_LINK" || method === "PDF_AND_DMS_LINK_NO_EMAIL";

/**
 * Which documents go as attachments (in document order, while the total stays within
 * `budget` bytes) and which as links (one per document: the DMS copy where the method wants
 * it and one exists, else a web link for what is not attached). Unfetched documents get neither.
 */
export function chooseDelivery(documents: DeliveryDocument[], method: string, budget: number): ChosenDelivery {
  const chosen: ChosenDelivery = { attached: [], links: [], bytes: 0 };
  for (const document of documents.filter((d) => d.fileId)) {
    const attach = attaches(method) && chosen.bytes + document.size <= budget;
    if (attach) {
      chosen.attached.push(document);
      chosen.bytes += document.size;
    }
    if (linksToDms(method) && document.dmsRecordId) chosen.links.push({ document, kind: "dms" });
    else if (!attach) chosen.links.push({ document, kind: "web" });
  }
  return chosen;
}

/** The item's documents with their bytes' size and type, and its filed copies: two reads. */
function deliveryReads(db: Kysely<DB>, itemId: string) {
  return {
    documents: db
      .selectFrom("document")
      .leftJoin("blob", "blob.sha256", "document.file_id")
      .select(["document.id", "document.number", "document.name", "document.file_id", "document.fetch_status", "blob.size", "blob.content_type"])
      .where("document.processed_from_id", "=", itemId),
    filed: db
      .selectFrom("dms_record")
      .select(["id", "document_id", "link", "created_at"])
      .where("inbox_item_id", "=", itemId)
      .where("document_id", "is not", null)
      .where("status", "=", "succeeded"),
  };
}

type DeliveryReads = ReturnType<typeof deliveryReads>;
/** What the two reads of deliveryReads return. */
export type DeliveryRows = { [K in keyof DeliveryReads]: Awaited<ReturnType<DeliveryReads[K]["execute"]>> };

/** The two reads as the JSON columns `documents` and `filed` of a PostgreSQL select (a blob's size comes as a number there). */
export function deliveryColumns(db: Kysely<DB>, itemId: string) {
  const { documents, filed } = deliveryReads(db, itemId);
  return sql`(select coalesce(json_agg(d order by d.number), '[]') from (${documents}) d) as documents,
    (select coalesce(json_agg(f order by f.created_at), '[]') from (${filed}) f) as filed`;
}

/**
 * The item's documents with what delivery needs: bytes' size and type, and any filed copy. On
 * PostgreSQL one statement, the two reads as JSON values.
 */
export async function loadDeliveryDocuments(ctx: ServerContext, itemId: string): Promise<DeliveryDocument[]> {
  const db = ctx.database.db;
  if (ctx.database.dialect === "postgres") return deliveryDocumentsOf((await sql<DeliveryRows>`select ${deliveryColumns(db, itemId)}`.execute(db)).rows[0]!);
  const { documents, filed } = deliveryReads(db, itemId);
  const [documentRows, filedRows] = await Promise.all([documents.orderBy("document.number").execute(), filed.orderBy("created_at").execute()]);
  return deliveryDocumentsOf({ documents: documentRows, filed: filedRows });
}

/** The documents of deliveryReads' rows, each with its filed copy. */
export function deliveryDocumentsOf(rows: DeliveryRows): DeliveryDocument[] {
  const dmsOf = new Map(rows.filed.map((r) => [r.document_id, r.id]));
  const dmsLinkOf = new Map(rows.filed.map((r) => [r.document_id, r.link]));
  return rows.documents.map((d) => ({
    id: d.id,
    number: d.number,
    name: d.name,
    fileId: d.fetch_status === "fetched" ? d.file_id : null,
    size: Number(d.size ?? 0),
    contentType: d.content_type || "application/pdf",
    dmsRecordId: dmsOf.get(d.id) ?? null,
    dmsLink: dmsLinkOf.get(d.id) ?? null,
  }));
}

export interface MailDelivery {
  attachments: { filename: string; content: Buffer; contentType: string }[];
  links: { documentId: string; url: string }[];
  attachedIds: Set<string>;
  bytes: number;
}

/** The address of one document for one recipient: a signed public link when the firm allows them. */
async function webLink(ctx: ServerContext, firm: FirmRecord, documentId: string, timekeeperId: string | null): Promise<string> {
  if (!firm.public_document_access) return `${ctx.config.publicUrl}/load-document/${documentId}`;
  const token = await signPublicLink(ctx, { documentId, firmId: firm.id, timekeeperId });
  return `${ctx.config.publicUrl}/public/document/${token}`;
}

function attachmentName(document: DeliveryDocument, taken: Set<string>): string {
  const base = sanitizeFilename(document.name).slice(0, 100).trim() || `document-${document.number}`;
  let name = `${base}.pdf`;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base} (${n}).pdf`;
  taken.add(name.toLowerCase());
  return name;
}

/** Attachments and links of one item's documents for one recipient, within `budget` bytes. */
export async function buildDelivery(
  ctx: ServerContext,
  options: { firm: FirmRecord; documents: DeliveryDocument[]; method: string; timekeeperId: string | null; budget: number; takenNames?: Set<string> },
): Promise<MailDelivery> {
  const chosen = chooseDelivery(options.documents, options.method, options.budget);
  const taken = options.takenNames ?? new Set<string>();
  const delivery: MailDelivery = { attachments: [], links: [], attachedIds: new Set(), bytes: 0 };
  const linkTo = async (document: DeliveryDocument, kind: "web" | "dms") => {
    const url =
      kind === "dms"
        ? (document.dmsLink ?? `${ctx.config.publicUrl}/load-dms/${document.dmsRecordId}`)
        : await webLink(ctx, options.firm, document.id, options.timekeeperId);
    delivery.links.push({ documentId: document.id, url });
  };
  for (const document of chosen.attached) {
    // A blob missing from the store (restored database, pruned files) is linked instead.
    const content = await ctx.blobs.read(document.fileId!).catch(() => null);
    if (!content) {
      if (!chosen.links.some((l) => l.document.id === document.id)) await linkTo(document, "web");
      continue;
    }
    delivery.attachments.push({ filename: attachmentName(document, taken), content, contentType: document.contentType });
    delivery.attachedIds.add(document.id);
    delivery.bytes += content.length;
  }
  for (const link of chosen.links) await linkTo(link.document, link.kind);
  return delivery;
}
