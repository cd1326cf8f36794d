import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { z } from "zod";
import { allows } from "../../../app/common/access";
import type { ServerContext } from "../../context";
import { message } from "../../lib/messages";
import { type NoticeTemplateData, TemplateRenderError, buildTemplateData, renderNoticeMail } from "../../mail/notice-template";
import { sampleTemplateData } from "../../mail/sample-notice";
import { mayReadRow, readScopeOf, rowScopeSql } from "../../resources/read-scope";
import { type Caller, authenticate, levelOf, requireAccess } from "../../auth/caller";
import { HttpError, invalid } from "../../lib/errors";

const previewBody = z.object({
  template: z.string().max(100_000),
  inboxItemId: z.string().min(1).max(100).optional(),
});

/** How many recent notices are tried before the preview settles for the sample. */
const RECENT_NOTICES = 5;

interface PreviewData {
  data: NoticeTemplateData;
  inboxItemId: string | null;
}

/**
 * The notice a preview shows: the one asked for, else the firm's latest processed notice, else
 * the built-in sample. Real notices only for roles that may read the inbox.
 */
async function previewData(ctx: ServerContext, caller: Caller, inboxItemId: string | undefined): Promise<PreviewData> {
  const recipient = { name: caller.fullName, email: caller.email };
  const mayReadNotices = allows(levelOf(caller, "inbox_item"), "read");
  if (inboxItemId) {
    requireAccess(caller, "inbox_item", "read");
    // A notice behind a wall is as unknown here as on the inbox card.
    const scope = await readScopeOf(ctx.database.db, caller);
    const data = (await mayReadRow(ctx.database.db, scope, "inbox_item", inboxItemId))
      ? await buildTemplateData(ctx, caller.firmId, inboxItemId, { recipient })
      : null;
    if (!data) throw new HttpError(404, message("errors:noticeNotFound"));
    return { data, inboxItemId };
  }
  if (mayReadNotices) {
    const scope = await readScopeOf(ctx.database.db, caller);
    const recent = await sql<{ id: string }>`select t.id from inbox_item as t
      where ${rowScopeSql("inbox_item", true, scope)} and exists (select 1 from envelope e where e.inbox_item_id = t.id)
      order by t.created_at desc, t.id desc limit ${RECENT_NOTICES}`.execute(ctx.database.db);
    for (const { id } of recent.rows) {
      const data = await buildTemplateData(ctx, caller.firmId, id, { recipient });
      if (data) return { data, inboxItemId: id };
    }
  }
  const firm = await ctx.database.db.selectFrom("firm").select("name").where("id", "=", caller.firmId).executeTakeFirst();
  return { data: sampleTemplateData(firm?.name ?? "", recipient), inboxItemId: null };
}

/** E-mail templates beyond their generic CRUD: the editor's preview with a real notice. */
export function emailTemplateRoutes(app: FastifyInstance, ctx: ServerContext) {
  app.post("/api/v1/email-template/preview", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "email_template", "read");
    const body = previewBody.parse(request.body ?? {});
    const { data, inboxItemId } = await previewData(ctx, caller, body.inboxItemId);
    try {
      const mail = renderNoticeMail(body.template, data);
      return { ...mail, inboxItemId, sample: inboxItemId === null };
    } catch (error) {
      if (!(error instanceof TemplateRenderError)) throw error;
      const text = message("errors:templateInvalid", { error: error.message });
      throw invalid({ template: [text] }, text);
    }
  });
}
