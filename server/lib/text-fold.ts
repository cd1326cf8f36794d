import { type Expression, type RawBuilder, sql } from "kysely";

// The one rule of every free-text search: compatibility decomposition, accents dropped, lower
// case, so that "Pena" finds "Peña" and "peña" finds "PENA". The text index folds its words with
// it (resources/search-text.ts); a plain "contains" search folds both sides with it here.

export const FOLD_FUNCTION = "ecfx_fold";

export function fold(text: string): string {
  // Plain ASCII (most of it) has nothing to decompose.
  if (/^[\x20-\x7e]*$/.test(text)) return text.toLowerCase();
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

// PostgreSQL's regular expressions have no \p{M}: the blocks of combining marks stand for it.
const COMBINING_MARKS = "[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]";

/** `column` holds `text` once both are folded. SQLite folds with fold() itself, registered as ecfx_fold. */
export function containsFolded(dialect: "sqlite" | "postgres", column: Expression<unknown>, text: string): RawBuilder<boolean> {
  const like = `%${fold(text).replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  const folded =
    dialect === "sqlite" ? sql`${sql.raw(FOLD_FUNCTION)}(${column})` : sql`lower(regexp_replace(normalize(${column}, NFKD), ${COMBINING_MARKS}, '', 'g'))`;
  return sql<boolean>`${folded} like ${like} escape '\\'`;
}
