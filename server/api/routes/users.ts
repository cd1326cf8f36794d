import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { authenticate, requireAccess } from "../caller";

const SORTABLE = { email: "email", full_name: "full_name", display_name: "display_name", created_at: "created_at" } as const;

const query = z.object({
  max: z.coerce.number().int().min(1).max(100).default(25),
  // Bounded so the database can bind it: SQLite refuses integers beyond 64 bits.
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  freeText: z.string().trim().max(200).optional(),
  sort: z
    .string()
    .regex(/^-?(email|full_name|display_name|created_at)$/)
    .default("email"),
});

export function userRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.database.db;

  app.get("/api/v1/user/search", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "user", "read");
    const q = query.parse(request.query);
    let base = db.selectFrom("app_user").where("firm_id", "=", caller.firmId);
    if (q.freeText) {
      const like = `%${q.freeText.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
      base = base.where((eb) =>
        eb.or([eb(eb.fn("lower", ["email"]), "like", like), eb(eb.fn("lower", ["full_name"]), "like", like)]),
      );
    }
    const column = SORTABLE[q.sort.replace(/^-/, "") as keyof typeof SORTABLE];
    const [rows, total] = await Promise.all([
      base
        .select(["id", "email", "full_name", "display_name", "timekeeper_id", "security_role_id", "created_at"])
        .orderBy(column, q.sort.startsWith("-") ? "desc" : "asc")
        .orderBy("id")
        .limit(q.max)
        .offset(q.offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    void reply.header("x-total-count", String(total.n));
    return rows;
  });
}
