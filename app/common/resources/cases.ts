import { z } from "zod";
import { requiredText } from "../validation";
import { externalKeys, isoDate, name, optionalId, optionalText } from "./schema-parts";
import { defineResource } from "./types";

export const CASE_STATUSES = ["open", "closed", "stayed", "appealed"] as const;

export const cases = defineResource({
  key: "cases",
  resource: "case",
  accessKey: "caseAccess",
  apiPath: "/api/v1/case",
  page: { titleKey: "pages.cases", drawer: "data", icon: "scale" },
  titleField: "name",
  schema: z.object({
    name: name(300),
    case_number: requiredText(100),
    matter_id: requiredText(100),
    jurisdiction_id: requiredText(100),
    assigned_timekeepers: z.array(z.string().min(1), { required_error: "errors:atLeastOneTimekeeper" }).min(1, "errors:atLeastOneTimekeeper"),
    judge_id: optionalId(),
    status: z.enum(CASE_STATUSES).default("open"),
    description: optionalText(2000),
    caption: optionalText(2000),
    reference_id: externalKeys.reference_id,
    unique_key: externalKeys.unique_key,
    open_date: isoDate(),
    close_date: isoDate(),
    filed_date: isoDate(),
    storage_policy_id: optionalId(),
  }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "case_number", kind: "text", required: true },
    { name: "matter_id", kind: "reference", reference: "matters", required: true },
    { name: "jurisdiction_id", kind: "reference", reference: "jurisdictions", required: true },
    { name: "assigned_timekeepers", kind: "references", reference: "timekeepers", required: true },
    { name: "judge_id", kind: "reference", reference: "judges" },
    { name: "status", kind: "select", options: CASE_STATUSES },
    { name: "description", kind: "textarea" },
    { name: "caption", kind: "textarea" },
    { name: "reference_id", kind: "text", match: "exact" },
    { name: "unique_key", kind: "text" },
    { name: "open_date", kind: "date" },
    { name: "close_date", kind: "date" },
    { name: "filed_date", kind: "date" },
    { name: "storage_policy_id", kind: "reference", reference: "storage-policies" },
    { name: "envelope_count", kind: "number", computed: true },
    { name: "created_at", kind: "date", computed: true },
  ],
  columns: [
    { field: "case_number", sortable: true, filter: "text" },
    { field: "name", sortable: true, filter: "text" },
    { field: "matter_id", filter: "reference" },
    { field: "jurisdiction_id", filter: "reference" },
    { field: "status", sortable: true, filter: "select" },
    { field: "filed_date", sortable: true, filter: "dateRange" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "-created_at",
  // The notices first: they are what a case page is opened for.
  sections: ["caseNotices", "caseTracking", "caseRetrieve", "caseDocuments"],
  importSync: true,
  quickFilters: { notMapped: { field: "matter_id", labelKey: "resources:cases.notMapped" } },
  // The case creation wizard: matters and clients, jurisdiction, timekeepers, judge, storage policy.
  wizard: [
    { key: "case", fields: ["name", "case_number", "status", "description", "caption", "filed_date"] },
    { key: "matter", fields: ["matter_id"], kind: "matterChoice" },
    { key: "jurisdiction", fields: ["jurisdiction_id", "judge_id"] },
    { key: "timekeepers", fields: ["assigned_timekeepers"] },
    { key: "storage", fields: ["storage_policy_id", "reference_id", "unique_key"] },
  ],
});
