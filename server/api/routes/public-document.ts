import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../../context";
import { message } from "../../lib/messages";
import { documentPdfDisposition } from "../../lib/content-disposition";
import { verifyPublicLink } from "../../notify/public-link";
import { isWalledOut, scopedRows, timekeeperScope } from "../../resources/read-scope";
import { HttpError } from "../../lib/errors";

/**
 * GET /api/v1/public/document/:token — a document through a signed link from a notice mail,
 * without sign-in: 410 once expired, 404 for a link that is not ours or a document that is
 * gone, 403 when the firm no longer allows public links or a wall now keeps the recipient out.
 */
export function publicDocumentRoutes(app: FastifyInstance, ctx: ServerContext) {
  // A wildcard, not ":token": a signed token is longer than the router's limit for a parameter.
  app.get<{ Params: { "*": string } }>("/api/v1/public/document/*", async (request, reply) => {
    const check = await verifyPublicLink(ctx, request.params["*"]);
    if (!check.ok)
      throw check.problem === "expired" ? new HttpError(410, message("errors:publicLinkExpired")) : new HttpError(404, message("errors:publicLinkInvalid"));
    const { documentId, firmId, timekeeperId } = check.claims;
    const db = ctx.database.db;
    // The link's recipient reads as themselves: their firm, and the walls that keep them out.
    const scope = await timekeeperScope(db, firmId, timekeeperId);
    const [firm, doc, walled] = await Promise.all([
      db.selectFrom("firm").select("public_document_access").where("id", "=", firmId).executeTakeFirst(),
      scopedRows(db, scope, "document").select(["t.file_id", "t.name"]).where("t.id", "=", documentId).executeTakeFirst(),
      isWalledOut(db, scope, "document", documentId),
    ]);
    if (!firm || (!walled && !doc?.file_id)) throw new HttpError(404, message("errors:publicLinkInvalid"));
    if (!firm.public_document_access || walled || !doc?.file_id) throw new HttpError(403, message("errors:publicLinkRefused"));
    const bytes = await ctx.blobs.read(doc.file_id).catch(() => null);
    if (!bytes) throw new HttpError(404, message("errors:publicLinkInvalid"));
    return reply
      .type("application/pdf")
      .header("content-disposition", documentPdfDisposition(doc.name))
      .header("cache-control", "private, no-store")
      .send(bytes);
  });
}
