import type { FirmRecord } from "../../app/common/firm-schema";
import type { ServerContext } from "../context";
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

/**
 * The rules that say who else hears of an item: those of the jurisdiction preference that applied
 * to it when it names any (decision 046), else all of the firm's.
 */
async function notificationRules(ctx: ServerContext, firmId: number, itemId: string) {
  const db = ctx.database.db;
  let query = db.selectFrom("notification_rule").select(["template", "include_emails", "exclude_emails"]).where("firm_id", "=", firmId);
  const preferred = db
    .selectFrom("jurisdiction_preference_rule as pr")
    .innerJoin("inbox_item as i", "i.jurisdiction_preference_id", "pr.preference_id")
    .select("pr.rule_id")
    .where("i.id", "=", itemId)
    .where("pr.firm_id", "=", firmId);
  if (await preferred.executeTakeFirst()) query = query.where("id", "in", preferred);
  return query.orderBy("name").execute();
}

/** What resolveRecipients needs for one item on its case, read from the firm's data. */
export async function loadRecipientInput(ctx: ServerContext, firm: FirmRecord, caseId: string, itemId: string): Promise<RecipientInput> {
  const db = ctx.database.db;
  const [assigned, rules, envelope, walls] = await Promise.all([
    db
      .selectFrom("case_timekeeper")
      .innerJoin("timekeeper", "timekeeper.id", "case_timekeeper.timekeeper_id")
      .leftJoin("timekeeper_group", "timekeeper_group.id", "timekeeper.timekeeper_group_id")
      .select([
        "timekeeper.id",
        "timekeeper.email",
        "timekeeper.additional_receipt_emails",
        "timekeeper.status",
        "timekeeper_group.id as group_id",
        "timekeeper_group.delivery_method",
        "timekeeper_group.notification_cadence",
      ])
      .where("case_timekeeper.case_id", "=", caseId)
      .where("timekeeper.firm_id", "=", firm.id)
      .orderBy("timekeeper.sort_name")
      .orderBy("timekeeper.id")
      .execute(),
    notificationRules(ctx, firm.id, itemId),
    db.selectFrom("envelope").select(["docket_text", "name"]).where("inbox_item_id", "=", itemId).executeTakeFirst(),
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
