import { type Kysely, type RawBuilder, type Selectable, sql } from "kysely";
import type { FirmRecord } from "../../app/common/firm-schema";
import type { ServerContext } from "../context";
import { findCourt } from "../jurisdictions/federal-courts";
import type { DB, DocumentTable, EnvelopeTable } from "../db/schema";
import { findFirm } from "../firm/firm-repository";
import { loadNoticeContext } from "../db/case-context";
import { renderNoticePdf } from "./notice-pdf";
import type { StorageTemplateData } from "../dms/path-template";
import type { FilingSubject } from "../dms/dms-target";

// What filing one processed notice needs: the notice with its case, matter, client and
// documents, the data the policy templates name, and the bytes of each file to store.

type Envelope = Selectable<EnvelopeTable>;
type Document = Selectable<DocumentTable>;

export interface FilingItem {
  id: string;
  firm_id: number;
  case_id: string;
  parent_id: string | null;
  subject: string;
  created_at: number;
}

export interface FilingNotice {
  item: FilingItem;
  firm: FirmRecord;
  envelope: Envelope | null;
  /** Every document of the envelope, in number order (the PDF lists them all). */
  documents: Document[];
  serviceContacts: string[];
  /** Template data without `document`; each document adds its own. */
  data: Omit<StorageTemplateData, "document">;
}

export interface FileToStore {
  what: "document" | "notice";
  documentId: string | null;
  /** How the event log names it. */
  label: string;
  bytes: Buffer;
  extension: string;
  contentType: string;
}

export async function loadFilingNotice(ctx: ServerContext, item: FilingItem): Promise<FilingNotice> {
  const firm = await findFirm(ctx.database, item.firm_id);
  if (!firm) throw new Error(`Firm ${item.firm_id} does not exist`);
  const context = await loadNoticeContext(ctx.database, item.firm_id, item.id, item.case_id);
  if (!context) throw new Error(`Case ${item.case_id} does not exist`);
  const { envelope, documents } = context;
  return {
    item,
    firm,
    envelope,
    documents,
    serviceContacts: context.serviceContacts,
    data: {
      firm: { name: firm.name },
      client: context.client,
      matter: context.matter,
      case: context.case,
      jurisdiction: context.jurisdiction,
      envelope: envelope ?? { date: null },
    },
  };
}

export function templateDataFor(notice: FilingNotice, document: Document | null): StorageTemplateData {
  return { ...notice.data, document: document ? { name: document.name, number: document.number, date: document.date } : null };
}

/** What the filing is about, for targets that file by matter or read dates from the docket text. */
export function filingSubject(notice: FilingNotice): FilingSubject {
  const { matter, case: filedCase } = notice.data;
  const text = (value: string | null | undefined) => (value ?? "").trim();
  return {
    matter: matter ? { number: text(matter.unique_key), name: text(matter.name), reference: text(matter.reference_id) || null } : null,
    case: { number: text(filedCase.case_number), name: text(filedCase.name) },
    docketText: notice.envelope?.docket_text ?? "",
    filedOn: notice.envelope?.date ?? null,
    timeZone: notice.firm.default_time_zone,
  };
}

const EXTENSIONS: Record<string, string> = {
  "application/pdf": "pdf",
  "text/html": "html",
  "text/plain": "txt",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/tiff": "tif",
};

/** A fetched court document's bytes, from the blob store; `storedType` is its blob's content type when read already (null: no blob row). */
export async function documentFile(ctx: ServerContext, document: Document, storedType?: string | null): Promise<FileToStore> {
  const bytes = await ctx.blobs.read(document.file_id!);
  const blobType =
    storedType !== undefined
      ? storedType
      : (await ctx.database.db.selectFrom("blob").select("content_type").where("sha256", "=", document.file_id!).executeTakeFirst())?.content_type;
  const contentType = (blobType ?? "").split(";")[0]!.trim().toLowerCase();
  const isPdf = bytes.subarray(0, 5).toString("latin1") === "%PDF-";
  const extension = isPdf ? "pdf" : (EXTENSIONS[contentType] ?? "bin");
  return {
    what: "document",
    documentId: document.id,
    label: document.name,
    bytes,
    extension,
    contentType: isPdf ? "application/pdf" : contentType || "application/octet-stream",
  };
}

/** The notice itself: the original message (.eml, `raw` when read already) or the notice rendered as a PDF. */
export async function noticeFile(ctx: ServerContext, notice: FilingNotice, format: "pdf" | "eml", raw?: Buffer): Promise<FileToStore> {
  if (format === "eml") {
    return {
      what: "notice",
      documentId: null,
      label: "notice (.eml)",
      bytes: raw ?? (await rawMessage(ctx, notice.item)),
      extension: "eml",
      contentType: "message/rfc822",
    };
  }
  const { envelope, data } = notice;
  const bytes = await renderNoticePdf(
    {
      firmName: notice.firm.name,
      court: findCourt(envelope?.ecfx_jurisdiction_id)?.name ?? data.jurisdiction?.name ?? envelope?.ecfx_jurisdiction_id ?? "",
      caseNumber: data.case.case_number ?? "",
      caseName: data.case.name ?? "",
      date: envelope?.date ?? null,
      filedBy: envelope?.filed_by ?? "",
      docketText: envelope?.docket_text ?? "",
      documents: notice.documents.map((d) => ({ name: d.name, number: d.number, sealed: Boolean(d.sealed) })),
      serviceContacts: notice.serviceContacts,
      receivedAt: notice.item.created_at,
      subject: notice.item.subject,
    },
    { timeZone: notice.firm.default_time_zone },
  );
  return { what: "notice", documentId: null, label: "notice (PDF)", bytes, extension: "pdf", contentType: "application/pdf" };
}

/**
 * The message as received of an item (an id, or a reference to one in a subquery): a linked item split from a
 * multi-docket notice falls back to its parent's (of the same firm) when it kept none itself.
 */
export function rawMessageOf(db: Kysely<DB>, itemId: string | RawBuilder<string>) {
  return db
    .selectFrom("inbox_item as own")
    .select(
      sql<Buffer>`case when length(own.raw_content) > 0 or own.parent_id is null then own.raw_content
        else coalesce((select parent.raw_content from inbox_item parent where parent.id = own.parent_id and parent.firm_id = own.firm_id), own.raw_content) end`.as(
        "raw_content",
      ),
    )
    .where("own.id", "=", itemId);
}

async function rawMessage(ctx: ServerContext, item: FilingItem): Promise<Buffer> {
  return (await rawMessageOf(ctx.database.db, item.id).executeTakeFirstOrThrow()).raw_content;
}
