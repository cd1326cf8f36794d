import type { Kysely } from "kysely";
import type { DB } from "../db/schema";

/** What was filed for an inbox item, where, and how it went (the inbox card, the API). */
export function listDmsRecords(db: Kysely<DB>, firmId: number, itemId: string) {
  return db
    .selectFrom("dms_record")
    .leftJoin("document", "document.id", "dms_record.document_id")
    .leftJoin("storage_policy", "storage_policy.id", "dms_record.storage_policy_id")
    .select([
      "dms_record.id",
      "dms_record.what",
      "dms_record.document_id",
      "document.name as document_name",
      "dms_record.storage_policy_id",
      "storage_policy.name as storage_policy_name",
      "dms_record.status",
      "dms_record.location",
      "dms_record.link",
      "dms_record.error",
      "dms_record.attempts",
      "dms_record.created_at",
      "dms_record.updated_at",
    ])
    .where("dms_record.inbox_item_id", "=", itemId)
    .where("dms_record.firm_id", "=", firmId)
    .orderBy("dms_record.created_at")
    .orderBy("dms_record.id")
    .execute();
}
