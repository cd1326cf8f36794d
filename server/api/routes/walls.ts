import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { message } from "../../lib/messages";
import { scheduleWallsRecomputation } from "../../walls/apply-walls";
import { authenticate, requireAccess } from "../../auth/caller";
import { auditFirmChange } from "../../resources/audit";
import { HttpError, invalid, notFound } from "../../lib/errors";

const body = z.object({ enabled: z.boolean() });

/** Whether the firm's ethical walls hold, and where their recomputation stands (spec §4). */
export function wallRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.database.db;
  const state = async (firmId: number) => {
    const firm = await db.selectFrom("firm").select(["internal_walls_enabled", "internal_walls_state"]).where("id", "=", firmId).executeTakeFirst();
    if (!firm) throw notFound();
    return { enabled: Boolean(firm.internal_walls_enabled), state: firm.internal_walls_state };
  };

  app.get("/api/v1/firm/internal-walls", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "read");
    return state(caller.firmId);
  });

  app.put("/api/v1/firm/internal-walls", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "write");
    // The same rule as for the walls themselves: nobody behind a wall turns walls off.
    const user = await db.selectFrom("app_user").select("timekeeper_id").where("id", "=", caller.userId).executeTakeFirst();
    if (user?.timekeeper_id) throw new HttpError(403, message("errors:wallsNeedNoTimekeeper"));
    const parsed = body.safeParse(request.body ?? {});
    if (!parsed.success) throw invalid({ enabled: [message("errors:invalidRequest")] });
    const before = await state(caller.firmId);
    if (before.enabled !== parsed.data.enabled) {
      const now = ctx.clock.now();
      const firm = await db.selectFrom("firm").select("name").where("id", "=", caller.firmId).executeTakeFirstOrThrow();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("firm")
          .set({ internal_walls_enabled: parsed.data.enabled ? 1 : 0, updated_at: now })
          .where("id", "=", caller.firmId)
          .execute();
        await auditFirmChange(trx, caller, { name: firm.name, internal_walls_enabled: before.enabled }, { internal_walls_enabled: parsed.data.enabled }, now);
      });
      await scheduleWallsRecomputation(ctx, caller.firmId);
    }
    return state(caller.firmId);
  });
}
