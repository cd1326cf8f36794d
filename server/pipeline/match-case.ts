import type { Kysely } from "kysely";
import type { DB } from "../db/schema";
import { normaliseCaseNumber } from "../resources/case-number";
import { message } from "../lib/messages";
import type { ParsedDocket, ParsedEmail } from "../notices/types";

export type DocketMatch = { kind: "case"; caseId: string } | { kind: "ignored"; ignoredCaseId: string } | { kind: "not-found"; reason: string };

/** What matching a docket reads: an ignored case of its court, whether the court is mapped, the case with its number. */
export interface MatchReads {
  ignored: string | null;
  mapped: boolean;
  found: string | null;
}

/** Nothing found: no court, or a read that stopped early. */
export const NOT_READ: MatchReads = { ignored: null, mapped: false, found: null };

/**
 * Court → ECFX jurisdiction → the firm's jurisdictions mapped to it → the case whose normalised
 * number matches. Each read is made only when the ones before it leave the match open.
 */
export async function matchReads(db: Kysely<DB>, firmId: number, courtId: string | null, docketNumber: string): Promise<MatchReads> {
  const none = NOT_READ;
  if (!courtId) return none;
  const numbers = [normaliseCaseNumber(docketNumber)];
  const ignored = await db
    .selectFrom("ignored_case")
    .select("id")
    .where("firm_id", "=", firmId)
    .where("ecfx_jurisdiction_id", "=", courtId)
    .where("name_normalized", "in", numbers)
    .executeTakeFirst();
  if (ignored) return { ...none, ignored: ignored.id };
  const jurisdictions = await db
    .selectFrom("jurisdiction_ecfx")
    .select("jurisdiction_id")
    .where("firm_id", "=", firmId)
    .where("ecfx_jurisdiction_id", "=", courtId)
    .execute();
  if (jurisdictions.length === 0) return none;
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
  return { ...none, mapped: true, found: found[0]?.id ?? null };
}

/** The match the reads give: ignored cases of the court win over everything. */
export function decideMatch(courtId: string | null, docketNumber: string, reads: MatchReads): DocketMatch {
  if (!courtId) return { kind: "not-found", reason: message("pipeline:noCourt", { docket: docketNumber }) };
  if (reads.ignored) return { kind: "ignored", ignoredCaseId: reads.ignored };
  if (!reads.mapped) return { kind: "not-found", reason: message("pipeline:noJurisdiction", { court: courtId }) };
  if (!reads.found) return { kind: "not-found", reason: message("pipeline:caseNotFound", { docket: docketNumber, court: courtId }) };
  return { kind: "case", caseId: reads.found };
}

/** The docket an item stands for and its court (a member case's own court first); null for what is not a notice. */
export function itemDocket(parsed: ParsedEmail | null, docketIndex: number | null): { docket: ParsedDocket; courtId: string | null } | null {
  if (parsed?.kind !== "notice") return null;
  const docket = parsed.notice.dockets[docketIndex ?? 0];
  return docket ? { docket, courtId: docket.docket_court_id ?? parsed.notice.court_id } : null;
}
