import type { Kysely } from "kysely";
import { findCourt, runsCmEcf } from "../jurisdictions/federal-courts";
import type { DB } from "../db/schema";

export interface CaseCourt {
  caseId: string;
  caseNumberNormalized: string;
  /** The connected court whose docket the case is on, if any. */
  courtId: string | null;
}

/**
 * The court a case is on, through its jurisdiction's ECFX jurisdictions; only a federal CM/ECF
 * court is connected (its docket feed and documents are reachable), state courts are not.
 */
export async function caseCourt(db: Kysely<DB>, firmId: number, caseId: string): Promise<CaseCourt | undefined> {
  const found = await db
    .selectFrom("court_case")
    .select(["id", "case_number_normalized", "jurisdiction_id"])
    .where("firm_id", "=", firmId)
    .where("id", "=", caseId)
    .executeTakeFirst();
  if (!found) return undefined;
  const courts = found.jurisdiction_id
    ? await db
        .selectFrom("jurisdiction_ecfx")
        .select("ecfx_jurisdiction_id")
        .where("firm_id", "=", firmId)
        .where("jurisdiction_id", "=", found.jurisdiction_id)
        .orderBy("ecfx_jurisdiction_id")
        .execute()
    : [];
  const connected = courts.map((c) => findCourt(c.ecfx_jurisdiction_id)).find(runsCmEcf);
  return { caseId: found.id, caseNumberNormalized: found.case_number_normalized, courtId: connected?.id ?? null };
}
