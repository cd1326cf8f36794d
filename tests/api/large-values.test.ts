import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { serverHasLz4 } from "../../server/db/migrations/078-large-values-compressed-with-lz4";
import { backends, useApi } from "./harness";
import { insertNoticeRow } from "./notice-rows";

// On PostgreSQL a notice's large values are compressed with lz4 (migration 078), where the server
// has it (Debian's and the official images do), and read back as written.

describe.runIf(backends.includes("postgres"))("a notice's large values on PostgreSQL", () => {
  const server = useApi({ backend: "postgres" });

  it("compresses the raw message and its body with lz4 and reads them back whole", async () => {
    const db = server().ctx.database.db;
    // A server built without lz4 keeps its own pglz (the migration leaves the columns alone).
    const method = (await serverHasLz4(db)) ? "lz4" : "pglz";
    const id = "large-values-1";
    await insertNoticeRow(db, { id, firmId: 1, at: Date.now(), status: "Succeeded" });
    const raw = Buffer.from("Content-Type: text/plain\r\n\r\nNOTICE OF ELECTRONIC FILING\r\n".repeat(400));
    const body = "The following transaction was entered on 1/2/2026 at 10:00 AM EST. ".repeat(300);
    await db
      .updateTable("inbox_item")
      .set({ raw_content: raw, message_body: body } as never)
      .where("id", "=", id)
      .execute();
    const row = await sql<{ raw: Buffer; body: string; raw_method: string | null; body_method: string | null }>`
      select raw_content as raw, message_body as body, pg_column_compression(raw_content) as raw_method,
        pg_column_compression(message_body) as body_method from inbox_item where id = ${id}`.execute(db);
    expect(row.rows[0]).toMatchObject({ raw_method: method, body_method: method, body });
    expect(Buffer.compare(row.rows[0]!.raw, raw)).toBe(0);
  });
});
