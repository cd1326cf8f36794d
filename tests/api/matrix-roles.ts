import { type RolePermissions, defaultRolePermissions } from "../../server/auth/permissions";

// The custom roles both access matrices (the API's and the console's) put beside the default
// ones: what a firm can make that the defaults never show.

export const FIELDS_HIDDEN = "Fields hidden";
export const NO_INBOX = "No inbox";

/** View Only, less the message's text and source and the docket text. */
function fieldsHidden(): RolePermissions {
  const perms = defaultRolePermissions("View Only");
  perms.inbox_item = { access: "READ", fields: { snippet: "DENY", raw_content: "DENY", html_content: "DENY" } };
  perms.envelope = { access: "READ", fields: { docket_text: "DENY" } };
  return perms;
}

/** An administrator's levels without the notice pages: firm settings, people, webhooks, yes; notices, no. */
function noInbox(): RolePermissions {
  const perms = defaultRolePermissions("Administrator");
  for (const resource of ["inbox_item", "envelope", "document"]) perms[resource] = { access: "DENY" };
  return perms;
}

export const CUSTOM_ROLES: Record<string, () => RolePermissions> = { [FIELDS_HIDDEN]: fieldsHidden, [NO_INBOX]: noInbox };
