import { z } from "zod";
import { requiredText } from "../validation";
import { externalKeys, name } from "./schema-parts";
import { type FieldDef, defineResource } from "./types";

// The firm's jurisdictions (mapped to ECFX's court list), judges, ignored cases, and the court
// list itself.

const created: FieldDef = { name: "created_at", kind: "date", computed: true };
export const COURT_LEVELS = ["NONE", "APPEALS", "BANKRUPTCY", "DISTRICT"] as const;

export const ecfxJurisdictions = defineResource({
  key: "ecfx-jurisdictions",
  resource: "ecfx_jurisdiction",
  accessKey: "jurisdictionAccess",
  apiPath: "/api/v1/ecfx-jurisdiction",
  page: { titleKey: "pages.ecfxJurisdictions", drawer: "data", icon: "building" },
  titleField: "name",
  // The court list is ECFX's reference data: firms read it, never write it.
  schema: z.object({}),
  fields: [
    { name: "id", kind: "text", computed: true, sortable: true },
    { name: "name", kind: "text", computed: true },
    { name: "level", kind: "select", options: COURT_LEVELS, computed: true },
    { name: "state", kind: "text", computed: true },
    { name: "country", kind: "text", computed: true },
  ],
  columns: [
    { field: "id", sortable: true, filter: "text" },
    { field: "name", sortable: true, filter: "text" },
    { field: "level", sortable: true, filter: "select" },
    { field: "state", sortable: true, filter: "text" },
  ],
  defaultSort: "name",
  quickFilters: {},
  wizard: [],
});

export const jurisdictions = defineResource({
  key: "jurisdictions",
  resource: "jurisdiction",
  accessKey: "jurisdictionAccess",
  apiPath: "/api/v1/jurisdiction",
  page: { titleKey: "pages.jurisdictions", drawer: "data", icon: "world" },
  titleField: "name",
  schema: z.object({
    name: name(),
    ecfx_jurisdictions: z.array(z.string().min(1)).default([]),
    reference_id: externalKeys.reference_id,
    unique_key: externalKeys.unique_key,
  }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "ecfx_jurisdictions", kind: "references", reference: "ecfx-jurisdictions" },
    { name: "reference_id", kind: "text", match: "exact" },
    { name: "unique_key", kind: "text" },
    created,
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "ecfx_jurisdictions" },
    { field: "reference_id", sortable: true, filter: "text" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: { notMapped: { field: "ecfx_jurisdictions", labelKey: "resources:jurisdictions.notMapped" } },
  wizard: [
    { key: "jurisdiction", fields: ["name", "reference_id", "unique_key"] },
    { key: "mapping", fields: ["ecfx_jurisdictions"] },
  ],
});

export const judges = defineResource({
  key: "judges",
  resource: "judge",
  accessKey: "judgeAccess",
  apiPath: "/api/v1/judge",
  page: { titleKey: "pages.judges", drawer: "data", icon: "gavel" },
  titleField: "name",
  schema: z.object({
    name: name(),
    jurisdiction_id: requiredText(100),
    reference_id: externalKeys.reference_id,
    unique_key: externalKeys.unique_key,
  }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "jurisdiction_id", kind: "reference", reference: "jurisdictions", required: true },
    { name: "reference_id", kind: "text", match: "exact" },
    { name: "unique_key", kind: "text" },
    created,
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "jurisdiction_id", filter: "reference" },
    { field: "reference_id", sortable: true, filter: "text" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: { notMapped: { field: "reference_id", labelKey: "resources:judges.notMapped" } },
  wizard: [{ key: "judge", fields: ["name", "jurisdiction_id", "reference_id", "unique_key"] }],
});

export const ignoredCases = defineResource({
  key: "ignored-cases",
  resource: "ignored_case",
  accessKey: "ignoredCaseAccess",
  apiPath: "/api/v1/ignored-case",
  page: { titleKey: "pages.ignoredCases", drawer: "data", icon: "userOff" },
  titleField: "name",
  // "name" is the case number, as the spec's IgnoredCase names it.
  schema: z.object({ name: requiredText(100), ecfx_jurisdiction_id: requiredText(20) }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "ecfx_jurisdiction_id", kind: "reference", reference: "ecfx-jurisdictions", required: true, sortable: true },
    created,
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "ecfx_jurisdiction_id", sortable: true, filter: "reference" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: {},
  wizard: [{ key: "ignoredCase", fields: ["name", "ecfx_jurisdiction_id"] }],
});
