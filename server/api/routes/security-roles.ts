import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { message } from "../../lib/messages";
import { authenticate, requireAccess } from "../../auth/caller";
import { invalid } from "../../lib/errors";
import { securityRoles } from "../../../app/common/resources/security-roles";

const MAX_PAGE = 100;
const query = z.object({
  max: z.coerce.number().int().min(1).max(MAX_PAGE).default(25),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  freeText: z.string().trim().max(200).optional(),
  "filter.id": z.string().max(5000).optional(),
});

/**
 * The firm's security roles for pickers (a user's role): id, name and whether the system
 * defined it. Whoever may read users may see which roles exist; the roles' table and their
 * permission matrices stay behind firm access (/api/v1/security-role, /security-roles).
 */
export function securityRoleRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.get<{ Querystring: Record<string, string> }>(`${securityRoles.pickerPath}/search`, async (request, reply) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "user", "read");
    const parsed = query.safeParse(request.query);
    if (!parsed.success) throw invalid({ query: [message("errors:invalidRequest")] });
    const { max, offset, freeText } = parsed.data;
    const ids = (parsed.data["filter.id"] ?? "")
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean)
      .slice(0, 50);

    let select = ctx.database.db.selectFrom("security_role").where("firm_id", "=", caller.firmId);
    if (freeText) {
      const like = `%${freeText.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
      select = select.where(sql<boolean>`lower(name) like ${like} escape '\\'`);
    }
    if (ids.length) select = select.where("id", "in", ids);

    const [rows, total] = await Promise.all([
      select.select(["id", "name", "is_system_defined"]).orderBy("name").orderBy("id").limit(max).offset(offset).execute(),
      select.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst(),
    ]);
    void reply.header("x-total-count", String(Number(total?.n ?? 0)));
    return rows.map((r) => ({ id: r.id, name: r.name, is_system_defined: Boolean(r.is_system_defined) }));
  });
}
