import { fold } from "../lib/text-fold";

// The free-text index and its queries use one tokenisation: lower case, accents dropped,
// anything but letters and digits a separator. The firm rides along as a token of its own.

export function tokens(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export const firmToken = (firmId: number) => `firm${firmId}x`;

export function documentBody(firmId: number, values: unknown[]): string {
  const words = values.filter((v) => v !== null && v !== undefined && v !== "").flatMap((v) => tokens(String(v)));
  return [firmToken(firmId), ...words].join(" ");
}

const MAX_TERMS = 8;

/**
 * Every term must occur as a word prefix. Null when the text holds no searchable term. SQLite's
 * query names the firm, so that its index counts a firm's matches alone; PostgreSQL checks the
 * row's firm column and its index is used for the terms only: the firm's token is in every one of
 * the firm's documents, and matching it cost a walk of them all.
 */
export function ftsQuery(firmId: number, freeText: string, dialect: "sqlite" | "postgres"): string | null {
  const terms = tokens(freeText).slice(0, MAX_TERMS);
  if (terms.length === 0) return null;
  if (dialect === "sqlite") return [firmToken(firmId), ...terms.map((t) => `"${t}"*`)].join(" AND ");
  return terms.map((t) => `${t}:*`).join(" & ");
}
