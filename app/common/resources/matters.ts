import { z } from "zod";
import { requiredText } from "../validation";
import { externalKeys, name, optionalId, optionalText } from "./schema-parts";
import { defineResource } from "./types";

export const MATTER_STATUSES = ["open", "closed", "pending"] as const;

export const matters = defineResource({
  key: "matters",
  resource: "matter",
  accessKey: "matterAccess",
  apiPath: "/api/v1/matter",
  page: { titleKey: "pages.matters", drawer: "data", icon: "briefcase" },
  titleField: "name",
  schema: z.object({
    name: name(),
    unique_key: requiredText(100),
    reference_id: externalKeys.reference_id,
    client_id: requiredText(100),
    status: z.enum(MATTER_STATUSES).default("open"),
    description: optionalText(2000),
    location_id: optionalId(),
    practice_group_id: optionalId(),
    area_of_law_id: optionalText(100),
    originating_timekeeper_id: optionalId(),
    billing_timekeeper_id: optionalId(),
    supervising_timekeeper_id: optionalId(),
    storage_policy_id: optionalId(),
  }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "unique_key", kind: "text", required: true },
    { name: "client_id", kind: "reference", reference: "clients", required: true },
    { name: "status", kind: "select", options: MATTER_STATUSES },
    { name: "description", kind: "textarea" },
    { name: "reference_id", kind: "text", match: "exact" },
    { name: "location_id", kind: "reference", reference: "locations" },
    { name: "practice_group_id", kind: "reference", reference: "practice-groups" },
    { name: "area_of_law_id", kind: "text", sortable: false, match: "exact" },
    { name: "originating_timekeeper_id", kind: "reference", reference: "timekeepers" },
    { name: "billing_timekeeper_id", kind: "reference", reference: "timekeepers" },
    { name: "supervising_timekeeper_id", kind: "reference", reference: "timekeepers" },
    { name: "storage_policy_id", kind: "reference", reference: "storage-policies" },
    { name: "case_count", kind: "number", computed: true },
    { name: "created_at", kind: "date", computed: true },
  ],
  columns: [
    { field: "unique_key", sortable: true, filter: "text" },
    { field: "name", sortable: true, filter: "text" },
    { field: "client_id", filter: "reference" },
    { field: "status", sortable: true, filter: "select" },
    { field: "case_count" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: { notMapped: { field: "case_count", labelKey: "resources:matters.notMapped" } },
  wizard: [
    { key: "matter", fields: ["client_id", "name", "unique_key", "status", "description"] },
    { key: "organisation", fields: ["location_id", "practice_group_id", "area_of_law_id", "storage_policy_id"] },
    { key: "people", fields: ["originating_timekeeper_id", "billing_timekeeper_id", "supervising_timekeeper_id", "reference_id"] },
  ],
});
