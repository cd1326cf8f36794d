import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { MAX_IMPORT_BYTES, MAX_IMPORT_SIZE_LABEL } from "../../../app/shared/import/format";
import type { ServerContext } from "../../context";
import { message } from "../../lib/messages";
import { ImportRunner, startImport } from "../../resources/import";
import { findJob, jobLines } from "../../resources/import-jobs";
import { SERVER_RESOURCES, serverResourceByPath } from "../../resources/registry";
import { authenticate, requireAccess } from "../../auth/caller";
import { HttpError, errorHandler, invalid, notFound } from "../../lib/errors";

// POST /api/v1/{resource}/import takes the file as the body (text/plain or text/csv) and
// answers 202 with the job, or 200 asking for confirmation when the file is over the firm's
// warning threshold. GET /api/v1/import-jobs/{id} reports progress, then the counts;
// GET /api/v1/import-jobs/{id}/lines the outcome of each line, rejected ones first.

const flag = z.enum(["true", "false"]).optional().transform((v) => v === "true");
const importQuery = z.object({ confirm: flag, sync: flag });
const linesQuery = z.object({
  max: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
});

const FILE_TYPES = ["text/plain", "text/csv", "application/octet-stream"];

/** The file as text: a string from the text parsers, bytes from the binary one. */
function fileText(request: FastifyRequest): string | undefined {
  const { body } = request;
  if (body === undefined || body === null) return undefined;
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (!FILE_TYPES.includes(type)) throw new HttpError(415, message("transfer:import.mediaType"));
  return Buffer.isBuffer(body) ? body.toString("utf8") : String(body);
}

// Fastify refuses a too large or unknown body before the handler; the caller still reads why.
function importErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
    return errorHandler(new HttpError(413, message("transfer:import.tooLarge", { size: MAX_IMPORT_SIZE_LABEL })), request, reply);
  }
  if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return errorHandler(new HttpError(415, message("transfer:import.mediaType")), request, reply);
  return errorHandler(error, request, reply);
}

export function resourceImportRoutes(app: FastifyInstance, ctx: ServerContext) {
  const runner = new ImportRunner();
  app.addHook("onClose", () => runner.close());

  // A scope of its own, so the CSV body parser and the size limit apply to the import only.
  void app.register(async (scope) => {
    scope.addContentTypeParser("text/csv", { parseAs: "string" }, (_request, body, done) => done(null, body));

    scope.post<{ Params: { resource: string }; Querystring: Record<string, string> }>(
      "/api/v1/:resource/import",
      { bodyLimit: MAX_IMPORT_BYTES, errorHandler: importErrors },
      async (request, reply) => {
        const caller = await authenticate(ctx, request);
        const res = serverResourceByPath(request.params.resource);
        if (!res) throw notFound();
        const query = importQuery.safeParse(request.query);
        if (!query.success) throw invalid({ query: [message("errors:invalidRequest")] });
        const started = await startImport(ctx, caller, res, fileText(request), query.data, runner);
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
