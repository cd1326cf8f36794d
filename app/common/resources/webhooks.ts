import { z } from "zod";
import { name } from "./schema-parts";
import { type FieldDef, defineResource } from "./types";

// Where the firm's own systems hear about notices: a URL, the events it wants, the payload shape.
// The signing secret is made by the server and never travels through this declaration.

export const WEBHOOK_EVENTS = ["notice.received", "notice.processed", "documents.stored", "notification.sent", "processing.failed"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The event of a "Send test event" delivery: no notice is behind it. */
export const WEBHOOK_TEST_EVENT = "webhook.test";
export const WEBHOOK_TYPES = ["STANDARD", "BOOMI"] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];
/** Payload versions a receiver may ask for; a new shape gets a new number, the old one stays. */
export const WEBHOOK_PAYLOAD_VERSIONS = ["1"] as const;
export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed", "abandoned"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One delivery as GET /api/v1/webhook/{id}/deliveries lists it. */
export interface WebhookDeliveryRow {
  id: string;
  event: string;
  event_id: string;
  payload_version: string;
  inbox_item_id: string | null;
  attempts: number;
  status: WebhookDeliveryStatus;
  last_status_code: number | null;
  last_error: string | null;
  last_response: string | null;
  next_attempt_at: number | null;
  body: string;
  created_at: number;
  updated_at: number;
}

export interface WebhookDeliveryPage {
  rows: WebhookDeliveryRow[];
  total: number;
  page: number;
  size: number;
}

const created: FieldDef = { name: "created_at", kind: "date", computed: true };

export const webhooks = defineResource({
  key: "webhooks",
  audited: true,
  resource: "webhook",
  accessKey: "firmAccess",
  apiPath: "/api/v1/webhook",
  page: { titleKey: "pages.webhooks", drawer: "firm", icon: "webhook" },
  titleField: "name",
  schema: z.object({
    name: name(),
    // Whether the address may be called (https, a public host) is the server's check, on save.
    url: z.string({ required_error: "errors:required" }).trim().min(1, "errors:required").max(2000, "errors:fieldLength|2000").url("errors:webhookUrlInvalid"),
    events: z.array(z.enum(WEBHOOK_EVENTS), { required_error: "errors:webhookEventsRequired" }).min(1, "errors:webhookEventsRequired"),
    type: z.enum(WEBHOOK_TYPES).default("STANDARD"),
    payload_version: z.enum(WEBHOOK_PAYLOAD_VERSIONS).default("1"),
    enabled: z.boolean().default(true),
  }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "url", kind: "text", required: true },
    { name: "events", kind: "choices", options: WEBHOOK_EVENTS, required: true },
    { name: "type", kind: "select", options: WEBHOOK_TYPES },
    { name: "payload_version", kind: "select", options: WEBHOOK_PAYLOAD_VERSIONS },
    { name: "enabled", kind: "boolean" },
    created,
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "url", sortable: true, filter: "text" },
    { field: "type", sortable: true, filter: "select" },
    { field: "enabled" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: {},
  wizard: [
    { key: "webhook", fields: ["name", "url", "events"] },
    { key: "payload", fields: ["type", "payload_version", "enabled"] },
  ],
  sections: ["webhookDeliveries"],
});
