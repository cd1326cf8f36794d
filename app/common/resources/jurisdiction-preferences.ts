import { z } from "zod";
import { name } from "./schema-parts";
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
