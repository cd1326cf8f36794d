import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../../context";
import { authenticate, callerFirmOf, requireAccess } from "../../auth/caller";
import { type CallTimings, callTimings, slowRoutes } from "../call-timings";

// The slow-requests page's data: every signed-in call is timed against its route pattern (ids
// never kept), and the firm's administrators read their own firm's last hour.
export function slowCallRoutes(app: FastifyInstance, ctx: ServerContext): CallTimings {
  const timings = callTimings(ctx.database);

  app.addHook("onResponse", async (request, reply) => {
    const firmId = callerFirmOf(request);
    const route = request.routeOptions.url;
    if (firmId === undefined || !route) return;
    timings.record({ firm_id: firmId, method: request.method, route, ms: Math.round(reply.elapsedTime * 10) / 10, at: Date.now() });
  });
  app.addHook("onClose", () => timings.stop());

  app.get("/api/v1/slow-calls", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "write");
    // This process's waiting calls first, so the answer includes the calls just made.
    await timings.flush();
    return slowRoutes(ctx.database, caller.firmId);
  });
  return timings;
}
