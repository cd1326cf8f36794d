import { type Kysely, sql } from "kysely";
import type { ListedDocument } from "../../app/common/listed-document";
import type { DB } from "../db/schema";
import { type ReadScope, rowScopeSql } from "./read-scope";

// The documents of a case or of one envelope, for the case and ECF notification pages. A
// document is read through its envelope: the envelope's firm and walls decide, as everywhere.

/** How many documents one list shows at most; a case with more has them on its notices' cards. */
export const DOCUMENT_LIST_MAX = 200;

export type DocumentOwner = { case_id: string } | { envelope_id: string };

export type { ListedDocument };

export async function listDocuments(db: Kysely<DB>, scope: ReadScope, owner: DocumentOwner): Promise<ListedDocument[]> {
  const rows = await db
    .selectFrom("document as d")
    .innerJoin("envelope as t", "t.id", "d.envelope_id")
    .select(["d.id", "d.name", "d.number", "d.sealed", "d.file_id", "d.envelope_id", "t.name as envelope_name", "t.inbox_item_id"])
    .where("d.firm_id", "=", scope.firmId)
    .where(sql<boolean>`${rowScopeSql("envelope", true, scope)}`)
    .where("case_id" in owner ? "t.case_id" : "t.id", "=", "case_id" in owner ? owner.case_id : owner.envelope_id)
    .orderBy("t.created_at", "desc")
    .orderBy("t.id")
    .orderBy("d.number")
    .limit(DOCUMENT_LIST_MAX)
    .execute();
  return rows.map(({ file_id, sealed, ...d }) => ({ ...d, sealed: Boolean(sealed), stored: Boolean(file_id) }));
}
