import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context";
import { HttpError } from "../lib/errors";
import { nestsDeeperThan } from "../lib/json-depth";
import { MAX_RESULTS, getResourceType, getSchema, listResourceTypes, listSchemas, serviceProviderConfig } from "./discovery";
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup, replaceGroup } from "./groups";
import { SCIM_CONTENT_TYPE, ScimError, listResponse, pageOf, selectAttributes } from "./protocol";
import { scimFirmOf } from "./tokens";
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from "./users";

// SCIM 2.0 (RFC 7644) at /scim/v2, for a firm's identity provider: every answer is
// application/scim+json, every refusal a SCIM error body, every call opened by the firm's token.

type Query = { filter?: string; startIndex?: string; count?: string; attributes?: string; excludedAttributes?: string };
type WithId = { Params: { id: string }; Querystring: Query };

function send(reply: FastifyReply, status: number, body: unknown) {
  return reply.status(status).type(`${SCIM_CONTENT_TYPE}; charset=utf-8`).send(body);
}

const baseOf = (request: FastifyRequest) => `${request.protocol}://${request.host}/scim/v2`;

/** A list answer with `attributes`/`excludedAttributes` applied to each resource. */
function selected(list: Record<string, unknown>, query: Query) {
  return { ...list, Resources: (list.Resources as Record<string, unknown>[]).map((resource) => selectAttributes(resource, query)) };
}

export function scimRoutes(app: FastifyInstance, ctx: ServerContext) {
  void app.register(
    async (scim) => {
      // Identity providers send application/scim+json, some plain JSON; both are read alike.
      scim.addContentTypeParser(SCIM_CONTENT_TYPE, { parseAs: "string" }, (_request, body, done) => {
        const text = String(body);
        if (nestsDeeperThan(text)) return done(new ScimError(400, "The body nests too deeply.", "invalidSyntax"), undefined);
        try {
          done(null, text === "" ? undefined : JSON.parse(text));
        } catch {
          done(new ScimError(400, "The body is not JSON.", "invalidSyntax"), undefined);
        }
      });

      scim.setErrorHandler((error: unknown, request, reply) => {
        if (error instanceof ScimError) return send(reply, error.status, error.body());
        if (error instanceof HttpError) return send(reply, error.status, new ScimError(error.status, error.message).body());
        const status = (error as { statusCode?: number }).statusCode;
        if (status && status >= 400 && status < 500)
          return send(reply, status, new ScimError(status, (error as Error).message, status === 400 ? "invalidSyntax" : undefined).body());
        request.log.error(error);
        return send(reply, 500, new ScimError(500, "The request could not be completed.").body());
      });
      scim.setNotFoundHandler((request, reply) =>
        send(reply, 404, new ScimError(404, `No SCIM endpoint ${request.method} ${request.url.split("?")[0]}.`).body()),
      );

      // Every endpoint, discovery included, answers only a firm's token on the firm's host.
      scim.decorateRequest("scimFirm", 0);
      scim.addHook("preHandler", async (request) => {
        (request as FastifyRequest & { scimFirm: number }).scimFirm = await scimFirmOf(ctx, request);
      });
      const firmOf = (request: FastifyRequest) => (request as FastifyRequest & { scimFirm: number }).scimFirm;

      scim.get("/ServiceProviderConfig", async (request, reply) => send(reply, 200, serviceProviderConfig(baseOf(request))));
      scim.get<{ Querystring: Query }>("/ResourceTypes", async (request, reply) => {
        const all = listResourceTypes(baseOf(request));
        return send(reply, 200, listResponse(all, { startIndex: 1, count: all.length }));
      });
      scim.get<WithId>("/ResourceTypes/:id", async (request, reply) => send(reply, 200, getResourceType(request.params.id, baseOf(request))));
      scim.get("/Schemas", async (request, reply) => {
        const all = listSchemas(baseOf(request));
        return send(reply, 200, listResponse(all, { startIndex: 1, count: all.length }));
      });
      scim.get<WithId>("/Schemas/:id", async (request, reply) => send(reply, 200, getSchema(request.params.id, baseOf(request))));

      scim.get<{ Querystring: Query }>("/Users", async (request, reply) => {
        const list = await listUsers(ctx, firmOf(request), request.query.filter, pageOf(request.query, MAX_RESULTS), baseOf(request));
        return send(reply, 200, selected(list, request.query));
      });
      scim.post("/Users", async (request, reply) => {
        const user = await createUser(ctx, firmOf(request), request.body, baseOf(request));
        return send(reply.header("location", (user.meta as { location: string }).location), 201, user);
      });
      scim.get<WithId>("/Users/:id", async (request, reply) =>
        send(reply, 200, selectAttributes(await getUser(ctx, firmOf(request), request.params.id, baseOf(request)), request.query)),
      );
      scim.put<WithId>("/Users/:id", async (request, reply) =>
        send(reply, 200, await replaceUser(ctx, firmOf(request), request.params.id, request.body, baseOf(request))),
      );
      scim.patch<WithId>("/Users/:id", async (request, reply) =>
        send(reply, 200, await patchUser(ctx, firmOf(request), request.params.id, request.body, baseOf(request))),
      );
      scim.delete<WithId>("/Users/:id", async (request, reply) => {
        await deleteUser(ctx, firmOf(request), request.params.id);
        return reply.status(204).send();
      });

      scim.get<{ Querystring: Query }>("/Groups", async (request, reply) => {
        const list = await listGroups(ctx, firmOf(request), request.query.filter, pageOf(request.query, MAX_RESULTS), baseOf(request));
        return send(reply, 200, selected(list, request.query));
      });
      scim.post("/Groups", async (request, reply) => {
        const group = await createGroup(ctx, firmOf(request), request.body, baseOf(request));
        return send(reply.header("location", (group.meta as { location: string }).location), 201, group);
      });
      scim.get<WithId>("/Groups/:id", async (request, reply) =>
        send(reply, 200, selectAttributes(await getGroup(ctx, firmOf(request), request.params.id, baseOf(request)), request.query)),
      );
      scim.put<WithId>("/Groups/:id", async (request, reply) =>
        send(reply, 200, await replaceGroup(ctx, firmOf(request), request.params.id, request.body, baseOf(request))),
      );
      // A group's PATCH answers 204, as Entra ID and Okta expect of large groups (RFC 7644 §3.5.2).
      scim.patch<WithId>("/Groups/:id", async (request, reply) => {
        await patchGroup(ctx, firmOf(request), request.params.id, request.body);
        return reply.status(204).send();
      });
      scim.delete<WithId>("/Groups/:id", async (request, reply) => {
        await deleteGroup(ctx, firmOf(request), request.params.id);
        return reply.status(204).send();
      });
    },
    { prefix: "/scim/v2" },
  );
}
