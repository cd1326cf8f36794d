import { z } from "zod";
import { name, optionalId } from "./schema-parts";
import { defineResource } from "./types";

// Ethical walls: who may (inclusionary) or may not (exclusionary) hear of a matter or a client.

export const WALL_TYPES = ["inclusionary", "exclusionary"] as const;

export const ethicalWalls = defineResource({
  key: "ethical-walls",
  audited: true,
  resource: "firm",
  accessKey: "firmAccess",
  apiPath: "/api/v1/ethical-wall",
  page: { titleKey: "pages.ethicalWalls", drawer: "firm", icon: "wall" },
  titleField: "name",
  schema: z.object({
    name: name(),
    type: z.enum(WALL_TYPES).default("exclusionary"),
    matter_id: optionalId(),
    client_id: optionalId(),
    timekeepers: z.array(z.string().min(1), { required_error: "errors:atLeastOneTimekeeper" }).min(1, "errors:atLeastOneTimekeeper"),
  }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "type", kind: "select", options: WALL_TYPES },
    { name: "matter_id", kind: "reference", reference: "matters" },
    { name: "client_id", kind: "reference", reference: "clients" },
    { name: "timekeepers", kind: "references", reference: "timekeepers", required: true },
    { name: "created_at", kind: "date", computed: true },
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "type", sortable: true, filter: "select" },
    { field: "matter_id", filter: "reference" },
    { field: "client_id", filter: "reference" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: {},
  wizard: [
    { key: "wall", fields: ["name", "type", "matter_id", "client_id"] },
    { key: "timekeepers", fields: ["timekeepers"] },
  ],
  crossCheck: { fields: ["matter_id", "client_id"], check: (v) => (v.matter_id || v.client_id ? null : { matter_id: "errors:matterOrClient" }) },
});
