import { type Kysely, sql } from "kysely";
import type { FirmRecord } from "../../app/common/firm-schema";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { type NoticeTemplateData, type TemplateItem, buildTemplateData, templateDataOf, templateItemRead } from "../mail/notice-template";
import { type DeliveryDocument, type DeliveryRows, deliveryColumns, deliveryDocumentsOf, loadDeliveryDocuments } from "./delivery";
import { type TemplateChoice, TemplateSources, templateChoice } from "./notice-mail";

/** Notification rows still to be sent at once; "sending" ones an attempt left without knowing the outcome. */
export const UNSENT = ["pending", "sending"];

/** The item's real-time rows still unsent, each with its timekeeper's name for the greeting. */
function unsentRows(db: Kysely<DB>, itemId: string) {
  return db
    .selectFrom("notification")
    .leftJoin("timekeeper", "timekeeper.id", "notification.timekeeper_id")
    .selectAll("notification")
    .select("timekeeper.full_name as timekeeper_name")
    .where("notification.inbox_item_id", "=", itemId)
    .where("notification.cadence", "=", "realtime")
    .where("notification.status", "in", UNSENT);
}

export type UnsentRow = Awaited<ReturnType<ReturnType<typeof unsentRows>["execute"]>>[number];

/** What one item's real-time mails are made of, read once for all recipients. */
export interface PendingMail {
  /** In the order they are sent: as recorded, then by address. */
  rows: UnsentRow[];
  /** Null when the item is no processed notice. */
  data: NoticeTemplateData | null;
  documents: DeliveryDocument[];
  templates: TemplateSources;
}

/**
 * The item's unsent real-time rows and, when there are any, what their mails are made of: the
 * template data (it parses the original message), the documents and the groups' templates. On
 * PostgreSQL one statement with the notice's context after it; elsewhere a read each, as before.
 */
export async function readPendingMail(ctx: ServerContext, firm: FirmRecord, itemId: string): Promise<PendingMail | null> {
  const db = ctx.database.db;
  if (ctx.database.dialect === "postgres") return pendingMailInOneStatement(ctx, firm, itemId);
  const rows = await unsentRows(db, itemId).orderBy("notification.created_at").orderBy("notification.email").execute();
  if (rows.length === 0) return null;
  const [data, documents] = await Promise.all([buildTemplateData(ctx, firm.id, itemId), loadDeliveryDocuments(ctx, itemId)]);
  return { rows, data, documents, templates: new TemplateSources(ctx, firm) };
}

/**
 * readPendingMail's reads as JSON values of one select: the rows, the item (only when there are
 * rows), the documents with their filed copies and the template chosen for each group of the rows.
 */
async function pendingMailInOneStatement(ctx: ServerContext, firm: FirmRecord, itemId: string): Promise<PendingMail | null> {
  const db = ctx.database.db;
  type Read = DeliveryRows & { rows: UnsentRow[]; item: TemplateItem | null; templates: TemplateChoice[] };
  const { rows } = await sql<Read>`with r as (${unsentRows(db, itemId)})
    select (select coalesce(json_agg(r order by r.created_at, r.email), '[]') from r) as rows,
      (select row_to_json(i) from (${templateItemRead(db, firm.id, itemId)}) i where exists (select 1 from r)) as item,
      ${deliveryColumns(db, itemId)},
      (select coalesce(json_agg(json_build_object('group_id', g.group_id, 'id', t.id, 'template', t.template)), '[]')
        from (select distinct timekeeper_group_id as group_id from r) g
        cross join lateral (${templateChoice(firm, sql.ref("g.group_id"))}) t) as templates`.execute(db);
  const read = rows[0]!;
  if (read.rows.length === 0) return null;
  return {
    rows: read.rows,
    data: await templateDataOf(ctx, firm.id, read.item ?? undefined),
    documents: deliveryDocumentsOf(read),
    templates: new TemplateSources(ctx, firm).know(read.templates),
  };
}
