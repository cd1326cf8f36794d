import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { type Caller, authenticate, levelOf, requireAccess } from "../../auth/caller";
import { featureEnabled } from "../../firm/entitled-features";
import { findFirm } from "../../firm/firm-repository";
import { HttpError, invalid, notFound } from "../../lib/errors";
import { message } from "../../lib/messages";
import { caseCourt } from "../../pipeline/case-court";
import { retrieveOf, startRetrieve } from "../../pipeline/case-retrieve";
import { changeTracking, trackingOf } from "../../pipeline/case-tracking";
import { RETRIEVE_MODES, TRACKING_ACTIONS } from "../../../app/common/case-tracking";
import { userWalledOutOfCase } from "../../walls/walls";

// ECFX Track and case retrieve on one case (spec §2, §4, §6; decision 054). Reading needs READ
// on cases, changing FULL. Tracking needs the firm's ECFX_TRACK entitlement (403 with the reason
// otherwise); retrieve needs an installation that turns it on (ECFX_CASE_RETRIEVE), never a header
// the caller sends.

type CaseParams = { Params: { id: string } };

const caseId = z.string().trim().min(1).max(100);
const trackingBody = z.object({ action: z.enum(TRACKING_ACTIONS) });
const retrieveBody = z.object({ mode: z.enum(RETRIEVE_MODES).default("update") });

export function caseTrackingRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.database.db;

  /** The caller's case, within the firm and its walls, or 404. */
  const visibleCase = async (caller: Caller, raw: string) => {
    const id = caseId.safeParse(raw);
    if (!id.success) throw notFound();
    const court = await caseCourt(db, caller.firmId, id.data);
    if (!court || (await userWalledOutOfCase(db, caller.firmId, caller.userId, court.caseId))) throw notFound();
    return court;
  };

  const entitledCaller = async (request: FastifyRequest, needed: "read" | "write") => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "case", needed);
    const firm = await findFirm(ctx.database, caller.firmId);
    if (!firm || !featureEnabled(firm, "ECFX_TRACK")) throw new HttpError(403, message("errors:trackNotEntitled"));
    return caller;
  };

  const retrieveCaller = async (request: FastifyRequest, needed: "read" | "write") => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "case", needed);
    const firm = await findFirm(ctx.database, caller.firmId);
    if (!firm || !featureEnabled(firm, "RETRIEVE", ctx.config.ECFX_CASE_RETRIEVE)) throw new HttpError(403, message("errors:retrieveOff"));
    return caller;
  };

  const canChange = (caller: Caller) => levelOf(caller, "case") === "FULL";

  app.get<CaseParams>("/api/v1/case/:id/tracking", async (request) => {
    const caller = await entitledCaller(request, "read");
    const court = await visibleCase(caller, request.params.id);
    return { ...(await trackingOf(ctx, caller.firmId, court.caseId)), can_change: canChange(caller) };
  });

  app.post<CaseParams>("/api/v1/case/:id/tracking", async (request) => {
    const caller = await entitledCaller(request, "write");
    const court = await visibleCase(caller, request.params.id);
    const body = trackingBody.safeParse(request.body ?? {});
    if (!body.success) throw invalid({ action: [message("errors:invalidRequest")] });
    return { ...(await changeTracking(ctx, caller.firmId, court.caseId, body.data.action)), can_change: true };
  });

  app.get<CaseParams>("/api/v1/case/:id/retrieve", async (request) => {
    const caller = await retrieveCaller(request, "read");
    const court = await visibleCase(caller, request.params.id);
    return { ...(await retrieveOf(ctx, caller.firmId, court)), can_change: canChange(caller) };
  });

  app.post<CaseParams>("/api/v1/case/:id/retrieve", async (request, reply) => {
    const caller = await retrieveCaller(request, "write");
    const court = await visibleCase(caller, request.params.id);
    const body = retrieveBody.safeParse(request.body ?? {});
    if (!body.success) throw invalid({ mode: [message("errors:invalidRequest")] });
    const started = await startRetrieve(ctx, caller.firmId, court, body.data.mode);
    return reply.status(202).send({ ...started, can_change: true });
  });
}
