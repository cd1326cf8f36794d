import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { authenticate, requireAccess } from "../../auth/caller";
import { fieldErrorsOf, invalid } from "../../lib/errors";
import { listDocuments } from "../../resources/document-list";
import { readScopeOf } from "../../resources/read-scope";

const id = z.string().trim().min(1).max(100);
/** Exactly one owner: a case or an envelope. */
const listQuery = z
  .object({ case_id: id.optional(), envelope_id: id.optional() })
  .refine((q) => (q.case_id === undefined) !== (q.envelope_id === undefined), { message: "errors:documentListOwner", path: ["case_id"] });

/** Documents listed by what they belong to, within the caller's firm and walls. */
export function documentRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.get<{ Querystring: Record<string, string> }>("/api/v1/document/list", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "document", "read");
    const query = listQuery.safeParse(request.query ?? {});
    if (!query.success) throw invalid(fieldErrorsOf(query.error));
    const { case_id, envelope_id } = query.data;
    return listDocuments(ctx.database.db, await readScopeOf(ctx.database.db, caller), case_id ? { case_id } : { envelope_id: envelope_id! });
  });
}
