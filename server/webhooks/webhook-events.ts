import type { Kysely } from "kysely";
import { WEBHOOK_EVENTS, type WEBHOOK_TEST_EVENT, type WebhookEvent, type WebhookType } from "../../app/common/resources/webhooks";
import type { DB } from "../db/schema";
import { firmWebhooks } from "../firm/firm-repository";
import { newId } from "../lib/ids";
import { enqueue } from "../queue/queue";

// An event of a notice's life, told to every enabled webhook of the firm that subscribed to it.
// The deliveries are rows written with the state change they report (same handle, same
// transaction where there is one), each with its delivery job, so an event is never lost and
// never told of a change that did not commit. The body is fixed when the event happens: a
// re-send repeats what was said then.

export { WEBHOOK_EVENTS, type WebhookEvent };

/** The part of a payload that describes the notice: ids, case, court, documents; never document bytes. */
export interface NoticeSummary {
  inbox_item_id: string;
  status: string;
  subject: string;
  received_at: string;
  case: { id: string; case_number: string; name: string } | null;
  court: string | null;
  envelope: { id: string; name: string; filed_by: string; date: string | null } | null;
  documents: { id: string; number: number; name: string; fetch_status: string; dms_status: string }[];
  document_count: number;
  dms_records: { id: string; document_id: string | null; status: string; location: string | null; link: string | null }[];
}

export interface WebhookEventInput {
  firmId: number;
  event: WebhookEvent;
  /** The notice the event is about; its summary is read through the same handle. */
  inboxItemId?: string | null;
  /** Fields of the event itself (a failure's reason, the recipients told), beside the notice's. */
  data?: Record<string, unknown>;
  at: number;
}

/** The document a STANDARD webhook receives (docs/webhooks/standard-v1.schema.json). */
export interface StandardPayload {
  id: string;
  event: WebhookEvent | typeof WEBHOOK_TEST_EVENT;
  version: number;
  created_at: string;
  firm_id: number;
  data: Record<string, unknown>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** What a notice is, as the webhook payload tells it, read through `db` (the caller's transaction). */
export async function noticeSummary(db: Kysely<DB>, firmId: number, itemId: string): Promise<NoticeSummary | null> {
  const item = await db
    .selectFrom("inbox_item")
    .select(["id", "status", "subject", "created_at", "case_id"])
    .where("id", "=", itemId)
    .where("firm_id", "=", firmId)
    .executeTakeFirst();
  if (!item) return null;
  const [kase, envelope, documents, records] = await Promise.all([
    item.case_id
      ? db.selectFrom("court_case").select(["id", "case_number", "name"]).where("id", "=", item.case_id).where("firm_id", "=", firmId).executeTakeFirst()
      : undefined,
    db
      .selectFrom("envelope")
      .select(["id", "name", "filed_by", "date", "ecfx_jurisdiction_id"])
      .where("inbox_item_id", "=", item.id)
      .where("firm_id", "=", firmId)
      .executeTakeFirst(),
    db
      .selectFrom("document")
      .select(["id", "number", "name", "fetch_status", "dms_status"])
      .where("processed_from_id", "=", item.id)
      .where("firm_id", "=", firmId)
      .orderBy("number")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("dms_record")
      .select(["id", "document_id", "status", "location", "link"])
      .where("inbox_item_id", "=", item.id)
      .where("firm_id", "=", firmId)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
  ]);
  return {
    inbox_item_id: item.id,
    status: item.status,
    subject: item.subject,
    received_at: iso(Number(item.created_at)),
    case: kase ? { id: kase.id, case_number: kase.case_number, name: kase.name } : null,
    court: envelope?.ecfx_jurisdiction_id ?? null,
    envelope: envelope ? { id: envelope.id, name: envelope.name, filed_by: envelope.filed_by, date: envelope.date } : null,
    documents: documents.map((d) => ({ ...d, number: Number(d.number) })),
    document_count: documents.length,
    dms_records: records,
  };
}

/**
 * A Boomi Web Services Server listener with a JSON request profile maps fields by path; a flat
 * document of plain values needs no array or nesting in the profile (docs/webhooks/boomi.md).
 */
export function boomiDocument(payload: StandardPayload): Record<string, string | number | boolean | null> {
  const data = payload.data as Partial<NoticeSummary> & Record<string, unknown>;
  const flat: Record<string, string | number | boolean | null> = {
    eventId: payload.id,
    eventType: payload.event,
    payloadVersion: payload.version,
    createdAt: payload.created_at,
    firmId: payload.firm_id,
    inboxItemId: data.inbox_item_id ?? null,
    status: data.status ?? null,
    subject: data.subject ?? null,
    receivedAt: data.received_at ?? null,
    caseId: data.case?.id ?? null,
    caseNumber: data.case?.case_number ?? null,
    caseName: data.case?.name ?? null,
    court: data.court ?? null,
    envelopeId: data.envelope?.id ?? null,
    envelopeName: data.envelope?.name ?? null,
    filedBy: data.envelope?.filed_by ?? null,
    documentCount: data.document_count ?? 0,
    documentNames: (data.documents ?? []).map((d) => d.name).join("; "),
    dmsLocations: (data.dms_records ?? [])
      .map((r) => r.location)
      .filter(Boolean)
      .join("; "),
    dmsLinks: (data.dms_records ?? [])
      .map((r) => r.link)
      .filter(Boolean)
      .join("; "),
  };
  // The event's own fields (a reason, a test marker) travel as they are when they are plain values.
  for (const [key, value] of Object.entries(data)) {
    if (key in SUMMARY_KEYS) continue;
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) flat[camel(key)] = value as string | number | boolean | null;
  }
  return flat;
}

const SUMMARY_KEYS: Record<keyof NoticeSummary, true> = {
  inbox_item_id: true,
  status: true,
  subject: true,
  received_at: true,
  case: true,
  court: true,
  envelope: true,
  documents: true,
  document_count: true,
  dms_records: true,
};
const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The body a webhook of this type and version is sent for the event. */
export function payloadBody(type: WebhookType | string, payload: StandardPayload): string {
  return JSON.stringify(type === "BOOMI" ? boomiDocument(payload) : payload);
}

/** The webhooks of the firm to tell of an event: enabled, and subscribed to it. */
export async function webhookSubscribers(db: Kysely<DB>, firmId: number, event: WebhookEvent) {
  // Read once per job: a notice's job may tell of several events.
  const rows = await firmWebhooks(db, firmId);
  return rows.filter((w) => (JSON.parse(w.events) as string[]).includes(event));
}

/** Writes a pending delivery of `body` and its job; the caller's handle decides the transaction. */
export async function queueDelivery(
  db: Kysely<DB>,
  delivery: { firmId: number; webhookId: string; event: string; eventId: string; payloadVersion: string; inboxItemId: string | null; body: string; at: number },
): Promise<string> {
  const id = newId();
  await db
    .insertInto("webhook_delivery")
    .values({
      id,
      firm_id: delivery.firmId,
      webhook_id: delivery.webhookId,
      event: delivery.event,
      event_id: delivery.eventId,
      payload_version: delivery.payloadVersion,
      inbox_item_id: delivery.inboxItemId,
      attempts: 0,
      status: "pending",
      last_status_code: null,
      last_error: null,
      last_response: null,
      next_attempt_at: delivery.at,
      body: delivery.body,
      created_at: delivery.at,
      updated_at: delivery.at,
    })
    .execute();
  await enqueue(db, { kind: "deliver-webhook", firmId: delivery.firmId, refId: id, runAt: delivery.at });
  return id;
}

/** The payload of an event for one webhook version. */
export function standardPayload(input: {
  eventId: string;
  event: StandardPayload["event"];
  version: string;
  at: number;
  firmId: number;
  data: Record<string, unknown>;
}): StandardPayload {
  return { id: input.eventId, event: input.event, version: Number(input.version), created_at: iso(input.at), firm_id: input.firmId, data: input.data };
}

/**
 * Queues a delivery of the event to each enabled webhook of the firm subscribed to it, through
 * `db`: pass the transaction of the state change so both commit together. Answers the delivery ids.
 */
export async function emitWebhookEvent(db: Kysely<DB>, input: WebhookEventInput): Promise<string[]> {
  const hooks = await webhookSubscribers(db, input.firmId, input.event);
  if (hooks.length === 0) return [];
  const summary = input.inboxItemId ? await noticeSummary(db, input.firmId, input.inboxItemId) : null;
  const data = { ...(summary ?? {}), ...input.data };
  const eventId = newId();
  const ids: string[] = [];
  for (const hook of hooks) {
    const payload = standardPayload({ eventId, event: input.event, version: hook.payload_version, at: input.at, firmId: input.firmId, data });
    ids.push(
      await queueDelivery(db, {
        firmId: input.firmId,
        webhookId: hook.id,
        event: input.event,
        eventId,
        payloadVersion: hook.payload_version,
        inboxItemId: input.inboxItemId ?? null,
        body: payloadBody(hook.type, payload),
        at: input.at,
      }),
    );
  }
  return ids;
}
