import type { FastifyInstance } from "fastify";
import { defaultExportName } from "../../../app/common/export-name";
import { authenticate, requireAccess } from "../../auth/caller";
import type { ServerContext } from "../../context";
import { firmOverrides } from "../../db/firm-words";
import { findFirm } from "../../firm/firm-repository";
import { dispositionOf } from "../../lib/content-disposition";
import { dictionaryNamespaces, exportDictionary, importDictionary, knownEntry, resetOverride, searchDictionary, setOverride } from "../../resources/dictionary";

// The firm's dictionary (/dictionary): firm READ lists and exports, FULL changes, resets and
// imports; everything is the caller's firm's. The words themselves go to every signed-in user.

const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
const PAGE_MAX = 500;

type EntryParams = { Params: { namespace: string; key: string } };
type SearchQuery = { Querystring: Record<string, string | undefined> };

const flag = (value: string | undefined) => (value === "true" ? true : value === "false" ? false : undefined);
const count = (value: string | undefined, fallback: number, max: number) => {
  const n = Math.floor(Number(value));
  return Number.isFinite(n) && n >= 0 ? Math.min(n, max) : fallback;
};

export function dictionaryRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.get("/api/v1/dictionary/words", async (request) => {
    const caller = await authenticate(ctx, request);
    return firmOverrides(ctx.database, caller.firmId);
  });

  app.get("/api/v1/dictionary/namespaces", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "read");
    return dictionaryNamespaces();
  });

  app.get<SearchQuery>("/api/v1/dictionary/search", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "read");
    const q = request.query;
    const result = await searchDictionary(ctx, caller.firmId, {
      freeText: q.freeText,
      namespace: q.namespace || undefined,
      overridden: flag(q.overridden),
      offset: count(q.offset, 0, Number.MAX_SAFE_INTEGER),
      max: count(q.max, 25, PAGE_MAX) || 25,
    });
    void reply.header("x-total-count", String(result.total));
    return result.rows;
  });

  app.get("/api/v1/dictionary/export", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "read");
    const firm = await findFirm(ctx.database, caller.firmId);
    const filename = `${defaultExportName("dictionary", ctx.clock.now(), firm?.default_time_zone ?? "UTC")}.csv`;
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", dispositionOf(filename))
      .send(await exportDictionary(ctx, caller.firmId));
  });

  app.get<EntryParams>("/api/v1/dictionary/:namespace/:key", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "read");
    const { namespace, key } = request.params;
    knownEntry(namespace, key);
    const { rows } = await searchDictionary(ctx, caller.firmId, { namespace, offset: 0, max: Number.MAX_SAFE_INTEGER });
    return rows.find((r) => r.key === key);
  });

  app.put<EntryParams>("/api/v1/dictionary/:namespace/:key", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "write");
    await setOverride(ctx, caller, request.params.namespace, request.params.key, (request.body as { value?: unknown } | null)?.value);
    return reply.status(204).send();
  });

  app.delete<EntryParams>("/api/v1/dictionary/:namespace/:key", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "write");
    await resetOverride(ctx, caller, request.params.namespace, request.params.key);
    return reply.status(204).send();
  });

  // A scope of its own, so the file's content types and size limit apply to the import only.
  void app.register(async (scope) => {
    scope.removeContentTypeParser(["text/plain"]);
    scope.addContentTypeParser(["text/plain", "text/csv"], { parseAs: "string", bodyLimit: MAX_IMPORT_BYTES }, (_request, body, done) => done(null, body));
    scope.post("/api/v1/dictionary/import", { bodyLimit: MAX_IMPORT_BYTES }, async (request) => {
      const caller = await authenticate(ctx, request);
      requireAccess(caller, "firm", "write");
      return importDictionary(ctx, caller, typeof request.body === "string" ? request.body : "");
    });
  });
}
