import type { FastifyInstance } from "fastify";
import { defaultExportName } from "../../../app/common/export-name";
import type { ServerContext } from "../../context";
import { findFirm } from "../../firm/firm-repository";
import { message } from "../../lib/messages";
import { dispositionOf } from "../../lib/content-disposition";
import { exportCsv } from "../../resources/export";
import { serverResourceByPath } from "../../resources/registry";
import { QueryError, parseSearchQuery } from "../../resources/search-query";
import { authenticate, fieldLevel } from "../../auth/caller";
import { invalid, notFound } from "../../lib/errors";

/** GET /api/v1/{resource}/export: the search's query (paging aside) answered as one CSV file. */
export function resourceExportRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.get<{ Params: { resource: string }; Querystring: Record<string, string> }>("/api/v1/:resource/export", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    const res = serverResourceByPath(request.params.resource);
    if (!res) throw notFound();
    const { max: _max, offset: _offset, ...params } = request.query;
    let query;
    try {
      query = parseSearchQuery(params, res.def.defaultSort);
    } catch (error) {
      if (error instanceof QueryError) throw invalid({ [error.field]: [message(error.message)] }, message(error.message));
      throw error;
    }
    // The entity's default order may name a field this role cannot read; the id order remains.
    if (!params.sort) query = { ...query, sort: query.sort.filter((s) => fieldLevel(caller, res.def.resource, s.field) !== "DENY") };
    const csv = await exportCsv(ctx, caller, res, query);
    const firm = await findFirm(ctx.database, caller.firmId);
    const filename = `${defaultExportName(res.def.key, ctx.clock.now(), firm?.default_time_zone ?? "UTC")}.csv`;
    csv.body.on("error", (error) => request.log.error({ err: error }, "export stopped"));
    return reply
      .type("text/csv; charset=utf-8")
      .header("x-total-count", String(csv.total))
      .header("content-disposition", dispositionOf(filename))
      .send(csv.body);
  });
}
