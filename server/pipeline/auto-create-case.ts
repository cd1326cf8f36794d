import type { Kysely } from "kysely";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { productCaller } from "../auth/caller";
import type { ParsedDocket, ParsedNotice } from "../notices";
import { normaliseCaseNumber } from "../resources/case-number";
import { serverResource } from "../resources/registry";
import { create } from "../resources/repository";

// Auto case creation (spec §3 AutoCaseCreation): a notice for a case the firm does not have yet
// becomes a new case when one of the firm's rules claims it — by a party e-mail domain among the
// notice's recipients, or, for a rule with timekeepers and no domains, for any court the firm
// has mapped.

export interface AutoCreatedCase {
  caseId: string;
  ruleId: string;
  ruleName: string;
}

interface Rule {
  id: string;
  name: string;
  domains: string[];
  matter_id: string | null;
}

const domainOf = (address: string) => address.split("@").pop()?.trim().toLowerCase() ?? "";

export function recipientDomains(notice: ParsedNotice): Set<string> {
  return new Set(
    notice.email_recipients
      .flatMap((r) => r.email_addresses)
      .map(domainOf)
      .filter(Boolean),
  );
}

/** The rule that claims a notice: a domain match first, then a rule without domains. */
export function pickRule<R extends { domains: string[] }>(rules: R[], domains: Set<string>): R | undefined {
  return rules.find((r) => r.domains.some((d) => domains.has(d))) ?? rules.find((r) => r.domains.length === 0);
}

/**
 * `preferredRuleId`: the rule of the jurisdiction preference that applied to the notice, used in
 * place of the firm's rules; the preference has already matched the notice's court and parties.
 */
export async function autoCreateCase(
  ctx: ServerContext,
  firmId: number,
  notice: ParsedNotice,
  docket: ParsedDocket,
  preferredRuleId: string | null = null,
): Promise<AutoCreatedCase | null> {
  const db = ctx.database.db;
  if (!notice.court_id) return null;
  let query = db.selectFrom("auto_case_creation").select(["id", "name", "party_email_domains", "matter_id"]).where("firm_id", "=", firmId);
  if (preferredRuleId) query = query.where("id", "=", preferredRuleId);
  const rows = await query.orderBy("name").orderBy("id").execute();
  const rules: Rule[] = rows.map((r) => ({ id: r.id, name: r.name, matter_id: r.matter_id, domains: JSON.parse(r.party_email_domains) as string[] }));
  const rule = preferredRuleId ? rules[0] : pickRule(rules, recipientDomains(notice));
  if (!rule) return null;
  // The case needs one of the firm's jurisdictions for this court; without one no rule can help.
  const jurisdiction = await db
    .selectFrom("jurisdiction_ecfx")
    .innerJoin("jurisdiction", "jurisdiction.id", "jurisdiction_ecfx.jurisdiction_id")
    .select("jurisdiction.id")
    .where("jurisdiction_ecfx.firm_id", "=", firmId)
    .where("jurisdiction_ecfx.ecfx_jurisdiction_id", "=", notice.court_id)
    .orderBy("jurisdiction.name")
    .executeTakeFirst();
  if (!jurisdiction) return null;
  const timekeepers = await db.selectFrom("auto_case_creation_timekeeper").select("timekeeper_id").where("rule_id", "=", rule.id).execute();

  // A case of the firm with this number in this jurisdiction is the case: another notice of the
  // same new case may have created it meanwhile.
  const existing = await db
    .selectFrom("court_case")
    .select("id")
    .where("firm_id", "=", firmId)
    .where("jurisdiction_id", "=", jurisdiction.id)
    .where("case_number_normalized", "=", normaliseCaseNumber(docket.docket_number))
    .executeTakeFirst();
  // The same write as a person's (schema, references, normalisation, search index, hooks); the
  // case may lack the matter a person adds later.
  const caseId =
    existing?.id ??
    String(
      (
        await create(
          ctx,
          productCaller(firmId),
          serverResource("cases"),
          {
            name: (docket.case_name || docket.docket_number_full || docket.docket_number).slice(0, 300),
            case_number: docket.docket_number_full || docket.docket_number,
            matter_id: rule.matter_id,
            jurisdiction_id: jurisdiction.id,
            // A rule may name no timekeeper: the case then waits for a person to assign one.
            ...(timekeepers.length ? { assigned_timekeepers: timekeepers.map((t) => t.timekeeper_id) } : {}),
            status: "open",
            caption: docket.case_name.slice(0, 2000),
          },
          { incomplete: true, stored: { auto_case_creation_id: rule.id } },
        )
      ).id,
    );
  return { caseId, ruleId: rule.id, ruleName: rule.name };
}

/** The rule that created a case of the firm, and how it keeps the case's timekeepers; null for a case no rule created. */
export interface CaseRule {
  rule_id: string;
  assignment_maintenance: string;
}

export async function ruleOfCase(db: Kysely<DB>, firmId: number, caseId: string): Promise<CaseRule | null> {
  const found = await db
    .selectFrom("court_case")
    .innerJoin("auto_case_creation", "auto_case_creation.id", "court_case.auto_case_creation_id")
    .select(["auto_case_creation.id as rule_id", "auto_case_creation.assignment_maintenance"])
    .where("court_case.id", "=", caseId)
    .where("court_case.firm_id", "=", firmId)
    .executeTakeFirst();
  return found ?? null;
}

/**
 * ADD NEW: a case a rule created keeps every timekeeper the rule lists, including those added
 * to the rule later. INITIAL ONLY leaves the case's assignments to people. `rule`: the case's
 * (ruleOfCase).
 */
export async function keepRuleAssignments(ctx: ServerContext, firmId: number, caseId: string, rule: CaseRule | null): Promise<number> {
  const db = ctx.database.db;
  if (!rule || rule.assignment_maintenance !== "ADD_NEW") return 0;
  const wanted = await db.selectFrom("auto_case_creation_timekeeper").select("timekeeper_id").where("rule_id", "=", rule.rule_id).execute();
  const have = new Set((await db.selectFrom("case_timekeeper").select("timekeeper_id").where("case_id", "=", caseId).execute()).map((r) => r.timekeeper_id));
  const missing = wanted.map((w) => w.timekeeper_id).filter((t) => !have.has(t));
  if (missing.length) {
    await db
      .insertInto("case_timekeeper")
      .values(missing.map((timekeeper_id) => ({ case_id: caseId, timekeeper_id, firm_id: firmId })))
      .execute();
  }
  return missing.length;
}
