import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context";
import { message } from "../../lib/messages";
import { serverResourceByPath } from "../../resources/registry";
import { create, read, remove, search, update } from "../../resources/repository";
import { QueryError, parseSearchQuery } from "../../resources/search-query";
import { referenceAnswers } from "../../resources/reference-answers";
import type { ServerResource } from "../../resources/types";
import { authenticate, fieldLevel } from "../../auth/caller";
import { invalid, notFound } from "../../lib/errors";

type Params = { resource: string; id?: string };

function resourceOf(request: FastifyRequest<{ Params: Params }>): ServerResource {
  const res = serverResourceByPath(request.params.resource);
  if (!res) throw notFound();
  return res;
}

/** Search and CRUD for every registry entry: /api/v1/{resource}/search, /api/v1/{resource}/{id}. */
export function resourceRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.get<{ Params: Params; Querystring: Record<string, string> }>("/api/v1/:resource/search", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    const res = resourceOf(request);
    let query;
    try {
      query = parseSearchQuery(request.query, res.def.defaultSort);
    } catch (error) {
      if (error instanceof QueryError) throw invalid({ [error.field]: [message(error.message)] }, message(error.message));
      throw error;
    }
    // The entity's default order may name a field this role cannot read; the id order remains.
    if (!request.query.sort) query = { ...query, sort: query.sort.filter((s) => fieldLevel(caller, res.def.resource, s.field) !== "DENY") };
    const result = await search(ctx, caller, res, query);
    void reply.header("x-total-count", String(result.total));
    // The previous and next pages' cursors (keyset.ts), to send back as `before` and `after`.
    const cursors = { ...(result.previous ? { previous: result.previous } : {}), ...(result.next ? { next: result.next } : {}) };
    if (cursors.previous) void reply.header("x-previous-cursor", cursors.previous);
    if (cursors.next) void reply.header("x-next-cursor", cursors.next);
    // A list page asks for its references' titles and filter choices in the same call.
    if (request.query.references === "1")
      return { rows: result.rows, total: result.total, ...cursors, ...(await referenceAnswers(ctx, caller, res, result.rows)) };
    return result.rows;
  });

  app.get<{ Params: Params }>("/api/v1/:resource/:id", async (request) => {
    const caller = await authenticate(ctx, request);
    return read(ctx, caller, resourceOf(request), request.params.id!);
  });

  app.post<{ Params: Params }>("/api/v1/:resource", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    return reply.status(201).send(await create(ctx, caller, resourceOf(request), request.body ?? {}));
  });

  const change = async (request: FastifyRequest<{ Params: Params }>) => {
    const caller = await authenticate(ctx, request);
    return update(ctx, caller, resourceOf(request), request.params.id!, request.body ?? {});
  };
  app.put<{ Params: Params }>("/api/v1/:resource/:id", change);
  app.patch<{ Params: Params }>("/api/v1/:resource/:id", change);

  app.delete<{ Params: Params }>("/api/v1/:resource/:id", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    await remove(ctx, caller, resourceOf(request), request.params.id!);
    return reply.status(204).send();
  });
}
