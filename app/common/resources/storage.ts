import { z } from "zod";
import { HIERARCHY_LEVELS } from "../firm-schema";
import { name, optionalId, optionalText, properties } from "./schema-parts";
import { type FieldDef, defineResource } from "./types";
import { DMS_CREDENTIAL_KEYS } from "./credentials";

// Where documents go: storage policies and the credentials of the store they name.

export const STORE_EMAIL = ["none", "pdf", "eml"] as const;
export { HIERARCHY_LEVELS };
export type HierarchyLevel = (typeof HIERARCHY_LEVELS)[number];

const created: FieldDef = { name: "created_at", kind: "date", computed: true };

export const storagePolicies = defineResource({
  key: "storage-policies",
  audited: true,
  creationFailedKey: "errors:storagePolicyCreation",
  resource: "storage_policy",
  accessKey: "storagePolicyAccess",
  apiPath: "/api/v1/storage-policy",
  page: { titleKey: "pages.storagePolicies", drawer: "firm", icon: "folders" },
  titleField: "name",
  schema: z.object({
    name: name(),
    dms_credential_id: z.string({ required_error: "errors:dmsCredentialRequired" }).trim().min(1, "errors:dmsCredentialRequired"),
    store_documents: z.boolean().default(true),
    store_email: z.enum(STORE_EMAIL).default("none"),
    document_path: optionalText(500),
    document_name: optionalText(300),
    document_properties: properties(),
    additional_storage_policy_id: optionalId(),
  }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "dms_credential_id", kind: "reference", reference: "dms-credentials", required: true },
    { name: "store_documents", kind: "boolean", sortable: true },
    { name: "store_email", kind: "select", options: STORE_EMAIL },
    { name: "document_path", kind: "text", sortable: false },
    { name: "document_name", kind: "text", sortable: false },
    { name: "document_properties", kind: "properties" },
    { name: "additional_storage_policy_id", kind: "reference", reference: "storage-policies" },
    created,
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "dms_credential_id", filter: "reference" },
    { field: "store_documents", sortable: true },
    { field: "store_email", sortable: true, filter: "select" },
    { field: "document_path" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: {},
  wizard: [
    { key: "policy", fields: ["name", "dms_credential_id", "store_documents", "store_email"] },
    { key: "naming", fields: ["document_path", "document_name", "document_properties", "additional_storage_policy_id"] },
  ],
  crossCheck: {
    fields: ["additional_storage_policy_id"],
    check: (v, id) => (id && v.additional_storage_policy_id === id ? { additional_storage_policy_id: "errors:policyNotItself" } : null),
  },
});

/**
 * Credentials of the generic type: a name and one value. The file-system store reads the value
 * as its root folder, inside the product's storage folder.
 */
export const dmsCredentials = defineResource({
  key: "dms",
  audited: true,
  resource: "generic_credential",
  accessKey: "firmAccess",
  apiPath: "/api/v1/generic-credential",
  page: { titleKey: "pages.dms", drawer: "firm", icon: "database" },
  siblings: DMS_CREDENTIAL_KEYS,
  titleField: "name",
  schema: z.object({
    name: name(),
    field: z
      .string({ required_error: "errors:required" })
      .trim()
      .min(1, "errors:required")
      .max(300, "errors:fieldLength|300")
      .refine((v) => !v.split(/[\\/]+/).includes(".."), "errors:folderOutsideRoot"),
  }),
  fields: [{ name: "name", kind: "text", required: true }, { name: "field", kind: "text", required: true }, created],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "field", sortable: true, filter: "text" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: {},
  wizard: [{ key: "credential", fields: ["name", "field"] }],
});
