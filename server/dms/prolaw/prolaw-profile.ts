import type { DmsStoreRequest } from "../dms-target";
import type { ProLawMatter } from "./prolaw-types";

// The document's ProLaw profile from the storage policy's document properties and the filing:
// DocumentType, DocumentClass, Author (or, without one, the filer) and Description are profile
// fields of their own (names compared without case, "_" and spaces); every other property is a
// custom field of the profile. The description defaults to the docket text, the date to the
// filing's. ExternalReference carries the filing's key and content hash: how a retry recognises
// the copy an interrupted attempt left.

export interface DocumentProfile {
  FileName: string;
  FolderId: string | null;
  DocumentType?: string;
  DocumentClass?: string;
  Description?: string;
  Author?: string;
  DocumentDate?: string;
  ExternalReference: string;
  ParentMattersId?: string;
  Fields?: Record<string, string>;
}

const OWN_FIELDS: Record<string, "DocumentType" | "DocumentClass" | "Author" | "Description" | "filer"> = {
  documenttype: "DocumentType",
  documentclass: "DocumentClass",
  author: "Author",
  filer: "filer",
  description: "Description",
};

const normalised = (name: string) => name.toLowerCase().replace(/[\s_-]/g, "");

/** The key ProLaw keeps on the document for ECFX: the filing's idempotency key and the bytes' hash. */
export const externalReference = (idempotencyKey: string, contentHash: string) => `ecfx:${idempotencyKey}:${contentHash}`;

/** A US (MM/DD/YYYY) or ISO date as YYYY-MM-DD; undefined when it is neither. */
export function documentDate(filedOn: string | null | undefined): string | undefined {
  const text = (filedOn ?? "").trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(text);
  if (us) return `${us[3]}-${us[1]!.padStart(2, "0")}-${us[2]!.padStart(2, "0")}`;
  return undefined;
}

export function documentProfile(
  request: DmsStoreRequest,
  fileName: string,
  folderId: string | null,
  reference: string,
  matter: ProLawMatter,
  addParentId: boolean,
): DocumentProfile {
  const own: Partial<Record<"DocumentType" | "DocumentClass" | "Author" | "Description" | "filer", string>> = {};
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.properties)) {
    const trimmed = value.trim();
    if (!trimmed) continue;
    const mapped = OWN_FIELDS[normalised(name)];
    if (mapped) own[mapped] = trimmed;
    else fields[name] = trimmed.slice(0, 1000);
  }
  const profile: DocumentProfile = { FileName: fileName, FolderId: folderId, ExternalReference: reference };
  if (own.DocumentType) profile.DocumentType = own.DocumentType.slice(0, 50);
  if (own.DocumentClass) profile.DocumentClass = own.DocumentClass.slice(0, 50);
  const author = own.Author ?? own.filer;
  if (author) profile.Author = author.slice(0, 100);
  const description = own.Description ?? request.subject?.docketText.replace(/\s+/g, " ").trim();
  profile.Description = (description || fileName).slice(0, 1000);
  const date = documentDate(request.subject?.filedOn);
  if (date) profile.DocumentDate = date;
  // A sub-matter's documents are filed with its master matter's key as well (docs/dms/prolaw.md).
  if (addParentId && matter.ParentMattersId) profile.ParentMattersId = matter.ParentMattersId;
  if (Object.keys(fields).length > 0) profile.Fields = fields;
  return profile;
}
