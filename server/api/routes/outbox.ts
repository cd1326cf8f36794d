import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { authenticate } from "../../auth/caller";
import { notFound } from "../../lib/errors";
import { noticeRows } from "../../resources/read-scope";

const listQuery = z.object({
  max: z.coerce.number().int().min(1).max(100).default(25),
  // Bounded so the database can bind it: SQLite refuses integers beyond 64 bits.
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
});

// Captured and sent mail, as /dev shows it. Its page needs full firm access (mail can hold
// password-reset links); a mail about a notice an ethical wall keeps the caller from is neither
// listed, counted nor opened, nor the attachments that travel inside it (read-scope.ts).
export function outboxRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.database.db;

  app.get("/api/v1/outbox/search", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    const base = await noticeRows(db, caller, "outbound_mail");
    const q = listQuery.parse(request.query);
    const [rows, total] = await Promise.all([
      base
        .select(["t.id", "t.purpose", "t.to_addresses", "t.subject", "t.transport", "t.status", "t.error", "t.created_at"])
        .orderBy("t.created_at", "desc")
        .orderBy("t.id")
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
    const row = await (await noticeRows(db, caller, "outbound_mail")).selectAll("t").where("t.id", "=", request.params.id).executeTakeFirst();
    if (!row) throw notFound();
    return { ...row, to_addresses: JSON.parse(row.to_addresses) as string[] };
  });
}
