import { z } from "zod";
import { requiredText } from "../validation";
import { externalKeys, isoDate, name, optionalId } from "./schema-parts";
import { defineResource } from "./types";

export const CLIENT_STATUSES = ["active", "closed", "pending"] as const;

export const clients = defineResource({
  key: "clients",
  resource: "client",
  accessKey: "clientAccess",
  apiPath: "/api/v1/client",
  page: { titleKey: "pages.clients", drawer: "data", icon: "buildingBank" },
  titleField: "name",
  schema: z.object({
    name: name(),
    // The client number is the firm's own key for the client.
    unique_key: requiredText(100),
    reference_id: externalKeys.reference_id,
    status: z.enum(CLIENT_STATUSES).default("active"),
    open_date: isoDate(),
    originating_timekeeper_id: optionalId(),
    storage_policy_id: optionalId(),
  }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "unique_key", kind: "text", required: true },
    { name: "reference_id", kind: "text", match: "exact" },
    { name: "status", kind: "select", options: CLIENT_STATUSES },
    { name: "open_date", kind: "date" },
    { name: "originating_timekeeper_id", kind: "reference", reference: "timekeepers" },
    { name: "storage_policy_id", kind: "reference", reference: "storage-policies" },
    { name: "created_at", kind: "date", computed: true },
    { name: "matter_count", kind: "number", computed: true },
  ],
  columns: [
    { field: "unique_key", sortable: true, filter: "text" },
    { field: "name", sortable: true, filter: "text" },
    { field: "status", sortable: true, filter: "select" },
    { field: "open_date", sortable: true, filter: "dateRange" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: { notMapped: { field: "matter_count", labelKey: "resources:clients.notMapped" } },
  wizard: [
    { key: "client", fields: ["name", "unique_key", "status", "open_date"] },
    { key: "links", fields: ["reference_id", "originating_timekeeper_id", "storage_policy_id"] },
  ],
});
