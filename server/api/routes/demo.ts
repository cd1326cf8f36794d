import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../../context";
import { authenticate, requireAccess } from "../../auth/caller";
import { demoResetAvailable } from "../../firm/demo-firm";
import { notFound } from "../../lib/errors";

// The demo installation's reset (decision 048): absent elsewhere, and for the demo firm's users
// with full firm access only.
export function demoRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.post("/api/v1/demo/reset", async (request) => {
    const caller = await authenticate(ctx, request);
    if (!ctx.resetDemoFirm || !(await demoResetAvailable(ctx, caller.firmId))) throw notFound();
    requireAccess(caller, "firm", "write");
    return ctx.resetDemoFirm(caller);
  });
}
