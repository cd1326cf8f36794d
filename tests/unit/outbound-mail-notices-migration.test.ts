import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrateToLatest } from "../../server/db/database";
import { backends, migrateBelow, openFresh } from "./earlier-migrations";

// Migration 054 links mail already sent to the notices it told about, so that the walls hide it:
// a notification's own notice, a digest's lines, and the card links in a report's text (only of
// the mail's own firm). Mail about no notice stays unlinked.

describe.each(backends)("the notices of mail already sent (%s)", (backend) => {
  it("links each mail to the notices it named", async () => {
    const database = await openFresh(backend);
    try {
      await migrateBelow(database, "054");
      const db = database.db;
      const now = Date.now();
      const firm = async (name: string) =>
        (await sql<{ id: number }>`insert into firm (name, created_at, updated_at) values (${name}, ${now}, ${now}) returning id`.execute(db)).rows[0]!.id;
      const [own, other] = [await firm("Own Law LLP"), await firm("Other Law LLP")];
      const item = (id: string, firmId: number) =>
        sql`insert into inbox_item (id, firm_id, created_at, updated_at, status, source, raw_content, raw_size)
          values (${id}, ${firmId}, ${now}, ${now}, 'Succeeded', 'EMAIL', ${Buffer.from("x")}, 1)`.execute(db);
      for (const id of ["n-1", "n-2", "n-3", "n-4"]) await item(id, own);
      await item("n-other", other);
      const mail = (id: string, inboxItemId: string | null, text: string) =>
        sql`insert into outbound_mail (id, firm_id, purpose, to_addresses, subject, text_body, html_body, raw, transport, status, created_at, inbox_item_id)
          values (${id}, ${own}, 'any', '[]', 's', ${text}, '', '', 'captured', 'captured', ${now}, ${inboxItemId})`.execute(db);
      await mail("m-notice", "n-1", "-");
      await mail("m-digest", null, "-");
      await mail("m-report", null, "- one: https://ecfx.test/inbox-items/id/n-3 (x)\n- two: https://ecfx.test/inbox-items/id/n-other\n");
      await mail("m-reset", null, "https://ecfx.test/password-reset?token=abc");
      for (const [id, itemId] of [
        ["l-1", "n-2"],
        ["l-2", "n-4"],
      ]) {
        await sql`insert into notification (id, firm_id, inbox_item_id, email, cadence, delivery_method, status, created_at, outbound_mail_id)
          values (${id}, ${own}, ${itemId}, 'a@b.test', 'digest', 'PDF', 'sent', ${now}, 'm-digest')`.execute(db);
      }

      await migrateToLatest(database);

      const links = await db
        .selectFrom("outbound_mail_notice")
        .select(["outbound_mail_id", "inbox_item_id", "firm_id"])
        .orderBy("outbound_mail_id")
        .orderBy("inbox_item_id")
        .execute();
      expect(links).toEqual([
        { outbound_mail_id: "m-digest", inbox_item_id: "n-2", firm_id: own },
        { outbound_mail_id: "m-digest", inbox_item_id: "n-4", firm_id: own },
        { outbound_mail_id: "m-notice", inbox_item_id: "n-1", firm_id: own },
        { outbound_mail_id: "m-report", inbox_item_id: "n-3", firm_id: own },
      ]);
    } finally {
      await database.close();
    }
  });
});
