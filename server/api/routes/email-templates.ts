import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { message } from "../../lib/messages";
import { type NoticeTemplateData, TemplateRenderError, buildTemplateData, readableTemplateData, renderNoticeMail } from "../../mail/notice-template";
import { sampleTemplateData } from "../../mail/sample-notice";
import { mayOpen, noticeRows } from "../../resources/read-scope";
import { type Caller, authenticate, requireAccess } from "../../auth/caller";
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
  const db = ctx.database.db;
  // A notice behind a wall is as unknown here as on the inbox card.
  const readable = async (id: string) => Boolean(await (await noticeRows(db, caller, "inbox_item")).select("t.id").where("t.id", "=", id).executeTakeFirst());
  if (inboxItemId) {
    const data = (await readable(inboxItemId)) ? await buildTemplateData(ctx, caller.firmId, inboxItemId, { recipient }) : null;
    if (!data) throw new HttpError(404, message("errors:noticeNotFound"));
    return { data, inboxItemId };
  }
  if (mayOpen(caller, "inbox_item") && mayOpen(caller, "envelope")) {
    // The latest notices that were parsed (they have an envelope) and that the caller may read.
    const recent = await (
      await noticeRows(db, caller, "envelope")
    )
      .select("t.inbox_item_id")
      .orderBy("t.created_at", "desc")
      .orderBy("t.id", "desc")
      .limit(RECENT_NOTICES)
      .execute();
    for (const { inbox_item_id: id } of recent) {
      const data = (await readable(id)) ? await buildTemplateData(ctx, caller.firmId, id, { recipient }) : null;
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
      // A real notice shows only the fields the caller's role may read.
      const mail = renderNoticeMail(body.template, inboxItemId === null ? data : readableTemplateData(caller, data));
      return { ...mail, inboxItemId, sample: inboxItemId === null };
    } catch (error) {
      if (!(error instanceof TemplateRenderError)) throw error;
      const text = message("errors:templateInvalid", { error: error.message });
      throw invalid({ template: [text] }, text);
    }
  });
}
