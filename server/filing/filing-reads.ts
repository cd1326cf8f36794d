import { type Kysely, type RawBuilder, sql } from "kysely";
import type { HierarchyLevel } from "../../app/common/resources/storage";
import type { Database } from "../db/database";
import type { DB } from "../db/schema";
import type { KnownCredential } from "../dms/dms-targets";
import { rawMessageOf } from "./filing-data";
import { type HolderColumns, type PolicyHolders, type StoragePolicy, holdersOf } from "./policy-resolution";

// What the storage stage reads before it files a notice: the item with the policy holders of its
// case (one read on both databases), the policies, their credentials, the item's records, its
// documents' content types and the message as received. On PostgreSQL these are JSON values of
// the same statement (decisions 125, 128); on SQLite each is read when the stage asks for it.

export interface StorageItem {
  id: string;
  firm_id: number;
  case_id: string | null;
  parent_id: string | null;
  subject: string;
  created_at: number;
  disposition: string;
}

/** A filing's record as an attempt finds it (one per policy and thing filed). */
export interface ExistingRecord {
  id: string;
  storage_policy_id: string;
  what: string;
  document_id: string | null;
  status: string;
  attempts: number;
  intended_location: string | null;
  intended_path: string | null;
  content_hash: string | null;
}

/** What the one statement read beside the item (PostgreSQL). */
export interface KnownReads {
  /** The firm's policies the case's holders name, and those they chain to. */
  policies: StoragePolicy[];
  /** The credentials of those policies, by id. */
  credentials: Map<string, KnownCredential>;
  records: ExistingRecord[];
  /** Blob content types of the notice's documents, by file id. */
  contentTypes: Map<string, string>;
  /** The message as received, read only when a policy there stores it. */
  raw: Buffer | null;
}

export interface StorageReads {
  item: StorageItem;
  hierarchy: HierarchyLevel[];
  holders: PolicyHolders;
  known: KnownReads | null;
}

const RECORD_COLUMNS = [
  "id",
  "storage_policy_id",
  "what",
  "document_id",
  "status",
  "attempts",
  "intended_location",
  "intended_path",
  "content_hash",
] as const satisfies readonly (keyof DB["dms_record"])[];

/** The records of an item (an id, or a reference to one), every policy's: an attempt reads them once for all its filings. */
const recordsOf = (db: Kysely<DB>, itemId: string | RawBuilder<string>) =>
  db.selectFrom("dms_record").select(RECORD_COLUMNS).where("inbox_item_id", "=", itemId);

export function recordsOfItem(db: Kysely<DB>, itemId: string): Promise<ExistingRecord[]> {
  return recordsOf(db, itemId).execute();
}

/**
 * An inbox item read with who holds which policy for its case: the firm, the case, its matter,
 * and the matter's client, practice group and location (one read on both databases).
 */
function itemWithHolders(db: Kysely<DB>, itemId: string) {
  return db
    .selectFrom("inbox_item")
    .innerJoin("firm", "firm.id", "inbox_item.firm_id")
    .leftJoin("court_case", (join) => join.onRef("court_case.id", "=", "inbox_item.case_id").onRef("court_case.firm_id", "=", "inbox_item.firm_id"))
    .leftJoin("matter", (join) => join.onRef("matter.id", "=", "court_case.matter_id").onRef("matter.firm_id", "=", "inbox_item.firm_id"))
    .leftJoin("client", (join) => join.onRef("client.id", "=", "matter.client_id").onRef("client.firm_id", "=", "inbox_item.firm_id"))
    .leftJoin("practice_group", (join) =>
      join.onRef("practice_group.id", "=", "matter.practice_group_id").onRef("practice_group.firm_id", "=", "inbox_item.firm_id"),
    )
    .leftJoin("location", (join) => join.onRef("location.id", "=", "matter.location_id").onRef("location.firm_id", "=", "inbox_item.firm_id"))
    .select([
      "inbox_item.id",
      "inbox_item.firm_id",
      "inbox_item.case_id",
      "inbox_item.parent_id",
      "inbox_item.subject",
      "inbox_item.created_at",
      "inbox_item.disposition",
      "firm.storage_policy_hierarchy as hierarchy",
      "firm.storage_policy_id as firm",
      "location.storage_policy_id as location",
      "practice_group.storage_policy_id as practice_group",
      "client.storage_policy_id as client",
      "matter.storage_policy_id as matter",
      "court_case.storage_policy_id as case",
    ])
    .where("inbox_item.id", "=", itemId);
}

type Row = StorageItem &
  HolderColumns & {
    policies?: StoragePolicy[];
    credentials?: ({ id: string } & KnownCredential)[];
    records?: ExistingRecord[];
    content_types?: Record<string, string>;
    raw_content?: Buffer | null;
  };

/** The item and what filing it needs; undefined when there is no such item. */
export async function readStorageStart(database: Database, itemId: string): Promise<StorageReads | undefined> {
  const db = database.db;
  const base = itemWithHolders(db, itemId);
  const row = (database.dialect === "postgres" ? (await inOneStatement(db, base)).rows[0] : await base.executeTakeFirst()) as Row | undefined;
  if (!row) return undefined;
  const { id, firm_id, case_id, parent_id, subject, created_at, disposition } = row;
  return {
    item: { id, firm_id, case_id, parent_id, subject, created_at, disposition },
    ...holdersOf(row),
    known: row.policies
      ? {
          policies: row.policies,
          credentials: new Map((row.credentials ?? []).map(({ id: credentialId, kind, field }) => [credentialId, { kind, field }])),
          records: row.records ?? [],
          contentTypes: new Map(Object.entries(row.content_types ?? {})),
          raw: row.raw_content ?? null,
        }
      : null,
  };
}

/** The item read by the statement below (`base`), for its subqueries. */
const ofBase = sql<string>`base.id`;

/**
 * The item with its holders and, as JSON values of the same statement, the policies they name
 * and chain to (a recursive CTE: `union` ends a chain that comes back), their credentials, the
 * item's records, the content types of its envelope's documents, and the message as received
 * when one of the policies stores it.
 */
function inOneStatement(db: Kysely<DB>, base: ReturnType<typeof itemWithHolders>) {
  return sql<Row>`with recursive base as (${base}),
    chain(id) as (
      select storage_policy.id from storage_policy, base
        where storage_policy.firm_id = base.firm_id
        and storage_policy.id in (base.firm, base.location, base.practice_group, base.client, base.matter, base."case")
      union
      select storage_policy.additional_storage_policy_id from storage_policy join chain on storage_policy.id = chain.id
        join base on storage_policy.firm_id = base.firm_id
        where storage_policy.additional_storage_policy_id is not null),
    policies as (select storage_policy.* from storage_policy, base
      where storage_policy.firm_id = base.firm_id and storage_policy.id in (select id from chain))
    select base.*,
      (select coalesce(json_agg(p), '[]') from policies p) as policies,
      (select coalesce(json_agg(json_build_object('id', d.id, 'kind', d.kind, 'field', g.field)), '[]')
        from dms_credential_directory d left join generic_credential g on g.id = d.id and g.firm_id = d.firm_id
        where d.firm_id = base.firm_id and d.id in (select dms_credential_id from policies)) as credentials,
      (select coalesce(json_agg(r), '[]') from (${recordsOf(db, ofBase)}) r) as records,
      (select coalesce(json_object_agg(blob.sha256, blob.content_type), '{}') from blob
        where blob.sha256 in (select document.file_id from document join envelope on envelope.id = document.envelope_id
          where envelope.inbox_item_id = base.id and envelope.firm_id = base.firm_id)) as content_types,
      case when exists (select 1 from policies where store_email = 'eml') then (${rawMessageOf(db, ofBase)}) end as raw_content
    from base`.execute(db);
}
