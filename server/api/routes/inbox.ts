import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { findFirm } from "../../firm/firm-repository";
import { receiveMessage } from "../../inbox/receive";
import { loadMessageBody } from "../../stored-mail/stored-message";
import { dispositionOf, documentPdfDisposition } from "../../lib/content-disposition";
import { message } from "../../lib/messages";
import { applyBulkAction, BULK_ACTIONS, matchingItemIds, reprocessWithCase } from "../../pipeline/inbox-operations";
import { inboxCard } from "../../pipeline/inbox-card";
import { serverResourceByPath } from "../../resources/registry";
import { admitRow, noticeRows, readScopeOf } from "../../resources/read-scope";
import { QueryError, type SearchQuery, parseSearchQuery } from "../../resources/search-query";
import { type Caller, authenticate, fieldLevel, levelOf, requireAccess } from "../../auth/caller";
import { HttpError, forbidden, invalid, notFound } from "../../lib/errors";

const bulkBody = z.object({ action: z.enum(BULK_ACTIONS), ids: z.array(z.string().min(1)).min(1).max(1000) });
// `confirm`: the person has seen that the case's number or court differs from the notice's.
const reprocessBody = z.object({ case_id: z.string().min(1), confirm: z.boolean().optional() });
const MAX_UPLOAD = 50 * 1024 * 1024;
/** The raw source shown on the card is cut to a readable size. */
const MAX_SOURCE_CHARS = 200_000;

/** A table's search (paging aside) as GET /api/v1/inbox-item/search reads it. */
function tableQuery(caller: Caller, params: Record<string, string>): SearchQuery {
  const { max: _max, offset: _offset, ...rest } = params;
  try {
    const query = parseSearchQuery(rest, serverResourceByPath("inbox-item")!.def.defaultSort);
    // As in the search: a default order on a field this role cannot read gives way to the id order.
    return rest.sort ? query : { ...query, sort: query.sort.filter((s) => fieldLevel(caller, "inbox_item", s.field) !== "DENY") };
  } catch (error) {
    if (error instanceof QueryError) throw invalid({ [error.field]: [message(error.message)] }, message(error.message));
    throw error;
  }
}

/** The inbox's own operations: upload, the card, the original message, bulk actions, re-processing. */
export function inboxRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.database.db;

  app.addContentTypeParser("message/rfc822", { parseAs: "buffer", bodyLimit: MAX_UPLOAD }, (_req, body, done) => done(null, body));

  app.post("/api/v1/inbox/upload", { bodyLimit: MAX_UPLOAD }, async (request, reply) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "inbox_item", "write");
    const raw = request.body;
    if (!Buffer.isBuffer(raw) || raw.length === 0) throw new HttpError(400, message("errors:emptyUpload"));
    const firm = await findFirm(ctx.database, caller.firmId);
    if (firm && raw.length > firm.max_email_attachment_size) throw new HttpError(413, message("errors:uploadTooLarge"));
    const id = await receiveMessage(ctx, { firmId: caller.firmId, raw, source: "UPLOAD", sender: "", recipients: [] });
    return reply.status(201).send({ id });
  });

  app.get<{ Params: { id: string } }>("/api/v1/inbox/:id/card", async (request) => {
    const caller = await authenticate(ctx, request);
    // A person walled out of a matter may not open its notices or documents (spec §6).
    await admitRow(db, caller, "inbox_item", request.params.id);
    const card = await inboxCard(ctx, caller, request.params.id);
    if (!card) throw notFound();
    // A role kept from the jurisdiction preferences does not learn their names here either.
    return levelOf(caller, "jurisdiction_preference") === "DENY" ? { ...card, preference: null } : card;
  });

  /** An item's raw message for a caller who may read it: firm, field level and walls checked. */
  const readRawMessage = async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const caller = await authenticate(ctx, request);
    if (fieldLevel(caller, "inbox_item", "raw_content") === "DENY") throw forbidden();
    await admitRow(db, caller, "inbox_item", request.params.id);
    const row = await (await noticeRows(db, caller, "inbox_item")).select("t.raw_content").where("t.id", "=", request.params.id).executeTakeFirst();
    if (!row) throw notFound();
    return { caller, row };
  };

  app.get<{ Params: { id: string } }>("/api/v1/inbox/:id/raw", async (request, reply) => {
    const { row } = await readRawMessage(request);
    return reply
      .type("message/rfc822")
      .header("content-disposition", dispositionOf(`${request.params.id}.eml`))
      .send(row.raw_content);
  });

  // The original message for the card's preview: the body kept when it was processed, and the source.
  app.get<{ Params: { id: string } }>("/api/v1/inbox/:id/original", async (request) => {
    const { caller, row } = await readRawMessage(request);
    const body = await loadMessageBody(db, caller.firmId, request.params.id);
    const source = row.raw_content.toString("utf8");
    return { html: body?.html ?? null, text: body?.text ?? "", source: source.slice(0, MAX_SOURCE_CHARS), truncated: source.length > MAX_SOURCE_CHARS };
  });

  // The ids behind "all items matching the filters": the table's query in, at most MATCHING_MAX ids out.
  app.get<{ Querystring: Record<string, string> }>("/api/v1/inbox/ids", async (request) => {
    const caller = await authenticate(ctx, request);
    return matchingItemIds(ctx, caller, tableQuery(caller, request.query));
  });

  app.post("/api/v1/inbox/bulk", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "inbox_item", "write");
    const body = bulkBody.parse(request.body ?? {});
    return applyBulkAction(ctx, await readScopeOf(db, caller), body.action, body.ids);
  });

  app.post<{ Params: { id: string } }>("/api/v1/inbox/:id/reprocess", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "inbox_item", "write");
    requireAccess(caller, "case", "read");
    const body = reprocessBody.parse(request.body ?? {});
    const outcome = await reprocessWithCase(ctx, await readScopeOf(db, caller), request.params.id, body.case_id, body.confirm === true);
    if (outcome.kind === "not-found") throw notFound();
    // The field to send is named, so that a client can ask the person and send it.
    if (outcome.kind === "mismatch") throw new HttpError(409, outcome.warning, { confirm: [outcome.warning] });
    return { ok: true };
  });

  app.get<{ Params: { id: string } }>("/api/v1/document/:id/content", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    await admitRow(db, caller, "document", request.params.id);
    const doc = await (await noticeRows(db, caller, "document")).select(["t.file_id", "t.name"]).where("t.id", "=", request.params.id).executeTakeFirst();
    if (!doc?.file_id) throw notFound();
    const bytes = await ctx.blobs.read(doc.file_id);
    return reply.type("application/pdf").header("content-disposition", documentPdfDisposition(doc.name)).send(bytes);
  });
}
