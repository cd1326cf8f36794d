import path from "node:path";
import { listDmsRecords } from "../../dms/dms-records";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { message } from "../../lib/messages";
import { dispositionOf } from "../../lib/content-disposition";
import { openStoredFile } from "../../dms/dms-targets";
import { isHierarchyPermutation, normaliseHierarchy } from "../../filing/policy-resolution";
import { requeueNotices } from "../../pipeline/inbox-operations";
import { admitRow, noticeRows, readScopeOf } from "../../resources/read-scope";
import { authenticate, requireAccess } from "../../auth/caller";
import { auditFirmChange } from "../../resources/audit";
import { invalid, notFound } from "../../lib/errors";

// Where documents go: the firm's storage policy hierarchy, requeueing notices to the DMS,
// an item's storage records and the files stored.

const requeueBody = z.object({ ids: z.array(z.string().min(1)).min(1).max(1000) });
const hierarchyBody = z.object({
  hierarchy: z.array(z.string()).refine(isHierarchyPermutation, "errors:updatingOrder"),
  storage_policy_id: z
    .string()
    .nullish()
    .transform((v) => (v ? v : null)),
});

// PDFs open in the browser; anything else (an HTML document could carry script) is a download.
const CONTENT_TYPES: Record<string, string> = { pdf: "application/pdf", eml: "message/rfc822" };

/** A header-safe file name: ASCII for old clients, the real name in filename*. */
export function storageRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.database.db;

  app.get("/api/v1/firm/storage-hierarchy", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "read");
    const [firm, policies] = await Promise.all([
      db.selectFrom("firm").select(["storage_policy_hierarchy", "storage_policy_id"]).where("id", "=", caller.firmId).executeTakeFirst(),
      db.selectFrom("storage_policy").select(["id", "name"]).where("firm_id", "=", caller.firmId).orderBy("name").orderBy("id").execute(),
    ]);
    if (!firm) throw notFound();
    return { hierarchy: normaliseHierarchy(firm.storage_policy_hierarchy), storage_policy_id: firm.storage_policy_id, policies };
  });

  app.put("/api/v1/firm/storage-hierarchy", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "write");
    const body = hierarchyBody.parse(request.body ?? {});
    if (body.storage_policy_id) {
      const policy = await db
        .selectFrom("storage_policy")
        .select("id")
        .where("id", "=", body.storage_policy_id)
        .where("firm_id", "=", caller.firmId)
        .executeTakeFirst();
      if (!policy) throw invalid({ storage_policy_id: [message("errors:unknownReference")] });
    }
    const before = await db
      .selectFrom("firm")
      .select(["name", "storage_policy_hierarchy", "storage_policy_id"])
      .where("id", "=", caller.firmId)
      .executeTakeFirstOrThrow();
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("firm")
        .set({ storage_policy_hierarchy: JSON.stringify(body.hierarchy), storage_policy_id: body.storage_policy_id, updated_at: now })
        .where("id", "=", caller.firmId)
        .execute();
      const was = { ...before, storage_policy_hierarchy: normaliseHierarchy(before.storage_policy_hierarchy) };
      await auditFirmChange(trx, caller, was, { storage_policy_hierarchy: body.hierarchy, storage_policy_id: body.storage_policy_id }, now);
    });
    return { hierarchy: body.hierarchy, storage_policy_id: body.storage_policy_id };
  });

  app.post("/api/v1/inbox/requeue", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "inbox_item", "write");
    const body = requeueBody.parse(request.body ?? {});
    const outcome = await requeueNotices(ctx, await readScopeOf(db, caller), body.ids);
    // Nothing could be requeued: the spec's message, with the reasons per item.
    if (outcome.done.length === 0) return reply.status(409).send({ message: message("errors:requeueing"), ...outcome });
    return outcome;
  });

  app.get<{ Params: { id: string } }>("/api/v1/inbox/:id/dms", async (request) => {
    const caller = await authenticate(ctx, request);
    // Behind a wall the list is refused like the card it belongs to.
    await admitRow(db, caller, "inbox_item", request.params.id);
    const item = await (await noticeRows(db, caller, "inbox_item")).select(["t.id", "t.dms_status"]).where("t.id", "=", request.params.id).executeTakeFirst();
    if (!item) throw notFound();
    const records = await listDmsRecords(db, caller.firmId, item.id);
    return { dms_status: item.dms_status, records };
  });

  app.get<{ Params: { id: string } }>("/api/v1/dms-record/:id/content", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    // A walled-out user learns nothing, not even that the file exists: the scope leaves it out.
    const record = await (
      await noticeRows(db, caller, "dms_record")
    )
      .innerJoin("storage_policy", "storage_policy.id", "t.storage_policy_id")
      .select(["t.location", "t.root", "t.link", "t.status", "storage_policy.dms_credential_id"])
      .where("t.id", "=", request.params.id)
      .executeTakeFirst();
    if (!record?.location || record.status !== "succeeded") throw notFound();
    // A vendor DMS keeps the copy: the person opens it there, signed in to the DMS as themselves.
    if (record.link && /^https?:\/\//i.test(record.link)) return reply.redirect(record.link, 303);
    const opened = await openStoredFile(ctx, caller.firmId, { root: record.root, location: record.location, dms_credential_id: record.dms_credential_id });
    if (!opened) throw notFound();
    const extension = path.posix.extname(record.location).slice(1).toLowerCase();
    return reply
      .type(CONTENT_TYPES[extension] ?? "application/octet-stream")
      .header("content-length", opened.size)
      .header("content-disposition", dispositionOf(path.posix.basename(record.location), extension === "pdf" ? "inline" : "attachment"))
      .header("x-content-type-options", "nosniff")
      .send(opened.stream);
  });
}
