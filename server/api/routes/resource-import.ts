import type { Readable } from "node:stream";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { MAX_IMPORT_BYTES } from "../../../app/common/import/format";
import type { ServerContext } from "../../context";
import { findFirm } from "../../firm/firm-repository";
import { message } from "../../lib/messages";
import { ImportRunner, startImport } from "../../resources/import";
import { findJob, jobLines } from "../../resources/import-jobs";
import { discardStaleUploads, keepUpload, tooLarge, uploadFolder } from "../../resources/import-upload";
import { SERVER_RESOURCES, serverResourceByPath } from "../../resources/registry";
import { requireResource } from "../../resources/repository";
import { authenticate, requireAccess } from "../../auth/caller";
import { HttpError, errorHandler, invalid, notFound } from "../../lib/errors";

// POST /api/v1/{resource}/import takes the file as the body (text/plain or text/csv) and
// answers 202 with the job, or 200 asking for confirmation when the file is over the firm's
// warning threshold; 413 when it is larger than the firm's max_import_size. The body is
// streamed to disk, never held in memory. GET /api/v1/import-jobs/{id} reports progress, then the counts;
// GET /api/v1/import-jobs/{id}/lines the outcome of each line, rejected ones first.

const flag = z
  .enum(["true", "false"])
  .optional()
  .transform((v) => v === "true");
const importQuery = z.object({ confirm: flag, sync: flag });
const linesQuery = z.object({
  max: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
});

const FILE_TYPES = ["text/plain", "text/csv", "application/octet-stream"];

/** The body as the stream the file parser passed on; 415 for any other kind of body, 400 for none. */
function fileStream(request: FastifyRequest): Readable {
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (request.body === undefined || request.body === null) throw new HttpError(400, message("transfer:import.noFile"));
  if (!FILE_TYPES.includes(type)) throw new HttpError(415, message("transfer:import.mediaType"));
  return request.body as Readable;
}

// Fastify refuses a too large or unknown body before the handler; the caller still reads why.
function importErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return errorHandler(tooLarge(MAX_IMPORT_BYTES), request, reply);
  if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return errorHandler(new HttpError(415, message("transfer:import.mediaType")), request, reply);
  return errorHandler(error, request, reply);
}

export function resourceImportRoutes(app: FastifyInstance, ctx: ServerContext) {
  const runner = new ImportRunner();
  app.addHook("onClose", () => runner.close());
  const folder = uploadFolder(ctx.config.dataDir);
  discardStaleUploads(folder, ctx.clock.now());

  // A scope of its own, so the streaming file parser and the size limit apply to the import only.
  void app.register(async (scope) => {
    scope.removeContentTypeParser(["text/plain", "application/octet-stream"]);
    scope.addContentTypeParser(FILE_TYPES, (_request, payload, done) => done(null, payload));

    scope.post<{ Params: { resource: string }; Querystring: Record<string, string> }>(
      "/api/v1/:resource/import",
      { bodyLimit: MAX_IMPORT_BYTES, errorHandler: importErrors },
      async (request, reply) => {
        const caller = await authenticate(ctx, request);
        const res = serverResourceByPath(request.params.resource);
        if (!res) throw notFound();
        const query = importQuery.safeParse(request.query);
        if (!query.success) throw invalid({ query: [message("errors:invalidRequest")] });
        requireResource(res, caller, "write");
        const body = fileStream(request);
        const firm = await findFirm(ctx.database, caller.firmId);
        if (!firm) throw notFound();
        const maxBytes = firm.max_import_size ?? MAX_IMPORT_BYTES;
        // A declared length over the limit is refused before a byte is read.
        if (Number(request.headers["content-length"] ?? 0) > maxBytes) throw tooLarge(maxBytes);
        const upload = await keepUpload(body, folder, maxBytes);
        const started = await startImport(ctx, caller, res, upload, query.data, runner);
        if (started.confirmationRequired) return started;
        return reply.status(202).header("location", `/api/v1/import-jobs/${started.job.id}`).send(started.job);
      },
    );

    const jobOf = async (request: FastifyRequest<{ Params: { id: string } }>) => {
      const caller = await authenticate(ctx, request);
      const job = await findJob(ctx, caller.firmId, request.params.id);
      const res = job && SERVER_RESOURCES.find((r) => r.def.key === job.resource);
      if (!job || !res) throw notFound();
      requireAccess(caller, res.def.resource, "read");
      return job;
    };

    scope.get<{ Params: { id: string } }>("/api/v1/import-jobs/:id", jobOf);

    scope.get<{ Params: { id: string }; Querystring: Record<string, string> }>("/api/v1/import-jobs/:id/lines", async (request, reply) => {
      const job = await jobOf(request);
      const page = linesQuery.parse(request.query);
      void reply.header("x-total-count", String(job.processed));
      return jobLines(ctx, job.id, page);
    });
  });
}
