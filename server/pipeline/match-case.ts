import type { ServerContext } from "../context";
import { normaliseCaseNumber } from "../resources/case-number";
import { message } from "../lib/messages";
import type { ParsedDocket, ParsedEmail } from "../notices/types";

export type DocketMatch = { kind: "case"; caseId: string } | { kind: "ignored"; ignoredCaseId: string } | { kind: "not-found"; reason: string };

/**
 * Court → ECFX jurisdiction → the firm's jurisdictions mapped to it → the case whose normalised
 * number matches. Ignored cases of that court win over everything.
 */
export async function matchDocket(ctx: ServerContext, firmId: number, courtId: string | null, docketNumber: string): Promise<DocketMatch> {
  const db = ctx.database.db;
  if (!courtId) return { kind: "not-found", reason: message("pipeline:noCourt", { docket: docketNumber }) };
  const numbers = [normaliseCaseNumber(docketNumber)];
  const ignored = await db
    .selectFrom("ignored_case")
    .select("id")
    .where("firm_id", "=", firmId)
    .where("ecfx_jurisdiction_id", "=", courtId)
    .where("name_normalized", "in", numbers)
    .executeTakeFirst();
  if (ignored) return { kind: "ignored", ignoredCaseId: ignored.id };

  const jurisdictions = await db
    .selectFrom("jurisdiction_ecfx")
    .select("jurisdiction_id")
    .where("firm_id", "=", firmId)
    .where("ecfx_jurisdiction_id", "=", courtId)
    .execute();
  if (jurisdictions.length === 0) {
    return { kind: "not-found", reason: message("pipeline:noJurisdiction", { court: courtId }) };
  }
  const found = await db
    .selectFrom("court_case")
    .select("id")
    .where("firm_id", "=", firmId)
    .where(
      "jurisdiction_id",
      "in",
      jurisdictions.map((j) => j.jurisdiction_id),
    )
    .where("case_number_normalized", "in", numbers)
    .orderBy("id")
    .execute();
  if (found.length === 0) return { kind: "not-found", reason: message("pipeline:caseNotFound", { docket: docketNumber, court: courtId }) };
  return { kind: "case", caseId: found[0]!.id };
}

/** The docket an item stands for and its court (a member case's own court first); null for what is not a notice. */
export function itemDocket(parsed: ParsedEmail | null, docketIndex: number | null): { docket: ParsedDocket; courtId: string | null } | null {
  if (parsed?.kind !== "notice") return null;
  const docket = parsed.notice.dockets[docketIndex ?? 0];
  return docket ? { docket, courtId: docket.docket_court_id ?? parsed.notice.court_id } : null;
}
