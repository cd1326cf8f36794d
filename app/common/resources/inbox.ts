import { z } from "zod";
import { defineResource } from "./types";

// The inbox and the ECF notifications (envelopes) are written by the pipeline, never through a
// form: their registry entries serve the shared table, search and export.

export const INBOX_STATUSES = ["New", "Started", "Retry", "Failed", "Manual", "Action Required", "Canceled", "Succeeded", "Post Processing"] as const;
export const DISPOSITIONS = ["No Disposition", "Processed", "Split", "Ignored"] as const;
export const INBOX_SOURCES = ["SMTP", "UPLOAD", "CLI", "TRACK", "RETRIEVE"] as const;
export const ACTION_REQUIRED = ["NONE", "ECFX", "USER"] as const;
export const DMS_STATUSES = ["new", "started", "failed", "succeeded", "delayed", "canceled"] as const;

// The one declaration of an item's states: the pipeline (server/pipeline/item-state.ts) moves an
// item through them, the console lists and filters by them.
export type InboxStatus = (typeof INBOX_STATUSES)[number];
export type ActionRequired = (typeof ACTION_REQUIRED)[number];
export type Disposition = (typeof DISPOSITIONS)[number];

export const inboxItems = defineResource({
  key: "inbox-items",
  resource: "inbox_item",
  accessKey: "inboxItemAccess",
  apiPath: "/api/v1/inbox-item",
  page: { titleKey: "pages.inboxItems", drawer: "notices", icon: "inbox" },
  titleField: "subject",
  schema: z.object({}),
  fields: [
    { name: "created_at", kind: "date", computed: true },
    { name: "status", kind: "select", options: INBOX_STATUSES, computed: true },
    { name: "action_required", kind: "select", options: ACTION_REQUIRED, computed: true },
    { name: "disposition", kind: "select", options: DISPOSITIONS, computed: true },
    { name: "disposition_text", kind: "text", computed: true, sortable: false },
    { name: "source", kind: "select", options: INBOX_SOURCES, computed: true },
    { name: "subject", kind: "text", computed: true },
    { name: "snippet", kind: "text", computed: true, sortable: false },
    { name: "sender", kind: "text", computed: true },
    { name: "case_id", kind: "reference", reference: "cases", computed: true },
    { name: "dms_status", kind: "select", options: DMS_STATUSES, computed: true },
    { name: "reason", kind: "text", computed: true, sortable: false },
    // For the inbox card and the list's own logic, not the generic record page.
    { name: "source_type", kind: "text", computed: true, internal: true },
    { name: "parent_id", kind: "reference", reference: "inbox-items", computed: true, internal: true },
    { name: "duplicate_of_id", kind: "reference", reference: "inbox-items", computed: true, internal: true },
    { name: "hidden", kind: "boolean", computed: true, internal: true },
  ],
  // What a row is read by first (subject, case), so that a narrow screen shows them before it scrolls.
  columns: [
    { field: "subject", sortable: true, filter: "text" },
    { field: "case_id", filter: "reference" },
    { field: "status", sortable: true, filter: "select" },
    { field: "dms_status", filter: "select" },
    { field: "created_at", sortable: true, filter: "dateRange" },
    { field: "disposition", sortable: true, filter: "select" },
    { field: "source", sortable: true, filter: "select" },
  ],
  defaultSort: "-created_at",
  viewPath: (id) => `/inbox-items/id/${encodeURIComponent(id)}`,
  extraAction: { path: "/inbox-items/upload", labelKey: "inbox:upload.title" },
  quickFilters: { notMapped: { field: "case_id", labelKey: "resources:inbox-items.notMapped" } },
  wizard: [],
});

export const envelopes = defineResource({
  key: "ecfx-notification",
  resource: "envelope",
  accessKey: "envelopeAccess",
  apiPath: "/api/v1/envelope",
  page: { titleKey: "pages.envelopes", drawer: "notices", icon: "mail" },
  titleField: "name",
  schema: z.object({}),
  fields: [
    { name: "date", kind: "date", computed: true },
    { name: "name", kind: "text", computed: true },
    { name: "case_id", kind: "reference", reference: "cases", computed: true },
    { name: "ecfx_jurisdiction_id", kind: "reference", reference: "ecfx-jurisdictions", computed: true, sortable: true },
    { name: "filed_by", kind: "text", computed: true },
    { name: "court_envelope_id", kind: "text", computed: true, match: "exact" },
    { name: "docket_text", kind: "textarea", computed: true },
    { name: "created_at", kind: "date", computed: true },
    { name: "inbox_item_id", kind: "reference", reference: "inbox-items", computed: true, internal: true },
    { name: "service_contacts", kind: "properties", computed: true, internal: true },
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "case_id", filter: "reference" },
    { field: "date", sortable: true, filter: "dateRange" },
    { field: "ecfx_jurisdiction_id", sortable: true, filter: "reference" },
    { field: "filed_by", sortable: true, filter: "text" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "-created_at",
  sections: ["envelopeDocuments"],
  quickFilters: {},
  wizard: [],
});
