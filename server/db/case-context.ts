import type { Kysely, Selectable } from "kysely";
import type { ClientTable, CourtCaseTable, DB, MatterTable } from "./schema";

/** A case with what a notice about it is filed and written under: its matter, client and court. */
export interface CaseContext {
  case: Selectable<CourtCaseTable>;
  matter: Selectable<MatterTable> | null;
  client: Selectable<ClientTable> | null;
  jurisdiction: { name: string } | null;
}

/** The case of the firm with its matter, the matter's client and its jurisdiction; null when the firm has no such case. */
export async function loadCaseContext(db: Kysely<DB>, firmId: number, caseId: string): Promise<CaseContext | null> {
  const kase = await db.selectFrom("court_case").selectAll().where("id", "=", caseId).where("firm_id", "=", firmId).executeTakeFirst();
  if (!kase) return null;
  const [matter, jurisdiction] = await Promise.all([
    kase.matter_id ? db.selectFrom("matter").selectAll().where("id", "=", kase.matter_id).where("firm_id", "=", firmId).executeTakeFirst() : undefined,
    kase.jurisdiction_id ? db.selectFrom("jurisdiction").select("name").where("id", "=", kase.jurisdiction_id).where("firm_id", "=", firmId).executeTakeFirst() : undefined,
  ]);
  const client = matter ? await db.selectFrom("client").selectAll().where("id", "=", matter.client_id).where("firm_id", "=", firmId).executeTakeFirst() : undefined;
  return { case: kase, matter: matter ?? null, client: client ?? null, jurisdiction: jurisdiction ?? null };
}
