import type { FirmRecord } from "../../app/common/firm-schema";
import { type Expression, type Kysely, sql } from "kysely";
import type { ServerContext } from "../context";
import type { Database } from "../db/database";
import type { DB } from "../db/schema";
import { wallsForCase } from "../walls/walls";
import { type RecipientInput, normaliseEmail } from "./recipients";

const parseList = (json: string): string[] => {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
};

/** A value, or a column of an outer select that gives it. */
type Value<T> = T | Expression<T>;

/**
 * The rules that say who else hears of an item: those of the jurisdiction preference that applied
 * to it when it names any (decision 046), else all of the firm's.
 */
function notificationRules(db: Kysely<DB>, firmId: Value<number>, itemId: string) {
  const preferred = db
    .selectFrom("jurisdiction_preference_rule as pr")
    .innerJoin("inbox_item as i", "i.jurisdiction_preference_id", "pr.preference_id")
    .select("pr.rule_id")
    .where("i.id", "=", itemId)
    .where("pr.firm_id", "=", firmId);
  const all = db.selectFrom("notification_rule").select(["name", "template", "include_emails", "exclude_emails"]).where("firm_id", "=", firmId);
  return { preferred, all, either: all.where((eb) => eb.or([eb.not(eb.exists(preferred)), eb("id", "in", preferred)])) };
}

/** The case's assigned timekeepers of the firm with their groups' preferences. */
function assignedTimekeepers(db: Kysely<DB>, firmId: Value<number>, caseId: Value<string>) {
  return db
    .selectFrom("case_timekeeper")
    .innerJoin("timekeeper", "timekeeper.id", "case_timekeeper.timekeeper_id")
    .leftJoin("timekeeper_group", "timekeeper_group.id", "timekeeper.timekeeper_group_id")
    .select([
      "timekeeper.id",
      "timekeeper.sort_name",
      "timekeeper.email",
      "timekeeper.additional_receipt_emails",
      "timekeeper.status",
      "timekeeper_group.id as group_id",
      "timekeeper_group.delivery_method",
      "timekeeper_group.notification_cadence",
    ])
    .where("case_timekeeper.case_id", "=", caseId)
    .where("timekeeper.firm_id", "=", firmId);
}

type Assigned = Awaited<ReturnType<ReturnType<typeof assignedTimekeepers>["execute"]>>;
type Rules = Awaited<ReturnType<ReturnType<typeof notificationRules>["all"]["execute"]>>;

/** The rows a recipient input is made of: the assigned timekeepers, the rules and the notice's words. */
export interface RecipientRows {
  assigned: Assigned;
  rules: Rules;
  envelope: { docket_text: string; name: string } | null;
}

/**
 * On PostgreSQL, the rows of `loadRecipientInput` as the JSON columns `assigned`, `rules` and
 * `envelope` of a select (the columns are text, so JSON gives them as the driver does).
 */
export function recipientColumns(db: Kysely<DB>, firmId: Value<number>, caseId: Value<string>, itemId: string) {
  return sql`(select coalesce(json_agg(a order by a.sort_name, a.id), '[]') from (${assignedTimekeepers(db, firmId, caseId)}) a) as assigned,
    (select coalesce(json_agg(r order by r.name), '[]') from (${notificationRules(db, firmId, itemId).either}) r) as rules,
    (select row_to_json(e) from (${envelopeRead(db, itemId).limit(1)}) e) as envelope`;
}

const envelopeRead = (db: Kysely<DB>, itemId: string) => db.selectFrom("envelope").select(["docket_text", "name"]).where("inbox_item_id", "=", itemId);

/** The rows of `loadRecipientInput`: on PostgreSQL one statement, elsewhere a read each. */
export async function recipientRows(database: Database, firmId: number, caseId: string, itemId: string): Promise<RecipientRows> {
  const { db } = database;
  if (database.dialect === "postgres") return (await sql<RecipientRows>`select ${recipientColumns(db, firmId, caseId, itemId)}`.execute(db)).rows[0]!;
  const assigned = assignedTimekeepers(db, firmId, caseId);
  const rules = notificationRules(db, firmId, itemId);
  const envelope = envelopeRead(db, itemId);
  const [assignedRows, ruleRows, envelopeRow] = await Promise.all([
    assigned.orderBy("timekeeper.sort_name").orderBy("timekeeper.id").execute(),
    (async () => ((await rules.preferred.executeTakeFirst()) ? rules.all.where("id", "in", rules.preferred) : rules.all).orderBy("name").execute())(),
    envelope.executeTakeFirst(),
  ]);
  return { assigned: assignedRows, rules: ruleRows, envelope: envelopeRow ?? null };
}

/** What resolveRecipients needs for one item on its case, read from the firm's data (`read`: its rows, read already). */
export async function loadRecipientInput(ctx: ServerContext, firm: FirmRecord, caseId: string, itemId: string, read?: RecipientRows): Promise<RecipientInput> {
  const db = ctx.database.db;
  const [{ assigned, rules, envelope }, walls] = await Promise.all([
    read ?? recipientRows(ctx.database, firm.id, caseId, itemId),
    wallsForCase(db, firm.id, caseId),
  ]);
  const ruleInputs = rules.map((r) => ({ condition: r.template, include: parseList(r.include_emails), exclude: parseList(r.exclude_emails) }));
  const firmLevel = [...firm.additional_receipt_emails, ...ruleInputs.flatMap((r) => r.include)].map(normaliseEmail);
  // A firm-level address may be a timekeeper's own: their walls still hold.
  const owners = firmLevel.length
    ? await db
        .selectFrom("timekeeper")
        .select(["id", "email"])
        .where("firm_id", "=", firm.id)
        .where((eb) => eb(eb.fn<string>("lower", ["email"]), "in", [...new Set(firmLevel)]))
        .execute()
    : [];
  return {
    firm: { deliveryMethod: firm.default_delivery_method, cadence: firm.default_notification_cadence, additionalEmails: firm.additional_receipt_emails },
    timekeepers: assigned.map((t) => ({
      id: t.id,
      email: t.email,
      additionalEmails: parseList(t.additional_receipt_emails),
      active: t.status !== "inactive",
      group: t.group_id ? { id: t.group_id, deliveryMethod: t.delivery_method ?? "", cadence: t.notification_cadence ?? "" } : null,
    })),
    rules: ruleInputs,
    noticeText: [envelope?.docket_text ?? "", envelope?.name ?? ""].join("\n"),
    timekeeperIdByEmail: new Map(owners.map((o) => [normaliseEmail(o.email), o.id])),
    isWalledOut: (timekeeperId) => walls.isWalledOut(timekeeperId),
  };
}
