import type { FastifyInstance } from "fastify";
import { REGISTRY } from "../../../app/common/resources";
import { DMS_CREDENTIAL_TABLES, type DmsCredentialKind } from "../../../app/common/resources/credentials";
import type { ResourceDef } from "../../../app/common/resources/types";
import { authenticate, requireAccess } from "../../auth/caller";
import type { ServerContext } from "../../context";
import { DmsTargetError } from "../../dms/dms-target";
import type { ConnectionReport } from "../../dms/vendor-target";
import { notFound } from "../../lib/errors";
import { message } from "../../lib/messages";
import { OutboundRefusedError } from "../../outbound/guard";
import { vendorTargetFor } from "../../dms/vendor-targets";

// "Test connection" on a DMS credential's page: signs in with the stored secrets and lists the
// root folder, reporting each step in plain words. It uses the secrets, so it asks for full
// access to the credential's type, like changing them would.

const kindOf = (def: ResourceDef) => DMS_CREDENTIAL_TABLES[def.key as keyof typeof DMS_CREDENTIAL_TABLES] as DmsCredentialKind | undefined;

function failedReport(error: unknown): ConnectionReport {
  const detail = error instanceof DmsTargetError || error instanceof OutboundRefusedError ? error.message : message("errors:somethingWrong");
  return { ok: false, steps: [{ step: message("storage:connection.prepare"), ok: false, detail }] };
}

export function dmsCredentialRoutes(app: FastifyInstance, ctx: ServerContext) {
  for (const def of Object.values(REGISTRY as Record<string, ResourceDef>)) {
    const kind = kindOf(def);
    if (!def.testConnection || !kind) continue;
    app.post<{ Params: { id: string } }>(`${def.apiPath}/:id/test-connection`, async (request) => {
      const caller = await authenticate(ctx, request);
      requireAccess(caller, def.resource, "write");
      const found = await ctx.database.db
        .selectFrom("dms_credential_directory")
        .select("id")
        .where("id", "=", request.params.id)
        .where("firm_id", "=", caller.firmId)
        .where("kind", "=", kind)
        .executeTakeFirst();
      if (!found) throw notFound();
      try {
        const target = await vendorTargetFor(ctx, caller.firmId, kind, found.id);
        return await target.testConnection();
      } catch (error) {
        if (!(error instanceof DmsTargetError || error instanceof OutboundRefusedError)) request.log.warn({ err: error }, "connection test failed");
        return failedReport(error);
      }
    });
  }
}
