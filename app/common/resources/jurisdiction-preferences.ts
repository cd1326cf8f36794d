import { z } from "zod";
import { domainList } from "../validation";
import { name, optionalId, optionalText } from "./schema-parts";
import { type FieldDef, defineResource } from "./types";

// How the firm treats notices court by court: groups of its jurisdictions, and the ordered
// preferences that pick, for a notice of those courts, its auto case creation rule, its
// notification rules and its document processing settings.

const created: FieldDef = { name: "created_at", kind: "date", computed: true };

export const jurisdictionGroups = defineResource({
  key: "jurisdiction-groups",
  audited: true,
  resource: "jurisdiction_group",
  accessKey: "jurisdictionGroupAccess",
  apiPath: "/api/v1/jurisdiction-group",
  page: { titleKey: "pages.jurisdictionGroups", drawer: "firm", icon: "world" },
  titleField: "name",
  schema: z.object({
    name: name(),
    jurisdiction_references: z.array(z.string().min(1)).default([]),
  }),
  fields: [{ name: "name", kind: "text", required: true }, { name: "jurisdiction_references", kind: "references", reference: "jurisdictions" }, created],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: {},
  wizard: [{ key: "group", fields: ["name", "jurisdiction_references"] }],
});

/** Whole minutes typed into a form or sent as a number; an empty box is no value. */
const minutes = () =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : typeof v === "string" ? Number(v) : v),
    z
      .number({ invalid_type_error: "errors:wholeMinutes" })
      .int("errors:wholeMinutes")
      .min(0, "errors:wholeMinutes")
      .max(10_080, "errors:wholeMinutes")
      .optional(),
  );

export const jurisdictionPreferences = defineResource({
  key: "jurisdiction-preferences",
  audited: true,
  resource: "jurisdiction_preference",
  accessKey: "jurisdictionPreferenceAccess",
  apiPath: "/api/v1/jurisdiction-preference",
  page: { titleKey: "pages.jurisdictionPreferences", drawer: "firm", icon: "adjustments" },
  titleField: "name",
  schema: z.object({
    name: name(),
    description: optionalText(1000),
    enabled: z.boolean().default(false),
    auto_case_creation_id: optionalId(),
    jurisdiction_groups: z.array(z.string().min(1)).default([]),
    notification_rules: z.array(z.string().min(1)).default([]),
    document_processing_id: optionalId(),
    party_email_domains: domainList().default([]),
  }),
  fields: [
    // Set by the product: last on creation, then by reordering the list.
    { name: "order", kind: "number", computed: true },
    { name: "name", kind: "text", required: true },
    { name: "description", kind: "textarea" },
    { name: "enabled", kind: "boolean" },
    { name: "jurisdiction_groups", kind: "references", reference: "jurisdiction-groups" },
    { name: "party_email_domains", kind: "emails", hintKey: "wizard:domainsHint" },
    { name: "auto_case_creation_id", kind: "reference", reference: "auto-case-creation" },
    { name: "notification_rules", kind: "references", reference: "notification-rule" },
    { name: "document_processing_id", kind: "reference", reference: "document-processing" },
    created,
  ],
  columns: [
    { field: "order", sortable: true },
    { field: "name", sortable: true, filter: "text" },
    { field: "enabled", filter: "select" },
    { field: "auto_case_creation_id", filter: "reference" },
    { field: "document_processing_id", filter: "reference" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "order",
  quickFilters: {},
  wizard: [
    { key: "preference", fields: ["name", "description", "enabled"] },
    { key: "match", fields: ["jurisdiction_groups", "party_email_domains"] },
    { key: "apply", fields: ["auto_case_creation_id", "notification_rules", "document_processing_id"] },
  ],
});

export const EXTRACTION_PROVIDERS = ["NO_PROVIDER", "FAI"] as const;
export const BILLING_PARTIES = ["ECFX", "PROVIDER"] as const;

/** Spec §5: an unstamped document is released before the wait for its stamp ends, never after. */
export function releaseWaitError(values: Record<string, unknown>): Record<string, string> | null {
  const wait = values.minutes_wait_before_unstamped_release;
  const max = values.max_minutes_wait_for_stamp;
  if (typeof wait !== "number" || typeof max !== "number") return null;
  return wait < max ? null : { minutes_wait_before_unstamped_release: "errors:waitBelowMaxStamp" };
}

export const documentProcessing = defineResource({
  key: "document-processing",
  audited: true,
  resource: "document_processing",
  accessKey: "firmAccess",
  apiPath: "/api/v1/document-processing",
  page: { titleKey: "pages.documentProcessing", drawer: "firm", icon: "folders" },
  titleField: "name",
  schema: z.object({
    name: name(),
    wait_for_stamp: z.boolean().default(false),
    max_minutes_wait_for_stamp: minutes(),
    release_unstamped_while_waiting: z.boolean().default(false),
    minutes_wait_before_unstamped_release: minutes(),
    extraction_enabled: z.boolean().default(false),
    extraction_provider: z.enum(EXTRACTION_PROVIDERS).default("NO_PROVIDER"),
    billing_party: z.enum(BILLING_PARTIES).default("ECFX"),
    customer_id: optionalText(100),
    queue_name: optionalText(100),
    extraction_auth_path: optionalText(200),
    extraction_client_id: optionalText(200),
    extraction_client_secret: optionalText(500),
    extraction_client_url: optionalText(500),
    extraction_customer_id: optionalText(100),
    extraction_queue_name: optionalText(100),
  }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "wait_for_stamp", kind: "boolean" },
    { name: "max_minutes_wait_for_stamp", kind: "number" },
    { name: "release_unstamped_while_waiting", kind: "boolean" },
    { name: "minutes_wait_before_unstamped_release", kind: "number" },
    { name: "extraction_enabled", kind: "boolean" },
    { name: "extraction_provider", kind: "select", options: EXTRACTION_PROVIDERS },
    { name: "billing_party", kind: "select", options: BILLING_PARTIES },
    { name: "customer_id", kind: "text" },
    { name: "queue_name", kind: "text" },
    { name: "extraction_auth_path", kind: "text" },
    { name: "extraction_client_id", kind: "text" },
    { name: "extraction_client_secret", kind: "text", secret: true, filterable: false, sortable: false },
    { name: "extraction_client_url", kind: "text" },
    { name: "extraction_customer_id", kind: "text" },
    { name: "extraction_queue_name", kind: "text" },
    created,
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "wait_for_stamp", filter: "select" },
    { field: "max_minutes_wait_for_stamp", sortable: true },
    { field: "extraction_provider", sortable: true, filter: "select" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: {},
  wizard: [
    {
      key: "stamp",
      fields: ["name", "wait_for_stamp", "max_minutes_wait_for_stamp", "release_unstamped_while_waiting", "minutes_wait_before_unstamped_release"],
    },
    { key: "extraction", fields: ["extraction_enabled", "extraction_provider", "billing_party", "customer_id", "queue_name"] },
    {
      key: "provider",
      fields: [
        "extraction_client_url",
        "extraction_auth_path",
        "extraction_client_id",
        "extraction_client_secret",
        "extraction_customer_id",
        "extraction_queue_name",
      ],
    },
  ],
  crossCheck: { fields: ["minutes_wait_before_unstamped_release", "max_minutes_wait_for_stamp"], check: releaseWaitError },
});
