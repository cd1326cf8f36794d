import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import type { ServerContext } from "../../context";

export function healthRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.get("/api/v1/health", async (_request, reply) => {
    try {
      await sql`select 1`.execute(ctx.database.db);
      return { status: "ok", database: ctx.database.dialect };
    } catch (error) {
      return reply.status(503).send({ status: "unavailable", database: ctx.database.dialect, error: String(error) });
    }
  });
}
