import { sql } from "kysely";
import type { ServerContext } from "../context";
import { type Caller, requireAccess } from "../auth/caller";
import type { SearchResult } from "./repository";
import { containsFolded } from "../lib/text-fold";

/**
 * The firm's security roles for pickers (a user's role): id, name and whether the system
 * defined it. Whoever may read users may see which roles exist; the roles' table and their
 * permission matrices stay behind firm access (/api/v1/security-role, /security-roles).
 */
export async function searchRoleChoices(
  ctx: ServerContext,
  caller: Caller,
  q: { max: number; offset: number; freeText?: string; ids: string[] },
): Promise<SearchResult> {
  requireAccess(caller, "user", "read");
  let select = ctx.database.db.selectFrom("security_role").where("firm_id", "=", caller.firmId);
  if (q.freeText) {
    select = select.where(containsFolded(ctx.database.dialect, sql.ref("name"), q.freeText));
  }
  if (q.ids.length) select = select.where("id", "in", q.ids);
  const [rows, total] = await Promise.all([
    select.select(["id", "name", "is_system_defined"]).orderBy("name").orderBy("id").limit(q.max).offset(q.offset).execute(),
    select.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst(),
  ]);
  return {
    rows: rows.map((r) => ({ id: r.id, name: r.name, is_system_defined: Boolean(r.is_system_defined) })),
    total: Number(total?.n ?? 0),
  };
}
