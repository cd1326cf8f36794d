import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { recordPageView } from "../../analytics/analytics";
import { authenticate } from "../../auth/caller";
import type { ServerContext } from "../../context";

const pageViewBody = z.object({
  title: z.string().max(200),
  path: z.string().max(2_000),
  /** The console's host as the browser reached it: it picks the project token. */
  host: z.string().min(1).max(255),
});

export function analyticsRoutes(app: FastifyInstance, ctx: ServerContext) {
  /** The console reports each page a signed-in user opens; the API sends it on, if configured. */
  app.post("/api/v1/analytics/page-view", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    const view = pageViewBody.parse(request.body ?? {});
    const firm = await ctx.database.db.selectFrom("firm").select("name").where("id", "=", caller.firmId).executeTakeFirst();
    try {
      await recordPageView(ctx, { ...view, userId: caller.userId, email: caller.email, name: caller.fullName, firm: firm?.name ?? "" });
    } catch (error) {
      // Analytics never fail a page: the loss of one event is logged and forgotten.
      request.log.info({ err: error }, "analytics not sent");
    }
    return reply.status(204).send();
  });
}
