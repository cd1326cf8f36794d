import { z } from "zod";
import { EVENT_LEVELS } from "../firm-schema";
import { defineResource } from "./types";

// /event-logs: the firm's system events (pipeline steps, failures, and the AUDIT entry of every
// configuration change), read-only, through the shared table: filters, sort, URL state, export.
export const eventLogs = defineResource({
  key: "event-logs",
  resource: "firm",
  accessKey: "firmAccess",
  apiPath: "/api/v1/event-log",
  page: { titleKey: "pages.eventLogs", drawer: "firm", icon: "history" },
  titleField: "event",
  schema: z.object({}),
  fields: [
    { name: "created_at", kind: "date", computed: true },
    { name: "level", kind: "select", options: EVENT_LEVELS, computed: true },
    { name: "event", kind: "text", computed: true },
    { name: "detail", kind: "text", computed: true, sortable: false },
    { name: "inbox_item_id", kind: "reference", reference: "inbox-items", computed: true },
  ],
  columns: [
    { field: "created_at", sortable: true, filter: "dateRange" },
    { field: "level", sortable: true, filter: "select" },
    { field: "event", sortable: true, filter: "text" },
    { field: "detail" },
    { field: "inbox_item_id" },
  ],
  defaultSort: "-created_at",
  quickFilters: {},
  wizard: [],
});
