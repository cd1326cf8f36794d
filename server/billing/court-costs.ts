import type { Kysely } from "kysely";
import { PDFDocument } from "pdf-lib";
import type { DB } from "../db/schema";
import { newId } from "../lib/ids";

// Court costs a firm passes on to its client (decision 113). PACER charges $0.10 a page for a
// document fetched outside the free look, at most $3.00 (30 pages) a document, except
// transcripts, which are charged for every page. Each cost is recorded once per source (the
// document, the invoice line), on the case, its matter and its client, with the firm's cost code.

export const PACER_PAGE_CENTS = 10;
export const PACER_CAP_PAGES = 30;

/** What PACER charges for a document of `pages` pages (unknown: the cap, the most it can be). */
export function pacerCharge(pages: number | null, transcript: boolean): number {
  if (pages === null) return PACER_PAGE_CENTS * PACER_CAP_PAGES;
  return PACER_PAGE_CENTS * (transcript ? pages : Math.min(pages, PACER_CAP_PAGES));
}

export const isTranscript = (...texts: (string | null | undefined)[]) => texts.some((t) => /\btranscripts?\b/i.test(t ?? ""));

/** The pages of a PDF: its page objects, else what pdf-lib reads; null when neither can tell. */
export async function pageCount(bytes: Buffer): Promise<number | null> {
  const listed = bytes.toString("latin1").match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  if (listed > 0) return listed;
  try {
    return (await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false })).getPageCount();
  } catch {
    return null;
  }
}

export async function billingSettingOf(db: Kysely<DB>, firmId: number) {
  const row = await db.selectFrom("billing_setting").selectAll().where("firm_id", "=", firmId).executeTakeFirst();
  let minutes: Record<string, number> = {};
  try {
    minutes = JSON.parse(row?.review_minutes ?? "{}") as Record<string, number>;
  } catch {
    minutes = {};
  }
  return { cost_code: row?.cost_code ?? null, law_firm_id: row?.law_firm_id ?? "", review_minutes: minutes };
}

/** Where a case sits: its matter and the matter's client. */
async function placeOf(db: Kysely<DB>, firmId: number, caseId: string | null) {
  if (!caseId) return { matter_id: null, client_id: null };
  const row = await db
    .selectFrom("court_case as c")
    .leftJoin("matter as m", "m.id", "c.matter_id")
    .select(["c.matter_id", "m.client_id"])
    .where("c.id", "=", caseId)
    .where("c.firm_id", "=", firmId)
    .executeTakeFirst();
  return { matter_id: row?.matter_id ?? null, client_id: row?.client_id ?? null };
}

/** Records a cost once per source; a second call for the same source changes nothing. */
export async function recordCost(
  db: Kysely<DB>,
  cost: {
    firmId: number;
    sourceKey: string;
    kind: "PACER_DOCUMENT" | "ECFX_TRACK";
    caseId: string | null;
    documentId?: string | null;
    at: number;
    pages?: number | null;
    cents: number;
    description: string;
  },
): Promise<void> {
  const [place, setting] = await Promise.all([placeOf(db, cost.firmId, cost.caseId), billingSettingOf(db, cost.firmId)]);
  await db
    .insertInto("court_cost")
    .values({
      id: newId(),
      firm_id: cost.firmId,
      source_key: cost.sourceKey,
      kind: cost.kind,
      case_id: cost.caseId,
      ...place,
      document_id: cost.documentId ?? null,
      incurred_at: cost.at,
      pages: cost.pages ?? null,
      amount_cents: cost.cents,
      description: cost.description.slice(0, 500),
      cost_code: setting.cost_code,
    })
    .onConflict((oc) => oc.columns(["firm_id", "source_key"]).doNothing())
    .execute();
}

/** A PACER document fetched signed in: its charge as a cost on its case. */
export async function recordPacerDocument(
  db: Kysely<DB>,
  doc: { firmId: number; documentId: string; caseId: string | null; name: string; docketText: string | null; pages: number | null; at: number },
): Promise<void> {
  const pages = doc.pages;
  const transcript = isTranscript(doc.name, doc.docketText);
  const cents = pacerCharge(pages, transcript);
  const counted = pages === null ? "pages unknown, charged at the cap" : `${pages} page${pages === 1 ? "" : "s"}${transcript ? ", transcript" : ""}`;
  await recordCost(db, {
    firmId: doc.firmId,
    sourceKey: `document:${doc.documentId}`,
    kind: "PACER_DOCUMENT",
    caseId: doc.caseId,
    documentId: doc.documentId,
    at: doc.at,
    pages,
    cents,
    description: `PACER: ${doc.name} (${counted})`,
  });
}
