import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { requiredText } from "../../../app/common/validation";
import { authenticate } from "../../auth/caller";
import type { ServerContext } from "../../context";
import { forbidden, notFound } from "../../lib/errors";
import { mapGroupToRole, provisioningSettings } from "../../scim/settings";
import { createScimToken, revokeScimToken } from "../../scim/tokens";

// The console's SCIM provisioning page: the firm's administrators make and revoke provisioning
// tokens and map the identity provider's groups to security roles.

const tokenBody = z.object({ label: requiredText(100) });
const mappingBody = z.object({ security_role_id: z.string().max(100).nullable() });

export function scimAdminRoutes(app: FastifyInstance, ctx: ServerContext) {
  const administrator = async (request: Parameters<typeof authenticate>[1]) => {
    const caller = await authenticate(ctx, request);
    if (!caller.isAdmin) throw forbidden();
    return caller;
  };

  app.get("/api/v1/scim", async (request) => {
    const caller = await administrator(request);
    return provisioningSettings(ctx, caller.firmId);
  });

  app.post("/api/v1/scim/tokens", async (request, reply) => {
    const caller = await administrator(request);
    const body = tokenBody.parse(request.body ?? {});
    return reply.status(201).send(await createScimToken(ctx, caller.firmId, caller.email, body.label));
  });

  app.delete<{ Params: { id: string } }>("/api/v1/scim/tokens/:id", async (request, reply) => {
    const caller = await administrator(request);
    if (!(await revokeScimToken(ctx, caller.firmId, caller.email, request.params.id))) throw notFound();
    return reply.status(204).send();
  });

  app.put<{ Params: { id: string } }>("/api/v1/scim/groups/:id", async (request) => {
    const caller = await administrator(request);
    const body = mappingBody.parse(request.body ?? {});
    await mapGroupToRole(ctx, caller, request.params.id, body.security_role_id || null);
    return provisioningSettings(ctx, caller.firmId);
  });
}
