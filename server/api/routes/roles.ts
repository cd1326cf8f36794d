import type { FastifyInstance, FastifyReply } from "fastify";
import { parsePermissions, roleMessage } from "../../auth/permissions";
import type { ServerContext } from "../../context";
import { type Caller, authenticate, levelOf, requireAccess } from "../../auth/caller";
import { HttpError, forbidden, notFound } from "../../lib/errors";
import { message } from "../../lib/messages";
import { createRole, deleteRole, roleInputOf, updateRole } from "../../resources/security-roles";
import { isProtobufBody, readBody, sendProtobuf } from "../protobuf-body";

type Params = { id: string };

export function roleRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.database.db;

  async function sendRole(reply: FastifyReply, caller: Caller, id: string) {
    const role = await db.selectFrom("security_role").selectAll().where("id", "=", id).where("firm_id", "=", caller.firmId).executeTakeFirst();
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
  }

  // A role is written as it is read: the binary UserSecurityRole message. Whoever may not
  // change roles learns only that, whatever they sent.
  const roleBody = (caller: Caller, request: Parameters<typeof readBody>[0]) => {
    requireAccess(caller, "firm", "write");
    if (!isProtobufBody(request)) throw new HttpError(415, message("errors:invalidRequest"));
    return roleInputOf(readBody(request, "UserSecurityRole") as Record<string, unknown>);
  };

  // The binary UserSecurityRole message. Anyone may read their own role; other roles of the
  // firm need access to firm settings, where roles are managed.
  app.get<{ Params: Params }>("/api/v1/user-security-role/:id", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    return sendRole(reply, caller, request.params.id);
  });

  app.post("/api/v1/user-security-role", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    const id = await createRole(ctx, caller, roleBody(caller, request));
    return sendRole(reply.status(201), caller, id);
  });

  app.put<{ Params: Params }>("/api/v1/user-security-role/:id", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    await updateRole(ctx, caller, request.params.id, roleBody(caller, request));
    return sendRole(reply, caller, request.params.id);
  });

  app.delete<{ Params: Params }>("/api/v1/user-security-role/:id", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    await deleteRole(ctx, caller, request.params.id);
    return reply.status(204).send();
  });
}
