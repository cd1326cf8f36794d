import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { BrowserIdentity, PageViewAnswer } from "../../../app/common/analytics-identity";
import { recordPageView } from "../../analytics/analytics";
import { authenticate } from "../../auth/caller";
import type { ServerContext } from "../../context";
import { invalid } from "../../lib/errors";
import { message } from "../../lib/messages";

const pageViewBody = z.object({
  title: z.string().max(200),
  path: z.string().max(2_000),
  /** The console's host as the browser reached it: it picks the project token. */
  host: z.string().min(1).max(255),
  /** The identity the browser keeps (decision 122); absent when the console's server reports the page. */
  identity: z
    .object({ distinctId: z.string().min(1).max(100), identified: z.boolean() })
    .strict()
    .optional() satisfies z.ZodType<BrowserIdentity | undefined>,
});

export function analyticsRoutes(app: FastifyInstance, ctx: ServerContext) {
  /**
   * The console reports each page a signed-in user opens; the API sends it on, if configured, and
   * answers what the browser keeps: whether its identity is identified, and the firm registered.
   */
  app.post("/api/v1/analytics/page-view", async (request): Promise<PageViewAnswer> => {
    const caller = await authenticate(ctx, request);
    const view = pageViewBody.parse(request.body ?? {});
    // A browser speaks only for the user signed in on it: another user's identity is kept over from before.
    if (view.identity && view.identity.distinctId !== caller.userId) throw invalid({ "identity.distinctId": [message("errors:invalidRequest")] });
    const firm = (await ctx.database.db.selectFrom("firm").select("name").where("id", "=", caller.firmId).executeTakeFirst())?.name ?? "";
    let identified = view.identity?.identified ?? false;
    try {
      identified = await recordPageView(ctx, { ...view, userId: caller.userId, email: caller.email, name: caller.fullName, firm }, view.identity);
    } catch (error) {
      // Analytics never fail a page: the loss of one event is logged and forgotten.
      request.log.info({ err: error }, "analytics not sent");
    }
    return { identified, firm };
  });
}
