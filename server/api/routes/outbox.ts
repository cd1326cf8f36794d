import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { authenticate, requireAccess } from "../../auth/caller";
import { notFound } from "../../lib/errors";

const listQuery = z.object({
  max: z.coerce.number().int().min(1).max(100).default(25),
  // Bounded so the database can bind it: SQLite refuses integers beyond 64 bits.
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
});

// Captured mail can hold password-reset links, so reading it needs FULL firm access.
export function outboxRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.database.db;

  app.get("/api/v1/outbox/search", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "write");
    const q = listQuery.parse(request.query);
    const base = db.selectFrom("outbound_mail").where("firm_id", "=", caller.firmId);
    const [rows, total] = await Promise.all([
      base
        .select(["id", "purpose", "to_addresses", "subject", "transport", "status", "error", "created_at"])
        .orderBy("created_at", "desc")
        .orderBy("id")
        .limit(q.max)
        .offset(q.offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    void reply.header("x-total-count", String(total.n));
    return rows.map((r) => ({ ...r, to_addresses: JSON.parse(r.to_addresses) as string[] }));
  });

  app.get<{ Params: { id: string } }>("/api/v1/outbox/:id", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "write");
    const row = await db.selectFrom("outbound_mail").selectAll().where("id", "=", request.params.id).where("firm_id", "=", caller.firmId).executeTakeFirst();
    if (!row) throw notFound();
    return { ...row, to_addresses: JSON.parse(row.to_addresses) as string[] };
  });
}
