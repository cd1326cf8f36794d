import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { message } from "../../lib/messages";
import { authenticate } from "../../auth/caller";
import { searchRoleChoices } from "../../resources/role-choices";
import { invalid } from "../../lib/errors";
import { securityRoles } from "../../../app/common/resources/security-roles";

const MAX_PAGE = 100;
const query = z.object({
  max: z.coerce.number().int().min(1).max(MAX_PAGE).default(25),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  freeText: z.string().trim().max(200).optional(),
  "filter.id": z.string().max(5000).optional(),
});

/** The firm's security roles for pickers (server/resources/role-choices.ts). */
export function securityRoleRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.get<{ Querystring: Record<string, string> }>(`${securityRoles.pickerPath}/search`, async (request, reply) => {
    const caller = await authenticate(ctx, request);
    const parsed = query.safeParse(request.query);
    if (!parsed.success) throw invalid({ query: [message("errors:invalidRequest")] });
    const { max, offset, freeText } = parsed.data;
    const ids = (parsed.data["filter.id"] ?? "")
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean)
      .slice(0, 50);
    const { rows, total } = await searchRoleChoices(ctx, caller, { max, offset, freeText, ids });
    void reply.header("x-total-count", String(total));
    return rows;
  });
}
