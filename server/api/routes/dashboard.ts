import type { FastifyInstance } from "fastify";
import { periodQuerySchema } from "../../../app/common/dashboard-period";
import type { ServerContext } from "../../context";
import { dashboardFor } from "../../dashboard/dashboard";
import { authenticate, requireAccess } from "../../auth/caller";
import { HttpError, fieldErrorsOf } from "../../lib/errors";
import { mayOpen, noticeRows, readScopeOf, walledMatterIds } from "../../resources/read-scope";

export function dashboardRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.database.db;

  /** The dashboard's widgets for a period (`?period=last_7_days`, `?period=custom&from=…&to=…`). */
  app.get("/api/v1/dashboard", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "dashboard", "read");
    const parsed = periodQuerySchema.safeParse(request.query ?? {});
    if (!parsed.success) {
      const fieldErrors = fieldErrorsOf(parsed.error);
      throw new HttpError(400, Object.values(fieldErrors)[0]![0]!, fieldErrors);
    }
    // The counts cover what the caller's read scope leaves them: the matters its walls keep them from.
    const walled = await walledMatterIds(db, await readScopeOf(db, caller));
    return dashboardFor(ctx, caller, parsed.data, { firmId: caller.firmId, walledMatterIds: walled });
  });

  /**
   * Counts of what the firm has, each scoped to the caller's firm; the mail as the outbox lists it
   * to the caller, and null for a role the outbox is closed to.
   */
  app.get("/api/v1/dashboard/summary", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "dashboard", "read");
    const count = async (table: "app_user" | "security_role") => {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("firm_id", "=", caller.firmId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const countMail = async () => {
      if (!mayOpen(caller, "outbound_mail")) return null;
      const row = await (await noticeRows(db, caller, "outbound_mail")).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const [users, roles, mails] = await Promise.all([count("app_user"), count("security_role"), countMail()]);
    return { users, security_roles: roles, outbound_mail: mails };
  });
}
