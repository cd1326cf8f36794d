import { createHmac } from "node:crypto";
import type { Kysely } from "kysely";
import type { Response as UndiciResponse } from "undici";
import { openWebhookSecret, webhookSecretKey } from "../auth/webhook-secret";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { findFirm } from "../firm/firm-repository";
import { logEvent } from "../queue/event-log";
import { enqueue } from "../queue/queue";
import { escapeHtml } from "../lib/html";
import { message } from "../lib/messages";
import { webhookGuard, webhookPurpose } from "./webhook-guard";

// One attempt of one webhook delivery. A 2xx answer is a success; anything else (an error
// status, a refusal of the guard, a timeout) is tried again later with back-off, for a day, then
// the delivery is abandoned. A webhook every attempt of which has failed for a day is switched
// off and the firm's error recipients are told (decision 053).

/** How long one call may take, answer included. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of an answer is read, and how much of it is kept in the log. */
const RESPONSE_READ_BYTES = 64 * 1024;
const RESPONSE_KEPT_CHARS = 500;
/** How long a delivery is tried, and how long a webhook may fail before it is switched off. */
export const DELIVERY_GIVE_UP_MS = 24 * 3600_000;
export const SWITCH_OFF_AFTER_MS = 24 * 3600_000;

/** 30 s, 1 min, 2 min … capped at an hour, by the number of attempts made. */
export function webhookBackoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3600_000);
}

/** `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`: what a receiver recomputes with the secret. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** The start of an answer, reading no more than the bound. */
async function responseStart(response: UndiciResponse): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_READ_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_READ_BYTES).toString("utf8").slice(0, RESPONSE_KEPT_CHARS);
}

interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  response: string | null;
}

async function post(ctx: ServerContext, url: string, headers: Record<string, string>, body: string): Promise<AttemptOutcome> {
  const target = new URL(url);
  try {
    const response = await webhookGuard(ctx.config).fetch(target, webhookPurpose(target), {
      method: "POST",
      headers,
      body,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    const text = await responseStart(response);
    const ok = response.status >= 200 && response.status < 300;
    return { ok, status: response.status, error: ok ? null : message("errors:webhookAnswered", { status: response.status }), response: text };
  } catch (error) {
    const reason = error instanceof Error ? (error.name === "TimeoutError" ? message("errors:webhookTimeout") : error.message) : String(error);
    return { ok: false, status: null, error: reason.slice(0, 2000), response: null };
  }
}

/** Runs the delivery's next attempt; the job of the next one, if any, is queued here. */
export async function deliverWebhook(ctx: ServerContext, deliveryId: string): Promise<void> {
  const db = ctx.database.db;
  const delivery = await db.selectFrom("webhook_delivery").selectAll().where("id", "=", deliveryId).executeTakeFirst();
  if (!delivery || delivery.status !== "pending") return;
  const hook = await db.selectFrom("webhook").selectAll().where("id", "=", delivery.webhook_id).where("firm_id", "=", delivery.firm_id).executeTakeFirst();
  const now = ctx.clock.now();
  if (!hook?.enabled) {
    await db
      .updateTable("webhook_delivery")
      .set({ status: "abandoned", next_attempt_at: null, last_error: message("errors:webhookSwitchedOff"), updated_at: now })
      .where("id", "=", delivery.id)
      .execute();
    return;
  }
  const timestamp = Math.floor(now / 1000);
  const secret = openWebhookSecret(hook.secret_sealed, webhookSecretKey(ctx.secrets));
  const outcome = await post(
    ctx,
    hook.url,
    {
      "content-type": "application/json",
      "ecfx-webhook-id": hook.id,
      "ecfx-event": delivery.event,
      "ecfx-delivery": delivery.id,
      "ecfx-timestamp": String(timestamp),
      "ecfx-signature": webhookSignature(secret, timestamp, delivery.body),
    },
    delivery.body,
  );
  const attempts = delivery.attempts + 1;
  const after = ctx.clock.now();
  const record = { attempts, last_status_code: outcome.status, last_error: outcome.error, last_response: outcome.response, updated_at: after };
  if (outcome.ok) {
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("webhook_delivery")
        .set({ ...record, status: "succeeded", next_attempt_at: null })
        .where("id", "=", delivery.id)
        .execute();
      await trx.updateTable("webhook").set({ failing_since: null }).where("id", "=", hook.id).execute();
    });
    return;
  }
  const failingSince = hook.failing_since ?? now;
  const switchOff = after - failingSince >= SWITCH_OFF_AFTER_MS;
  const giveUp = switchOff || after - Number(delivery.created_at) >= DELIVERY_GIVE_UP_MS;
  const nextAt = after + webhookBackoffMs(attempts);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("webhook_delivery")
      .set({ ...record, status: giveUp ? "abandoned" : "pending", next_attempt_at: giveUp ? null : nextAt })
      .where("id", "=", delivery.id)
      .execute();
    if (!giveUp) await enqueue(trx, { kind: "deliver-webhook", firmId: delivery.firm_id, refId: delivery.id, runAt: nextAt });
    await trx
      .updateTable("webhook")
      .set(switchOff ? { enabled: 0, failing_since: null, updated_at: after } : { failing_since: failingSince })
      .where("id", "=", hook.id)
      .execute();
    if (switchOff) await abandonPending(trx, hook.id, after);
    if (switchOff)
      await logEvent(trx, {
        firmId: hook.firm_id,
        level: "ERROR",
        event: "webhook switched off",
        detail: message("pipeline:events.webhookSwitchedOff", { name: hook.name, url: hook.url, error: outcome.error ?? "" }),
        at: after,
      });
  });
  if (switchOff) await tellErrorRecipients(ctx, hook, outcome.error ?? "");
}

/** A switched-off webhook's waiting deliveries are given up with it. */
async function abandonPending(trx: Kysely<DB>, webhookId: string, now: number): Promise<void> {
  await trx
    .updateTable("webhook_delivery")
    .set({ status: "abandoned", next_attempt_at: null, last_error: message("errors:webhookSwitchedOff"), updated_at: now })
    .where("webhook_id", "=", webhookId)
    .where("status", "=", "pending")
    .execute();
}

/** Mails the firm's error notification recipients that a webhook was switched off, with a link to it. */
async function tellErrorRecipients(ctx: ServerContext, hook: { id: string; firm_id: number; name: string; url: string }, error: string): Promise<void> {
  const firm = await findFirm(ctx.database, hook.firm_id);
  const to = firm?.error_notification_emails ?? [];
  if (!firm || to.length === 0) return;
  const link = `${ctx.config.publicUrl}/webhooks/${hook.id}`;
  const body = message("mail:webhookSwitchedOffBody", { name: hook.name, url: hook.url, error });
  await ctx.mailer.send({
    firmId: firm.id,
    purpose: "webhook-switched-off",
    to: [...to],
    replyTo: firm.reply_to_email || undefined,
    subject: message("mail:webhookSwitchedOffSubject", { name: hook.name }),
    text: `${body}\n\n${link}\n`,
    html: `<p>${escapeHtml(body)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  });
}
