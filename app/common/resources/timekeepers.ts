import { z } from "zod";
import { emailList, requiredText } from "../validation";
import { externalKeys, name, optionalId, optionalText, properties } from "./schema-parts";
import { defineResource } from "./types";

export const TIMEKEEPER_STATUSES = ["active", "inactive"] as const;

export const timekeepers = defineResource({
  key: "timekeepers",
  creationFailedKey: "errors:timekeeperCreation",
  resource: "timekeeper",
  accessKey: "timekeeperAccess",
  apiPath: "/api/v1/timekeeper",
  page: { titleKey: "pages.timekeepers", drawer: "data", icon: "userStar" },
  titleField: "full_name",
  schema: z.object({
    full_name: name(),
    email: requiredText(254)
      .email("errors:invalidEmail")
      .transform((v) => v.toLowerCase()),
    unique_key: externalKeys.unique_key,
    reference_id: externalKeys.reference_id,
    sort_name: optionalText(200),
    title: optionalText(200),
    status: z.enum(TIMEKEEPER_STATUSES).default("active"),
    is_attorney: z.boolean().default(false),
    billable: z.boolean().default(false),
    location_id: optionalId(),
    department_id: optionalId(),
    practice_group_id: optionalId(),
    timekeeper_group_id: optionalId(),
    storage_policy_id: optionalId(),
    additional_receipt_emails: emailList().default([]),
    user_defined_fields: properties(),
  }),
  fields: [
    { name: "full_name", kind: "text", required: true },
    { name: "email", kind: "email", required: true },
    { name: "unique_key", kind: "text" },
    { name: "reference_id", kind: "text", match: "exact" },
    { name: "sort_name", kind: "text" },
    { name: "title", kind: "text" },
    { name: "status", kind: "select", options: TIMEKEEPER_STATUSES },
    { name: "is_attorney", kind: "boolean" },
    { name: "billable", kind: "boolean" },
    { name: "location_id", kind: "reference", reference: "locations" },
    { name: "department_id", kind: "reference", reference: "departments" },
    { name: "practice_group_id", kind: "reference", reference: "practice-groups" },
    { name: "timekeeper_group_id", kind: "reference", reference: "preference-groups" },
    { name: "storage_policy_id", kind: "reference", reference: "storage-policies" },
    { name: "additional_receipt_emails", kind: "emails" },
    { name: "user_defined_fields", kind: "properties" },
    { name: "created_at", kind: "date", computed: true },
  ],
  columns: [
    { field: "unique_key", sortable: true, filter: "text" },
    { field: "full_name", sortable: true, filter: "text" },
    { field: "email", sortable: true, filter: "text" },
    { field: "title", sortable: true },
    { field: "location_id", filter: "reference" },
    { field: "status", sortable: true, filter: "select" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "full_name",
  quickFilters: { notMapped: { field: "timekeeper_group_id", labelKey: "resources:timekeepers.notMapped" } },
  wizard: [
    { key: "person", fields: ["full_name", "email", "title", "sort_name", "is_attorney", "billable", "status"] },
    { key: "organisation", fields: ["unique_key", "reference_id", "location_id", "department_id", "practice_group_id", "user_defined_fields"] },
    { key: "delivery", fields: ["timekeeper_group_id", "additional_receipt_emails", "storage_policy_id"] },
  ],
});
