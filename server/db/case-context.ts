import { type Kysely, type Selectable, sql } from "kysely";
import type { Database } from "./database";
import type { ClientTable, CourtCaseTable, DB, DocumentTable, EnvelopeTable, MatterTable } from "./schema";

/** A case with what a notice about it is filed and written under: its matter, client and court. */
export interface CaseContext {
  case: Selectable<CourtCaseTable>;
  matter: Selectable<MatterTable> | null;
  client: Selectable<ClientTable> | null;
  jurisdiction: { name: string } | null;
}

/**
 * One processed notice with everything the notice PDF and the notice mail show: its case graph,
 * its envelope and documents, the case's timekeepers and the service contacts, written one way.
 */
export interface NoticeContext extends CaseContext {
  /** Null for an item filed on its case before an envelope was recorded. */
  envelope: Selectable<EnvelopeTable> | null;
  /** Every document of the envelope, in number order. */
  documents: Selectable<DocumentTable>[];
  /** The case's assigned timekeepers, by name. */
  timekeepers: { name: string; email: string }[];
  /** "Name <address, address>" per contact the court served. */
  serviceContacts: string[];
}

/** The case of the firm with its matter, the matter's client and its jurisdiction; null when the firm has no such case. */
export async function loadCaseContext(db: Kysely<DB>, firmId: number, caseId: string): Promise<CaseContext | null> {
  // The case and its court's name in one read.
  const row = await db
    .selectFrom("court_case")
    .leftJoin("jurisdiction", (join) => join.onRef("jurisdiction.id", "=", "court_case.jurisdiction_id").on("jurisdiction.firm_id", "=", firmId))
    .selectAll("court_case")
    .select("jurisdiction.name as jurisdiction_name")
    .where("court_case.id", "=", caseId)
    .where("court_case.firm_id", "=", firmId)
    .executeTakeFirst();
  if (!row) return null;
  const { jurisdiction_name, ...kase } = row;
  const matter = kase.matter_id
    ? await db.selectFrom("matter").selectAll().where("id", "=", kase.matter_id).where("firm_id", "=", firmId).executeTakeFirst()
    : undefined;
  const client = matter
    ? await db.selectFrom("client").selectAll().where("id", "=", matter.client_id).where("firm_id", "=", firmId).executeTakeFirst()
    : undefined;
  return { case: kase, matter: matter ?? null, client: client ?? null, jurisdiction: jurisdiction_name == null ? null : { name: jurisdiction_name } };
}

interface ServiceContact {
  name?: string | null;
  email_addresses?: string[];
}

/** The service list as people read it, the same in the notice PDF and in the notice mail. */
export function serviceContactLines(json: string | null | undefined): string[] {
  let contacts: ServiceContact[];
  try {
    contacts = JSON.parse(json || "[]") as ServiceContact[];
  } catch {
    return [];
  }
  return contacts
    .map((contact) => {
      const addresses = (contact.email_addresses ?? []).join(", ");
      if (!contact.name) return addresses;
      return addresses ? `${contact.name} <${addresses}>` : contact.name;
    })
    .filter(Boolean);
}

/**
 * The notice of one inbox item of the firm in its context. The case is the envelope's, else
 * `fallbackCaseId` (an item filed on its case without an envelope); null when there is no case.
 */
export async function loadNoticeContext(
  database: Database,
  firmId: number,
  inboxItemId: string,
  fallbackCaseId?: string | null,
): Promise<NoticeContext | null> {
  if (database.dialect === "postgres") return noticeContextInOneStatement(database.db, firmId, inboxItemId, fallbackCaseId ?? null);
  const db = database.db;
  const envelope = await db.selectFrom("envelope").selectAll().where("inbox_item_id", "=", inboxItemId).where("firm_id", "=", firmId).executeTakeFirst();
  const caseId = envelope?.case_id ?? fallbackCaseId;
  if (!caseId) return null;
  const [context, documents, timekeepers] = await Promise.all([
    loadCaseContext(db, firmId, caseId),
    envelope ? db.selectFrom("document").selectAll().where("envelope_id", "=", envelope.id).orderBy("number").execute() : [],
    db
      .selectFrom("case_timekeeper")
      .innerJoin("timekeeper", "timekeeper.id", "case_timekeeper.timekeeper_id")
      .select(["timekeeper.full_name as name", "timekeeper.email"])
      .where("case_timekeeper.case_id", "=", caseId)
      .where("timekeeper.firm_id", "=", firmId)
      .orderBy("timekeeper.full_name")
      .execute(),
  ]);
  if (!context) return null;
  return { ...context, envelope: envelope ?? null, documents, timekeepers, serviceContacts: serviceContactLines(envelope?.service_contacts) };
}

/**
 * loadNoticeContext on PostgreSQL as one statement: each part a JSON value of the same read,
 * instead of six round trips. JSON gives the rows' values as the driver does (numbers, text,
 * nulls; a text search vector as its text).
 */
async function noticeContextInOneStatement(db: Kysely<DB>, firmId: number, inboxItemId: string, fallbackCaseId: string | null): Promise<NoticeContext | null> {
  type Row = {
    envelope: Selectable<EnvelopeTable> | null;
    kase: (Selectable<CourtCaseTable> & { jurisdiction_name: string | null }) | null;
    matter: Selectable<MatterTable> | null;
    client: Selectable<ClientTable> | null;
    documents: Selectable<DocumentTable>[];
    timekeepers: { name: string; email: string }[];
  };
  const { rows } = await sql<Row>`with
    e as (select * from envelope where inbox_item_id = ${inboxItemId} and firm_id = ${firmId}),
    k as (select court_case.*, jurisdiction.name as jurisdiction_name from court_case
      left join jurisdiction on jurisdiction.id = court_case.jurisdiction_id and jurisdiction.firm_id = ${firmId}
      where court_case.id = coalesce((select case_id from e), ${fallbackCaseId}) and court_case.firm_id = ${firmId}),
    m as (select * from matter where id = (select matter_id from k) and firm_id = ${firmId}),
    c as (select * from client where id = (select client_id from m) and firm_id = ${firmId}),
    t as (select timekeeper.full_name as name, timekeeper.email from case_timekeeper
      join timekeeper on timekeeper.id = case_timekeeper.timekeeper_id
      where case_timekeeper.case_id = (select id from k) and timekeeper.firm_id = ${firmId})
    select (select row_to_json(e) from e) as envelope, (select row_to_json(k) from k) as kase,
      (select row_to_json(m) from m) as matter, (select row_to_json(c) from c) as client,
      (select coalesce(json_agg(d order by d.number), '[]') from document d where d.envelope_id = (select id from e)) as documents,
      (select coalesce(json_agg(t order by t.name), '[]') from t) as timekeepers`.execute(db);
  const row = rows[0];
  if (!row?.kase) return null;
  const { jurisdiction_name, ...kase } = row.kase;
  return {
    case: kase,
    matter: row.matter,
    client: row.client,
    jurisdiction: jurisdiction_name == null ? null : { name: jurisdiction_name },
    envelope: row.envelope,
    documents: row.documents,
    timekeepers: row.timekeepers,
    serviceContacts: serviceContactLines(row.envelope?.service_contacts),
  };
}
