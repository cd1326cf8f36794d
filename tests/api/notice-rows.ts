import type { Database } from "../../server/db/database";

/** A bare notice row written straight to the database, for tests that count notices rather than process them. */
export function insertNoticeRow(db: Database["db"], row: { id: string; firmId: number; at: number; status: string; caseId?: string | null }) {
  return db
    .insertInto("inbox_item")
    .values({
      id: row.id,
      firm_id: row.firmId,
      created_at: row.at,
      updated_at: row.at,
      status: row.status,
      source: "test",
      raw_content: Buffer.from("x"),
      raw_size: 1,
      case_id: row.caseId ?? null,
    } as never)
    .execute();
}
