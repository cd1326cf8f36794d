import { z } from "zod";
import { requiredText } from "../validation";
import { defineResource } from "./types";

export const ROLE_NAME_MAX = 100;

// /security-roles: the firm's roles in the shared table. A role is written as the binary
// UserSecurityRole message through its own API and edited on its own page (the permission
// matrix), so the generic module only lists and reads it.
export const securityRoles = defineResource({
  key: "security-roles",
  resource: "firm",
  accessKey: "firmAccess",
  apiPath: "/api/v1/security-role",
  // A user's role is picked by whoever may read users, not only by who manages roles.
  pickerPath: "/api/v1/security-role-choice",
  page: { titleKey: "pages.securityRoles", drawer: "firm", icon: "shieldLock" },
  titleField: "name",
  schema: z.object({ name: requiredText(ROLE_NAME_MAX) }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "user_count", kind: "number", computed: true },
    { name: "is_system_defined", kind: "boolean", computed: true, sortable: true },
    { name: "created_at", kind: "date", computed: true },
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "user_count", sortable: true },
    { field: "is_system_defined", sortable: true },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: {},
  wizard: [],
  ownEditor: true,
});
