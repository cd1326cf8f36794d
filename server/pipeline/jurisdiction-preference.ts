import type { Kysely } from "kysely";
import type { DB } from "../db/schema";

// Which of the firm's jurisdiction preferences applies to a notice (decision 046): the first
// enabled one, by order, whose groups hold a jurisdiction of the notice's court (no groups: every
// court) and, when it lists party e-mail domains, one of whose domains is among the addresses the
// court served.

export interface AppliedPreference {
  id: string;
  name: string;
  autoCaseCreationId: string | null;
  documentProcessingId: string | null;
}

const parseDomains = (json: string): string[] => {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string").map((v) => v.toLowerCase()) : [];
  } catch {
    return [];
  }
};

/** A preference as the choice reads it. */
export interface PreferenceRow {
  id: string;
  name: string;
  auto_case_creation_id: string | null;
  document_processing_id: string | null;
  party_email_domains: string;
}

/** A preference's group and a court its jurisdictions are mapped to (null: a group without one). */
export interface PreferenceCourt {
  preference_id: string;
  court: string | null;
}

/** The firm's enabled preferences in the order they are tried. */
export function enabledPreferences(db: Kysely<DB>, firmId: number): Promise<PreferenceRow[]> {
  return db
    .selectFrom("jurisdiction_preference")
    .select(["id", "name", "auto_case_creation_id", "document_processing_id", "party_email_domains"])
    .where("firm_id", "=", firmId)
    .where("enabled", "=", 1)
    .orderBy("order")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** Each preference's groups, and the courts their jurisdictions are mapped to. */
export function preferenceCourts(db: Kysely<DB>, firmId: number, preferences: PreferenceRow[]): Promise<PreferenceCourt[]> {
  return db
    .selectFrom("jurisdiction_preference_group as pg")
    .leftJoin("jurisdiction_group_jurisdiction as gj", "gj.group_id", "pg.group_id")
    .leftJoin("jurisdiction_ecfx as je", "je.jurisdiction_id", "gj.jurisdiction_id")
    .select(["pg.preference_id", "je.ecfx_jurisdiction_id as court"])
    .where("pg.firm_id", "=", firmId)
    .where(
      "pg.preference_id",
      "in",
      preferences.map((p) => p.id),
    )
    .execute();
}

/** The first preference (in their order) whose courts and party domains take the notice. */
export function pickPreference(
  preferences: PreferenceRow[],
  groups: PreferenceCourt[],
  courtId: string | null,
  servedDomains: ReadonlySet<string>,
): AppliedPreference | null {
  const grouped = new Set(groups.map((g) => g.preference_id));
  const courts = new Set(groups.filter((g) => g.court).map((g) => `${g.preference_id}\u0000${g.court}`));
  const found = preferences.find((p) => {
    const inCourts = !grouped.has(p.id) || (courtId !== null && courts.has(`${p.id}\u0000${courtId}`));
    const domains = parseDomains(p.party_email_domains);
    return inCourts && (domains.length === 0 || domains.some((d) => servedDomains.has(d)));
  });
  return found ? { id: found.id, name: found.name, autoCaseCreationId: found.auto_case_creation_id, documentProcessingId: found.document_processing_id } : null;
}
