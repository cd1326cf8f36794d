import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_TEST_EVENT, webhooks } from "../../../app/common/resources/webhooks";
import { authenticate, requireAccess } from "../../auth/caller";
import type { Caller } from "../../auth/caller";
import { newWebhookSecret, openWebhookSecret, sealWebhookSecret, webhookSecretKey } from "../../auth/webhook-secret";
import type { ServerContext } from "../../context";
import { queueDelivery, payloadBody, standardPayload } from "../../webhooks/webhook-events";
import { newId } from "../../lib/ids";
import { HttpError, notFound } from "../../lib/errors";
import { message } from "../../lib/messages";
import { auditChange } from "../../resources/audit";
import { noticeRows } from "../../resources/read-scope";

// A webhook's own operations beside its generic record: the delivery log, a re-send, a test
// event, and its signing secret (shown once to its creator, or anew when rotated). Every lookup
// is within the caller's firm; another firm's webhook or delivery is not found.

const idParams = z.object({ id: z.string().min(1).max(100) });
const deliveryQuery = z.object({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  size: z.coerce.number().int().min(1).max(100).catch(20).default(20),
});

export function webhookRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.database.db;
  const key = () => webhookSecretKey(ctx.secrets);

  const ownWebhook = async (caller: Caller, id: string) => {
    const hook = await db.selectFrom("webhook").selectAll().where("id", "=", id).where("firm_id", "=", caller.firmId).executeTakeFirst();
    if (!hook) throw notFound();
    return hook;
  };

  // The webhooks page's log: a delivery about a notice a wall keeps the caller from is not listed.
  app.get("/api/v1/webhook/:id/deliveries", async (request) => {
    const caller = await authenticate(ctx, request);
    const deliveries = await noticeRows(db, caller, "webhook_delivery");
    const { id } = idParams.parse(request.params);
    const hook = await ownWebhook(caller, id);
    const query = deliveryQuery.parse(request.query ?? {});
    let base = deliveries.where("t.webhook_id", "=", hook.id);
    if (query.status) base = base.where("t.status", "=", query.status);
    const [rows, total] = await Promise.all([
      base
        .select([
          "t.id",
          "t.event",
          "t.event_id",
          "t.payload_version",
          "t.inbox_item_id",
          "t.attempts",
          "t.status",
          "t.last_status_code",
          "t.last_error",
          "t.last_response",
          "t.next_attempt_at",
          "t.body",
          "t.created_at",
          "t.updated_at",
        ])
        .orderBy("t.created_at", "desc")
        .orderBy("t.id", "desc")
        .limit(query.size)
        .offset((query.page - 1) * query.size)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst(),
    ]);
    return {
      rows: rows.map((r) => ({
        ...r,
        attempts: Number(r.attempts),
        created_at: Number(r.created_at),
        updated_at: Number(r.updated_at),
        next_attempt_at: r.next_attempt_at === null ? null : Number(r.next_attempt_at),
      })),
      total: Number(total?.n ?? 0),
      page: query.page,
      size: query.size,
    };
  });

  // The same body again, as a new delivery: receivers know the event by its id in the body.
  app.post("/api/v1/webhook-delivery/:id/resend", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "webhook", "write");
    const { id } = idParams.parse(request.params);
    const earlier = await (await noticeRows(db, caller, "webhook_delivery")).selectAll("t").where("t.id", "=", id).executeTakeFirst();
    if (!earlier) throw notFound();
    const now = ctx.clock.now();
    const deliveryId = await db.transaction().execute((trx) =>
      queueDelivery(trx, {
        firmId: caller.firmId,
        webhookId: earlier.webhook_id,
        event: earlier.event,
        eventId: earlier.event_id,
        payloadVersion: earlier.payload_version,
        inboxItemId: earlier.inbox_item_id,
        body: earlier.body,
        at: now,
      }),
    );
    return reply.status(202).send({ id: deliveryId });
  });

  app.post("/api/v1/webhook/:id/test", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "webhook", "write");
    const { id } = idParams.parse(request.params);
    const hook = await ownWebhook(caller, id);
    const now = ctx.clock.now();
    const eventId = newId();
    const payload = standardPayload({
      eventId,
      event: WEBHOOK_TEST_EVENT,
      version: hook.payload_version,
      at: now,
      firmId: caller.firmId,
      data: { test: true, webhook_name: hook.name },
    });
    const deliveryId = await db.transaction().execute((trx) =>
      queueDelivery(trx, {
        firmId: caller.firmId,
        webhookId: hook.id,
        event: WEBHOOK_TEST_EVENT,
        eventId,
        payloadVersion: hook.payload_version,
        inboxItemId: null,
        body: payloadBody(hook.type, payload),
        at: now,
      }),
    );
    return reply.status(202).send({ id: deliveryId });
  });

  // The secret made with the webhook, once, to the person who made it.
  app.post("/api/v1/webhook/:id/secret", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "webhook", "write");
    const { id } = idParams.parse(request.params);
    const hook = await ownWebhook(caller, id);
    if (hook.secret_shown || hook.created_by !== caller.userId) throw new HttpError(409, message("errors:webhookSecretShown"));
    const taken = await db.updateTable("webhook").set({ secret_shown: 1 }).where("id", "=", hook.id).where("secret_shown", "=", 0).executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) throw new HttpError(409, message("errors:webhookSecretShown"));
    return { secret: openWebhookSecret(hook.secret_sealed, key()) };
  });

  app.post("/api/v1/webhook/:id/secret/rotate", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "webhook", "write");
    const { id } = idParams.parse(request.params);
    const hook = await ownWebhook(caller, id);
    const secret = newWebhookSecret();
    const now = ctx.clock.now();
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("webhook")
        .set({ secret_sealed: sealWebhookSecret(secret, key()), secret_shown: 1, updated_at: now })
        .where("id", "=", hook.id)
        .execute();
      // The entry says that the secret changed, never what it was or is (audit masks secrets).
      const change = { def: webhooks, entity: message("resources:webhooks.singular").toLowerCase(), action: "updated" as const, id: hook.id };
      await auditChange(trx, caller, { ...change, before: { name: hook.name, signing_secret: "old" }, after: { name: hook.name, signing_secret: "new" } }, now);
    });
    return { secret };
  });
}
