import { type Kysely, sql } from "kysely";

// Frozen: every notice a mail tells about, so that reading the mail can be refused to whoever an
// ethical wall keeps out of any of them. A notification names one notice (outbound_mail's own
// inbox_item_id); a digest, an activity report or an error report names several. Mail already
// sent is linked from what still shows it: the mail's own notice, the digest lines that point at
// it, and the card links (/inbox-items/id/<id>) its text carries. Never imports application code.

type Dialect = "sqlite" | "postgres";

const CARD_LINK = /\/inbox-items\/id\/([A-Za-z0-9_-]{1,100})/g;
const BATCH = 500;

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable("outbound_mail_notice")
    .addColumn("outbound_mail_id", "text", (c) => c.notNull().references("outbound_mail.id").onDelete("cascade"))
    .addColumn("inbox_item_id", "text", (c) => c.notNull())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("outbound_mail_notice_pk", ["outbound_mail_id", "inbox_item_id"])
    .execute();
  await sql`insert into outbound_mail_notice (outbound_mail_id, inbox_item_id, firm_id)
    select id, inbox_item_id, firm_id from outbound_mail where inbox_item_id is not null and firm_id is not null
    on conflict do nothing`.execute(db);
  await sql`insert into outbound_mail_notice (outbound_mail_id, inbox_item_id, firm_id)
    select distinct n.outbound_mail_id, n.inbox_item_id, n.firm_id from notification n
    where exists (select 1 from outbound_mail m where m.id = n.outbound_mail_id)
    on conflict do nothing`.execute(db);

  let after = "";
  for (;;) {
    const { rows } = await sql<{ id: string; firm_id: number; text_body: string }>`select id, firm_id, text_body from outbound_mail
      where id > ${after} and firm_id is not null and text_body like '%/inbox-items/id/%' order by id limit ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    after = rows.at(-1)!.id;
    for (const mail of rows) {
      const named = [...new Set([...mail.text_body.matchAll(CARD_LINK)].map((m) => m[1]!))];
      if (named.length === 0) continue;
      await sql`insert into outbound_mail_notice (outbound_mail_id, inbox_item_id, firm_id)
        select ${mail.id}, i.id, i.firm_id from inbox_item i where i.firm_id = ${mail.firm_id} and i.id in (${sql.join(named)})
        on conflict do nothing`.execute(db);
    }
  }
}
