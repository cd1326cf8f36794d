import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { REGISTRY, type RegistryKey } from "../../../app/common/resources";
import { DMS_CREDENTIAL_TABLES, type DmsCredentialKind } from "../../../app/common/resources/credentials";
import type { ResourceDef } from "../../../app/common/resources/types";
import { authenticate } from "../../auth/caller";
import type { ServerContext } from "../../context";
import { authorizationOf } from "../../dms/authorization-code";
import { DmsTargetError } from "../../dms/dms-target";
import { HttpError, invalid, notFound } from "../../lib/errors";
import { message } from "../../lib/messages";
import { serverResource } from "../../resources/registry";
import { requireResource } from "../../resources/repository";
import { signAuthorizationState, verifyAuthorizationState } from "../../dms/authorization-state";
import { vendorTargetFor } from "../../dms/vendor-targets";

// Connecting a credential to a vendor that needs a person's approval (decision 057): the record
// page asks whether it is connected, asks for the vendor's consent address (with a signed state
// naming the firm, the credential and the person), and the console's callback hands the vendor's
// code and that state back here, where the code is exchanged and the tokens kept sealed.

const kindOf = (def: ResourceDef) => DMS_CREDENTIAL_TABLES[def.key as keyof typeof DMS_CREDENTIAL_TABLES] as DmsCredentialKind | undefined;

/** Where the vendor sends the browser back: the console's callback for the system. */
export const authorizationRedirectUri = (ctx: ServerContext, system: string) => `${ctx.config.publicUrl}/oauth/${system}/callback`;

const callbackBody = z.object({ system: z.string().min(1).max(40), code: z.string().min(1).max(2000), state: z.string().min(1).max(4000) });

export function dmsAuthorizationRoutes(app: FastifyInstance, ctx: ServerContext) {
  const defs = Object.values(REGISTRY as Record<string, ResourceDef>).filter((def) => def.authorization && kindOf(def));

  const targetOf = async (firmId: number, def: ResourceDef, id: string) => {
    const kind = kindOf(def)!;
    const found = await ctx.database.db
      .selectFrom("dms_credential_directory")
      .select("id")
      .where("id", "=", id)
      .where("firm_id", "=", firmId)
      .where("kind", "=", kind)
      .executeTakeFirst();
    if (!found) throw notFound();
    const authorization = authorizationOf(await vendorTargetFor(ctx, firmId, kind, found.id));
    if (!authorization) throw notFound();
    return { kind, authorization };
  };

  for (const def of defs) {
    const system = def.authorization!.system;
    app.get<{ Params: { id: string } }>(`${def.apiPath}/:id/authorization`, async (request) => {
      const caller = await authenticate(ctx, request);
      // The credential's own level and its page (firm access), as the generic API asks.
      requireResource(serverResource(def.key as RegistryKey), caller, "read");
      const { authorization } = await targetOf(caller.firmId, def, request.params.id);
      return authorization.status();
    });

    app.post<{ Params: { id: string } }>(`${def.apiPath}/:id/authorization`, async (request) => {
      const caller = await authenticate(ctx, request);
      requireResource(serverResource(def.key as RegistryKey), caller, "write");
      const { kind, authorization } = await targetOf(caller.firmId, def, request.params.id);
      const state = await signAuthorizationState(ctx, { firmId: caller.firmId, userId: caller.userId, kind, credentialId: request.params.id });
      return { url: authorization.authorizeUrl(state, authorizationRedirectUri(ctx, system)) };
    });
  }

  app.post("/api/v1/dms-authorization/callback", async (request) => {
    const caller = await authenticate(ctx, request);
    const parsed = callbackBody.safeParse(request.body);
    if (!parsed.success) throw invalid({}, message("storage:authorization.badCallback"));
    const { system, code, state } = parsed.data;
    const checked = await verifyAuthorizationState(ctx, state);
    if (!checked.ok) throw new HttpError(400, message(checked.problem === "expired" ? "storage:authorization.expired" : "storage:authorization.badCallback"));
    const { claims } = checked;
    const def = defs.find((d) => kindOf(d) === claims.kind && d.authorization!.system === system);
    // Only the person who asked, in their own firm, completes the connection.
    if (!def || claims.firmId !== caller.firmId || claims.userId !== caller.userId) throw new HttpError(403, message("storage:authorization.notYours"));
    requireResource(serverResource(def.key as RegistryKey), caller, "write");
    const { authorization } = await targetOf(caller.firmId, def, claims.credentialId);
    try {
      await authorization.complete(code, authorizationRedirectUri(ctx, system));
    } catch (error) {
      if (error instanceof DmsTargetError) throw new HttpError(error.retryable ? 503 : 400, error.message);
      throw error;
    }
    return { resource: def.key, id: claims.credentialId, ...(await authorization.status()) };
  });
}
