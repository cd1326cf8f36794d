import type { Writable } from "node:stream";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { ServerContext } from "../context";
import { withoutControlCharacters } from "../lib/control-characters";
import { HttpError, errorHandler } from "../lib/errors";
import { nestsDeeperThan } from "../lib/json-depth";
import { inWordsScope, message } from "../lib/messages";
import { ACCESS_STAMP_HEADER } from "../../app/common/access-stamp";
import { accessStampOf } from "../auth/caller";
import { PROTOBUF } from "./protobuf-body";
import { dmsCredentialRoutes } from "./routes/dms-credentials";
import { providerCredentialRoutes } from "./routes/provider-credentials";
import { dmsAuthorizationRoutes } from "./routes/dms-authorization";
import { OneLinePerRequest, apiLogger, apiRequestId } from "./request-logging";
import { analyticsRoutes } from "./routes/analytics";
import { authRoutes } from "./routes/auth";
import { ssoRoutes } from "./routes/sso";
import { billingRoutes } from "./routes/billing";
import { caseTrackingRoutes } from "./routes/case-tracking";
import { dashboardRoutes } from "./routes/dashboard";
import { dictionaryRoutes } from "./routes/dictionary";
import { emailTemplateRoutes } from "./routes/email-templates";
import { firmRoutes } from "./routes/firm";
import { healthRoutes } from "./routes/health";
import { inboxRoutes } from "./routes/inbox";
import { documentRoutes } from "./routes/documents";
import { outboxRoutes } from "./routes/outbox";
import { preferenceRoutes } from "./routes/preferences";
import { publicDocumentRoutes } from "./routes/public-document";
import { resourceExportRoutes } from "./routes/resource-export";
import { demoRoutes } from "./routes/demo";
import { resourceImportRoutes } from "./routes/resource-import";
import { roleRoutes } from "./routes/roles";
import { securityRoleRoutes } from "./routes/security-roles";
import { storageRoutes } from "./routes/storage";
import { jurisdictionPreferenceRoutes } from "./routes/jurisdiction-preferences";
import { slowCallRoutes } from "./routes/slow-calls";
import { wallRoutes } from "./routes/walls";
import { resourceRoutes } from "./routes/resources";
import { webhookRoutes } from "./routes/webhooks";
import { scimRoutes } from "../scim/routes";
import { scimAdminRoutes } from "./routes/scim-admin";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The ECFX API: JSON everywhere, protobuf where the spec says binary. */
export function buildApi(ctx: ServerContext, options: { logStream?: Writable } = {}): FastifyInstance {
  const app = Fastify({
    loggerInstance: apiLogger(ctx.config.LOG_LEVEL, options.logStream) as FastifyBaseLogger,
    logController: new OneLinePerRequest(),
    genReqId: apiRequestId,
    trustProxy: ctx.config.trustedProxies,
    bodyLimit: 2 * 1024 * 1024,
  });

  // A body nested without end is refused before it is parsed: every step after walks it.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = String(body);
    if (nestsDeeperThan(text)) done(new HttpError(400, message("errors:nestedTooDeeply")), undefined);
    else parseJson(request, text, done);
  });
  app.addContentTypeParser([PROTOBUF, "image/png", "application/octet-stream"], { parseAs: "buffer" }, (_req, body, done) => done(null, body));
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  // Every value a request carries in, JSON or form body, query and path, loses its control
  // characters before any route reads it (binary bodies are left alone).
  // Each request gets its own words scope; authenticate() fills it with the caller's firm's words.
  app.addHook("onRequest", (_request, _reply, done) => inWordsScope(done));
  app.addHook("preValidation", async (request) => {
    if (request.body && typeof request.body === "object" && !Buffer.isBuffer(request.body)) request.body = withoutControlCharacters(request.body);
    request.query = withoutControlCharacters(request.query);
    request.params = withoutControlCharacters(request.params);
  });
  app.addHook("onSend", async (request, reply) => {
    void reply.header("cache-control", reply.getHeader("cache-control") ?? "no-store");
    const access = accessStampOf(request);
    if (access) void reply.header(ACCESS_STAMP_HEADER, access);
    // A document or JSON answer is never to be sniffed into something a browser would run.
    void reply.header("x-content-type-options", "nosniff");
  });
  // A change is on the disk before the API says it is made: on SQLite a commit reaches it only at
  // the next flush or checkpoint, and a wall or a removed user must not come back after a power cut
  // (decision 139).
  app.addHook("onSend", async (request) => {
    if (!READS.has(request.method)) await ctx.database.commitsOnDisk();
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: "Not found." }));

  healthRoutes(app, ctx);
  slowCallRoutes(app, ctx);
  authRoutes(app, ctx);
  ssoRoutes(app, ctx);
  roleRoutes(app, ctx);
  securityRoleRoutes(app, ctx);
  firmRoutes(app, ctx);
  dashboardRoutes(app, ctx);
  analyticsRoutes(app, ctx);
  outboxRoutes(app, ctx);
  demoRoutes(app, ctx);
  preferenceRoutes(app, ctx);
  publicDocumentRoutes(app, ctx);
  resourceExportRoutes(app, ctx);
  resourceImportRoutes(app, ctx);
  inboxRoutes(app, ctx);
  documentRoutes(app, ctx);
  caseTrackingRoutes(app, ctx);
  billingRoutes(app, ctx);
  storageRoutes(app, ctx);
  jurisdictionPreferenceRoutes(app, ctx);
  wallRoutes(app, ctx);
  dictionaryRoutes(app, ctx);
  emailTemplateRoutes(app, ctx);
  webhookRoutes(app, ctx);
  dmsCredentialRoutes(app, ctx);
  providerCredentialRoutes(app, ctx);
  dmsAuthorizationRoutes(app, ctx);
  resourceRoutes(app, ctx);
  scimAdminRoutes(app, ctx);
  scimRoutes(app, ctx);
  return app;
}
