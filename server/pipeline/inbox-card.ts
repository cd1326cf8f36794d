import type { InboxCard, InboxCardDocument } from "../../app/common/inbox-card";
import type { ActionRequired, Disposition, InboxStatus } from "../../app/common/resources/inbox";
import { type Caller, fieldLevel, readableFields } from "../auth/caller";
import type { ServerContext } from "../context";
import type { ParsedEmail } from "../notices/types";
import { readScopeOf, scopedRows } from "../resources/read-scope";
import { listDmsRecords } from "../dms/dms-records";
import { itemDocket } from "./match-case";

/** The case a notice is about, as the case wizard starts from it: title, number and the firm's jurisdiction of its court. */
async function caseDraftOf(ctx: ServerContext, firmId: number, parsed: ParsedEmail | null, docketIndex: number | null): Promise<InboxCard["caseDraft"]> {
  const found = itemDocket(parsed, docketIndex);
  if (!found) return null;
  const { docket, courtId: court } = found;
  const mapped = court
    ? await ctx.database.db
        .selectFrom("jurisdiction_ecfx")
        .select("jurisdiction_id")
        .where("firm_id", "=", firmId)
        .where("ecfx_jurisdiction_id", "=", court)
        .orderBy("jurisdiction_id")
        .executeTakeFirst()
    : undefined;
  return { name: docket.case_name, case_number: docket.docket_number, jurisdiction_id: mapped?.jurisdiction_id ?? null };
}

/**
 * Everything the inbox card shows about one item the caller was admitted to: linked notices only
 * those their scope lets them read, and every row less the fields their role may not read, as
 * the generic read gives them.
 */
export async function inboxCard(ctx: ServerContext, caller: Caller, id: string): Promise<InboxCard | null> {
  const db = ctx.database.db;
  const firmId = caller.firmId;
  const scope = await readScopeOf(db, caller);
  const item = await db
    .selectFrom("inbox_item")
    .select([
      "id",
      "created_at",
      "updated_at",
      "status",
      "action_required",
      "disposition",
      "disposition_text",
      "reason",
      "source",
      "source_type",
      "message_id",
      "sender",
      "from_address",
      "recipients",
      "subject",
      "snippet",
      "parsed",
      "docket_index",
      "parent_id",
      "duplicate_of_id",
      "case_id",
      "jurisdiction_preference_id",
      "dms_status",
      "hidden",
      "raw_size",
    ])
    .where("id", "=", id)
    .where("firm_id", "=", firmId)
    .executeTakeFirst();
  if (!item) return null;
  const [events, envelopes, linked, kase, dms, mail, preference] = await Promise.all([
    db.selectFrom("event_log").select(["created_at", "level", "event", "detail"]).where("inbox_item_id", "=", id).orderBy("created_at").orderBy("id").execute(),
    db.selectFrom("envelope").selectAll().where("inbox_item_id", "=", id).where("firm_id", "=", firmId).execute(),
    // A linked notice (a sibling docket, a duplicate) may lie behind a wall of its own.
    scopedRows(db, scope, "inbox_item")
      .select(["t.id", "t.status", "t.disposition", "t.subject", "t.snippet", "t.created_at", "t.parent_id", "t.duplicate_of_id"])
      .where((eb) =>
        eb.or([
          eb("t.parent_id", "=", id),
          eb("t.duplicate_of_id", "=", id),
          ...(item.parent_id ? [eb("t.id", "=", item.parent_id), eb("t.parent_id", "=", item.parent_id)] : []),
          ...(item.duplicate_of_id ? [eb("t.id", "=", item.duplicate_of_id)] : []),
        ]),
      )
      .where("t.id", "!=", id)
      .orderBy("t.created_at")
      .execute(),
    item.case_id ? db.selectFrom("court_case").select(["id", "name", "case_number"]).where("id", "=", item.case_id).executeTakeFirst() : undefined,
    listDmsRecords(db, firmId, id),
    // Every message sent about this item: who was told, and whether it went out.
    db
      .selectFrom("outbound_mail")
      .select(["id", "purpose", "to_addresses", "subject", "status", "error", "created_at"])
      .where("inbox_item_id", "=", id)
      .where("firm_id", "=", firmId)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
    item.jurisdiction_preference_id
      ? db
          .selectFrom("jurisdiction_preference")
          .select(["id", "name"])
          .where("id", "=", item.jurisdiction_preference_id)
          .where("firm_id", "=", firmId)
          .executeTakeFirst()
      : undefined,
  ]);
  const documents = envelopes.length
    ? await db
        .selectFrom("document")
        .select([
          "id",
          "envelope_id",
          "number",
          "name",
          "sealed",
          "court_document_id",
          "fetch_status",
          "fetch_error",
          "title_extraction",
          "title_extraction_error",
          "dms_status",
          "file_id",
        ])
        .where(
          "envelope_id",
          "in",
          envelopes.map((e) => e.id),
        )
        .orderBy("number")
        .execute()
    : [];
  const parsed = item.parsed ? (JSON.parse(item.parsed) as ParsedEmail) : null;
  // The parsed notice is read from the message and repeats its docket text: it needs both.
  const parsedReadable = fieldLevel(caller, "inbox_item", "raw_content") !== "DENY" && fieldLevel(caller, "envelope", "docket_text") !== "DENY";
  return {
    item: {
      ...readableFields(caller, "inbox_item", {
        ...item,
        // The pipeline writes only these (setItem takes the declared states).
        status: item.status as InboxStatus,
        action_required: item.action_required as ActionRequired,
        disposition: item.disposition as Disposition,
        hidden: Boolean(item.hidden),
        recipients: JSON.parse(item.recipients) as string[],
        parsed: parsedReadable ? parsed : null,
      }),
      id: item.id,
    },
    case: kase ?? null,
    /** What "create the case from this notice" fills the case wizard with, while the notice has no case. */
    caseDraft: kase || !parsedReadable ? null : await caseDraftOf(ctx, firmId, parsed, item.docket_index),
    /** The jurisdiction preference that applied to the notice. */
    preference: preference ?? null,
    events,
    envelopes: envelopes.map((e) => readableFields(caller, "envelope", { ...e, service_contacts: JSON.parse(e.service_contacts) as unknown })),
    documents: documents.map((d) =>
      readableFields(caller, "document", {
        ...d,
        sealed: Boolean(d.sealed),
        stored: Boolean(d.file_id),
        // The pipeline writes only these (or null when the provider was not asked).
        title_extraction: d.title_extraction as InboxCardDocument["title_extraction"],
      }),
    ),
    linked: linked.map((l) => readableFields(caller, "inbox_item", { ...l, status: l.status as InboxStatus, disposition: l.disposition as Disposition })),
    dms,
    mail: mail.map((m) => ({ ...m, to_addresses: JSON.parse(m.to_addresses) as string[] })),
  };
}
