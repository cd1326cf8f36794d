import { sql } from "kysely";
import type { Database } from "../db/database";
import { normaliseCaseNumber } from "../resources/case-number";
import { type CaseRule, ruleOfCase } from "./auto-create-case";
import { type PreferenceCourt, type PreferenceRow, enabledPreferences, preferenceCourts } from "./jurisdiction-preference";
import { type MatchReads, NOT_READ, matchReads } from "./match-case";
import { type RecordReads, recordReads } from "./record-notice";

// What the matching stage reads about one docket before it writes: the firm's jurisdiction
// preferences, the case the docket matches, the rule that created that case, and what the item
// already recorded on it. On PostgreSQL one statement (JSON values of one read, as the notice's
// context is read); on SQLite the reads one by one, each made only when needed.

export interface DocketQuery {
  firmId: number;
  itemId: string;
  /** The case a person picked on the inbox card: it wins over matching. */
  itemCaseId: string | null;
  courtId: string | null;
  docketNumber: string;
  courtDocumentIds: string[];
}

export interface DocketReads {
  preferences: PreferenceRow[];
  groups: PreferenceCourt[];
  /** Null when the item already has its case. */
  match: MatchReads | null;
  /** The case the reads below are of: the item's own, else the one matched. */
  caseId: string | null;
  rule: CaseRule | null;
  /** Null without a case (one created for the notice is read for when it exists). */
  recorded: RecordReads | null;
}

export async function readDocket(database: Database, query: DocketQuery): Promise<DocketReads> {
  const reads = await (database.dialect === "postgres" ? docketInOneStatement(database, query) : docketOneByOne(database, query));
  // The groups are a set: in one order whichever way they were read.
  const key = (g: PreferenceCourt) => `${g.preference_id}\u0000${g.court ?? ""}`;
  return { ...reads, groups: [...reads.groups].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)) };
}

async function docketOneByOne(database: Database, query: DocketQuery): Promise<DocketReads> {
  const db = database.db;
  const preferences = await enabledPreferences(db, query.firmId);
  const groups = preferences.length ? await preferenceCourts(db, query.firmId, preferences) : [];
  const match = query.itemCaseId ? null : await matchReads(db, query.firmId, query.courtId, query.docketNumber);
  const caseId = query.itemCaseId ?? (query.courtId && match && !match.ignored ? match.found : null);
  if (!caseId) return { preferences, groups, match, caseId, rule: null, recorded: null };
  return {
    preferences,
    groups,
    match,
    caseId,
    rule: await ruleOfCase(db, query.firmId, caseId),
    recorded: await recordReads(db, { id: query.itemId, firm_id: query.firmId }, caseId, query.courtDocumentIds),
  };
}

async function docketInOneStatement(database: Database, query: DocketQuery): Promise<DocketReads> {
  type Row = {
    preferences: PreferenceRow[];
    groups: PreferenceCourt[];
    ignored: string | null;
    mapped: boolean;
    found: string | null;
    case_id: string | null;
    rule: CaseRule | null;
    envelope_id: string | null;
    pending: string[];
    earlier: string | null;
  };
  const { firmId, itemId, itemCaseId, courtId } = query;
  const number = normaliseCaseNumber(query.docketNumber);
  // An ignored case of the court wins: then no case is matched (the item's own still stands).
  const { rows } = await sql<Row>`with
    p as (select id, name, auto_case_creation_id, document_processing_id, party_email_domains, "order", created_at
      from jurisdiction_preference where firm_id = ${firmId} and enabled = 1),
    g as (select pg.preference_id, je.ecfx_jurisdiction_id as court from jurisdiction_preference_group pg
      left join jurisdiction_group_jurisdiction gj on gj.group_id = pg.group_id
      left join jurisdiction_ecfx je on je.jurisdiction_id = gj.jurisdiction_id
      where pg.firm_id = ${firmId} and pg.preference_id in (select id from p)),
    i as (select id from ignored_case where firm_id = ${firmId} and ecfx_jurisdiction_id = ${courtId} and name_normalized = ${number} limit 1),
    j as (select jurisdiction_id from jurisdiction_ecfx where firm_id = ${firmId} and ecfx_jurisdiction_id = ${courtId}),
    f as (select id from court_case where firm_id = ${firmId} and jurisdiction_id in (select jurisdiction_id from j)
      and case_number_normalized = ${number} order by id limit 1),
    k as (select coalesce(${itemCaseId}::text, case when exists (select 1 from i) then null else (select id from f) end) as id),
    e as (select id from envelope where inbox_item_id = ${itemId} limit 1)
    select
      (select coalesce(json_agg(json_build_object('id', id, 'name', name, 'auto_case_creation_id', auto_case_creation_id,
        'document_processing_id', document_processing_id, 'party_email_domains', party_email_domains) order by "order", created_at, id), '[]') from p) as preferences,
      (select coalesce(json_agg(json_build_object('preference_id', preference_id, 'court', court)), '[]') from g) as groups,
      (select id from i) as ignored, exists (select 1 from j) as mapped, (select id from f) as found, (select id from k) as case_id,
      (select row_to_json(r) from (select a.id as rule_id, a.assignment_maintenance from court_case cc
        join auto_case_creation a on a.id = cc.auto_case_creation_id
        where cc.id = (select id from k) and cc.firm_id = ${firmId}) r) as rule,
      (select id from e) as envelope_id,
      (select coalesce(json_agg(id), '[]') from document where envelope_id = (select id from e) and fetch_status = 'pending') as pending,
      (select d.processed_from_id from document d join envelope v on v.id = d.envelope_id
        where d.firm_id = ${firmId} and v.case_id = (select id from k) and d.court_document_id = any(${query.courtDocumentIds}::text[])
        and d.processed_from_id <> ${itemId} limit 1) as earlier`.execute(database.db);
  const row = rows[0]!;
  const match: MatchReads | null = itemCaseId
    ? null
    : !courtId
      ? NOT_READ
      : row.ignored
        ? { ...NOT_READ, ignored: row.ignored }
        : { ignored: null, mapped: row.mapped, found: row.mapped ? row.found : null };
  const caseId = courtId || itemCaseId ? row.case_id : null;
  const recorded: RecordReads | null = caseId
    ? { caseId, envelopeId: row.envelope_id, pending: row.envelope_id ? [...row.pending].sort() : [], earlier: row.envelope_id ? null : row.earlier }
    : null;
  return { preferences: row.preferences, groups: row.preferences.length ? row.groups : [], match, caseId, rule: caseId ? row.rule : null, recorded };
}
