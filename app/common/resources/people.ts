import { z } from "zod";
import { emailField, requiredText } from "../validation";
import { externalKeys, optionalId } from "./schema-parts";
import { defineResource } from "./types";

export const users = defineResource({
  key: "users",
  audited: true,
  resource: "user",
  accessKey: "userAccess",
  apiPath: "/api/v1/user",
  page: { titleKey: "pages.users", drawer: "firm", icon: "users" },
  titleField: "full_name",
  schema: z.object({
    email: emailField(),
    full_name: requiredText(200),
    display_name: requiredText(100),
    security_role_id: requiredText(100),
    timekeeper_id: optionalId(),
  }),
  fields: [
    { name: "email", kind: "email", required: true },
    { name: "full_name", kind: "text", required: true },
    { name: "display_name", kind: "text", required: true },
    { name: "security_role_id", kind: "reference", reference: "security-roles", required: true },
    { name: "timekeeper_id", kind: "reference", reference: "timekeepers" },
    { name: "created_at", kind: "date", computed: true },
  ],
  columns: [
    { field: "email", sortable: true, filter: "text" },
    { field: "full_name", sortable: true, filter: "text" },
    { field: "display_name", sortable: true },
    { field: "security_role_id", filter: "reference" },
    { field: "timekeeper_id", filter: "reference" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "email",
  quickFilters: { notMapped: { field: "timekeeper_id", labelKey: "resources:users.notMapped" } },
  wizard: [
    { key: "user", fields: ["email", "full_name", "display_name"] },
    { key: "access", fields: ["security_role_id", "timekeeper_id"] },
  ],
});

export const abbreviations = defineResource({
  key: "abbreviations",
  creationFailedKey: "errors:abbreviationCreation",
  // Abbreviations belong to the firm's settings (firmAccess in the spec).
  resource: "firm",
  accessKey: "firmAccess",
  apiPath: "/api/v1/abbreviation",
  page: { titleKey: "pages.abbreviations", drawer: "firm", icon: "alphabet" },
  titleField: "name",
  schema: z.object({ name: requiredText(50), value: requiredText(300), reference_id: externalKeys.reference_id }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "value", kind: "text", required: true },
    { name: "reference_id", kind: "text", match: "exact" },
    { name: "created_at", kind: "date", computed: true },
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "value", sortable: true, filter: "text" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: {},
  wizard: [{ key: "abbreviation", fields: ["name", "value"] }],
});
