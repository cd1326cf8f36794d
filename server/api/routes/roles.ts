import type { FastifyInstance } from "fastify";
import { parsePermissions, roleMessage } from "../../auth/permissions";
import type { ServerContext } from "../../context";
import { authenticate, levelOf } from "../../auth/caller";
import { forbidden, notFound } from "../../lib/errors";
import { sendProtobuf } from "../protobuf-body";

export function roleRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.database.db;

  // The binary UserSecurityRole message. Anyone may read their own role; other roles of the
  // firm need access to firm settings, where roles are managed.
  app.get<{ Params: { id: string } }>("/api/v1/user-security-role/:id", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    const role = await db.selectFrom("security_role").selectAll().where("id", "=", request.params.id).where("firm_id", "=", caller.firmId).executeTakeFirst();
    if (!role) throw notFound();
    if (role.id !== caller.roleId && levelOf(caller, "firm") === "DENY") throw forbidden();
    const users = await db
      .selectFrom("app_user")
      .select("id")
      .where("security_role_id", "=", role.id)
      .where("firm_id", "=", caller.firmId)
      .orderBy("id")
      .execute();
    return sendProtobuf(
      reply,
      "UserSecurityRole",
      roleMessage(
        role,
        parsePermissions(role.permissions),
        users.map((u) => u.id),
      ),
    );
  });
}
