import { newWebhookSecret, sealWebhookSecret, webhookSecretKey } from "../auth/webhook-secret";
import { invalid } from "../lib/errors";
import { message } from "../lib/messages";
import { webhookGuard, webhookUrlRefusal } from "../webhooks/webhook-guard";
import type { ServerExtension } from "./types";

// The server-only facts of a webhook: its URL must be one ECFX may call, and it gets a signing
// secret when it is made. The secret is sealed in a column no field declares, so the generic
// API never serves it; the creator sees it once (server/api/routes/webhooks.ts).

const REFUSALS = { invalid: "errors:webhookUrlInvalid", notHttps: "errors:webhookUrlNotHttps", private: "errors:webhookUrlPrivate" } as const;

export const webhookExtension: ServerExtension = {
  table: "webhook",
  search: { like: ["name", "url"] },
  uniques: [{ fields: ["name"], messageKey: "errors:conflict" }],
  hooks: {
    async validate(ctx, _caller, values) {
      if (typeof values.url !== "string") return;
      const refusal = webhookUrlRefusal(webhookGuard(ctx.config), values.url);
      if (refusal) throw invalid({ url: [message(REFUSALS[refusal])] });
    },
    async beforeInsert(ctx, caller, row) {
      const sealed = sealWebhookSecret(newWebhookSecret(), webhookSecretKey(ctx.secrets));
      return { ...row, secret_sealed: sealed, secret_shown: 0, created_by: caller.userId, failing_since: null };
    },
    // Switched on again by a person: its failures so far no longer count towards switching it off.
    async afterUpdate(ctx, caller, before, values) {
      if (values.enabled === true && !before.enabled) {
        await ctx.database.db
          .updateTable("webhook")
          .set({ failing_since: null })
          .where("id", "=", String(before.id))
          .where("firm_id", "=", caller.firmId)
          .execute();
      }
    },
  },
};
