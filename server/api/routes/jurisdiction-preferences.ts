import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { authenticate } from "../../auth/caller";
import { reorderPreferences } from "../../resources/preference-order";
import { serverResource } from "../../resources/registry";
import { checkWritableFields, requireResource } from "../../resources/repository";

// The order of the jurisdiction preferences, set in one call: the whole list, first to last.

const orderBody = z.object({ ids: z.array(z.string().min(1).max(100)).max(10_000) });

export function jurisdictionPreferenceRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.put("/api/v1/jurisdiction-preference/order", async (request) => {
    const caller = await authenticate(ctx, request);
    const res = serverResource("jurisdiction-preferences");
    requireResource(res, caller, "write");
    checkWritableFields(res, caller, { order: true });
    const { ids } = orderBody.parse(request.body ?? {});
    return reorderPreferences(ctx, caller, ids);
  });
}
