import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { firmUpdateSchema } from "../../../app/common/firm-schema";
import type { ServerContext } from "../../context";
import { sameFeatures } from "../../../app/common/entitled-features";
import { firmBranding } from "../../firm/firm-record";
import { productPartsOf } from "../../firm/product-parts";
import { scheduleWallsRecomputation } from "../../walls/apply-walls";
import { hostNameRefusal } from "../../firm/host-names";
import { findFirm, findFirmForHost, firmLogo, hostNamesOfOtherFirms, implicitHostNames, saveFirmLogo, updateFirm } from "../../firm/firm-repository";
import { message } from "../../lib/messages";
import { authenticate, levelOf, requireAccess } from "../../auth/caller";
import { HttpError, errorHandler, invalid, notFound } from "../../lib/errors";
import { ssoReady } from "../../sso/firm-sso";
import { auditFirmChange } from "../../resources/audit";
import { readBody, sendProtobuf, wantsProtobuf } from "../protobuf-body";

const MAX_LOGO_BYTES = 1024 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function firmRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.get("/api/v1/firm", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    const firm = await findFirm(ctx.database, caller.firmId);
    if (!firm) throw notFound();
    // Every signed-in user needs the branding for the shell; the settings need firm access.
    const visible = levelOf(caller, "firm") === "DENY" ? firmBranding(firm) : firm;
    if (wantsProtobuf(request)) return sendProtobuf(reply, "Firm", { ...visible });
    return reply.send(visible);
  });

  const saveFirm = async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const caller = await authenticate(ctx, request);
    if (Number(request.params.id) !== caller.firmId) throw notFound();
    requireAccess(caller, "firm", "write");
    const update = firmUpdateSchema.parse(readBody(request, "Firm", "snake"));
    const before = await findFirm(ctx.database, caller.firmId);
    if (!before) throw notFound();
    // What the firm bought is set by ECFX, not by the firm's own administrators (decision 048).
    if (!sameFeatures(update.entitled_features, before.entitled_features)) throw new HttpError(403, message("errors:entitledFeaturesFixed"));
    update.entitled_features = before.entitled_features;
    // Staff cannot be sent to an identity provider the firm has not described (decision 099).
    if (update.signon_type !== "local" && update.signon_type !== before.signon_type && !(await ssoReady(ctx, caller.firmId, update.signon_type)))
      throw invalid({ signon_type: ["errors:sso.notConfigured"] }, message("errors:sso.notConfigured"));
    // Otherwise one firm could put its branding on another firm's sign-in page (decision 090).
    const others = await hostNamesOfOtherFirms(ctx.database, caller.firmId, implicitHostNames(ctx.config.publicUrl));
    const refusal = hostNameRefusal(update.host_names, before.host_names, others);
    if (refusal) throw new HttpError(refusal.status, refusal.message);
    const now = ctx.clock.now();
    await ctx.database.db.transaction().execute(async (trx) => {
      await updateFirm(ctx.database, caller.firmId, update, now, trx);
      await auditFirmChange(trx, caller, before as unknown as Record<string, unknown>, update, now);
    });
    // Turning walls on or off changes who may hear of what: the state follows the recomputation.
    if (Boolean(before.internal_walls_enabled) !== Boolean(update.internal_walls_enabled)) {
      await scheduleWallsRecomputation(ctx, caller.firmId);
    }
    return findFirm(ctx.database, caller.firmId);
  };
  app.put<{ Params: { id: string } }>("/api/v1/firm/:id", saveFirm);
  app.post<{ Params: { id: string } }>("/api/v1/firm/:id", saveFirm);

  // The parts of the product this firm has: the console hides the others.
  app.get("/api/v1/firm/features", async (request) => {
    const caller = await authenticate(ctx, request);
    const parts = await productPartsOf(ctx, caller.firmId);
    if (!parts) throw notFound();
    return { parts };
  });

  // Branding for the sign-in page, before anyone is signed in.
  app.get<{ Querystring: { host?: string; firm?: string } }>("/api/v1/firm/public", async (request) => {
    const byId = Number(request.query.firm);
    const firm =
      Number.isInteger(byId) && byId > 0
        ? await findFirm(ctx.database, byId)
        : await findFirmForHost(ctx.database, request.query.host, implicitHostNames(ctx.config.publicUrl));
    if (!firm) throw notFound();
    return firmBranding(firm);
  });

  app.get<{ Querystring: { firm?: string } }>("/api/v1/firm/logo.png", async (request, reply) => {
    const logo = await firmLogo(ctx.database, Number(request.query.firm));
    if (!logo) throw notFound();
    return reply.type("image/png").header("cache-control", "public, max-age=300").send(logo);
  });

  // Fastify refuses a too large or non-PNG body before the handler runs; the uploader still
  // gets the catalogue's upload message rather than a bare 413 or 415.
  const logoErrors = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    errorHandler(error.code?.startsWith("FST_ERR_CTP_") ? new HttpError(400, message("errors:imageUpload")) : error, request, reply);

  app.put("/api/v1/firm/logo.png", { bodyLimit: MAX_LOGO_BYTES + 1024, errorHandler: logoErrors }, async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "write");
    const body = request.body;
    if (!Buffer.isBuffer(body) || body.length === 0 || body.length >= MAX_LOGO_BYTES || !body.subarray(0, 8).equals(PNG_SIGNATURE)) {
      throw new HttpError(400, message("errors:imageUpload"));
    }
    await saveFirmLogo(ctx.database, caller.firmId, body, ctx.clock.now());
    return { logo: "/api/v1/firm/logo.png" };
  });
}
