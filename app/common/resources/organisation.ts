import { z } from "zod";
import { requiredText } from "../validation";
import { externalKeys, name, optionalId, optionalText } from "./schema-parts";
import { type FieldDef, defineResource } from "./types";

// Locations, departments and practice groups: a name, the firm's code for it, a reference id.

const created: FieldDef = { name: "created_at", kind: "date", computed: true };
const notMapped = (key: string) => ({ notMapped: { field: "reference_id", labelKey: `resources:${key}.notMapped` } });

// Locations and practice groups are alike: levels of the storage policy hierarchy, each of which
// may name the policy of its level.
const storageLevel = {
  schema: z.object({ name: name(), unique_key: requiredText(100), reference_id: externalKeys.reference_id, storage_policy_id: optionalId() }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "unique_key", kind: "text", required: true },
    { name: "reference_id", kind: "text", match: "exact" },
    { name: "storage_policy_id", kind: "reference", reference: "storage-policies" },
    created,
  ] satisfies FieldDef[],
  columns: [
    { field: "name", sortable: true, filter: "text" as const },
    { field: "unique_key", sortable: true, filter: "text" as const },
    { field: "reference_id", sortable: true, filter: "text" as const },
    { field: "created_at", sortable: true, filter: "dateRange" as const },
  ],
  defaultSort: "name",
};

export const locations = defineResource({
  key: "locations",
  resource: "location",
  accessKey: "locationAccess",
  apiPath: "/api/v1/location",
  page: { titleKey: "pages.locations", drawer: "firm", icon: "mapPin" },
  titleField: "name",
  ...storageLevel,
  quickFilters: notMapped("locations"),
  wizard: [{ key: "location", fields: ["name", "unique_key", "reference_id", "storage_policy_id"] }],
});

export const departments = defineResource({
  key: "departments",
  resource: "department",
  accessKey: "departmentAccess",
  apiPath: "/api/v1/department",
  page: { titleKey: "pages.departments", drawer: "firm", icon: "sitemap" },
  titleField: "name",
  schema: z.object({
    name: name(),
    unique_key: requiredText(100),
    long_description: optionalText(2000),
    reference_id: externalKeys.reference_id,
  }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "unique_key", kind: "text", required: true },
    { name: "long_description", kind: "textarea" },
    { name: "reference_id", kind: "text", match: "exact" },
    created,
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "unique_key", sortable: true, filter: "text" },
    { field: "long_description" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: notMapped("departments"),
  wizard: [{ key: "department", fields: ["name", "unique_key", "long_description", "reference_id"] }],
});

export const practiceGroups = defineResource({
  key: "practice-groups",
  resource: "practice_group",
  // The spec guards practice groups with the location key.
  accessKey: "locationAccess",
  apiPath: "/api/v1/practice-group",
  page: { titleKey: "pages.practiceGroups", drawer: "firm", icon: "usersGroup" },
  titleField: "name",
  ...storageLevel,
  quickFilters: notMapped("practice-groups"),
  wizard: [{ key: "practiceGroup", fields: ["name", "unique_key", "reference_id", "storage_policy_id"] }],
});
