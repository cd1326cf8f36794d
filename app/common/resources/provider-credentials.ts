import { z } from "zod";
import { requiredText } from "../validation";
import { name, optionalText } from "./schema-parts";
import { defineResource } from "./types";

// /provider-credentials: the firm's account with a court records provider, which ECFX signs in
// with to fetch a document the free look no longer serves (decision 058). One per provider type
// per firm (spec §5: "a type that already exists cannot be created again"). No resource of spec
// §6 of its own: it is part of the firm's settings and answers to their permission.

/** The providers ECFX can sign in to; another is one more entry here and a client of its own. */
export const PROVIDER_TYPES = ["PACER"] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

export const providerCredentials = defineResource({
  key: "provider-credentials",
  resource: "firm",
  borrowsPermission: true,
  accessKey: "firmAccess",
  apiPath: "/api/v1/provider-credential",
  page: { titleKey: "pages.providerCredentials", drawer: "firm", icon: "shieldLock" },
  audited: true,
  testConnection: true,
  titleField: "name",
  schema: z.object({
    provider_type: z.enum(PROVIDER_TYPES, { required_error: "errors:required", invalid_type_error: "errors:required" }),
    name: name(),
    // PACER login ids are at most 20 characters; longer is surely a typing slip but PACER says so itself.
    username: requiredText(100),
    password: requiredText(200),
    // Sent to the courts as a cookie: PACER's client codes are short words, no separators.
    client_code: optionalText(32).refine((v) => !v || /^[A-Za-z0-9 _.-]+$/.test(v), "errors:clientCodeCharacters"),
    // PACER's redactFlag: a filer's account signs in only once its holder agrees to the redaction rules.
    redaction_agreed: z.boolean().default(false),
  }),
  fields: [
    { name: "provider_type", kind: "select", options: PROVIDER_TYPES, required: true },
    { name: "name", kind: "text", required: true },
    { name: "username", kind: "text", required: true },
    { name: "password", kind: "text", required: true, secret: true, sortable: false, filterable: false },
    { name: "client_code", kind: "text" },
    { name: "redaction_agreed", kind: "boolean" },
    { name: "created_at", kind: "date", computed: true },
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "provider_type", sortable: true, filter: "select" },
    { field: "username", sortable: true, filter: "text" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: {},
  wizard: [
    { key: "provider", fields: ["provider_type", "name"] },
    { key: "account", fields: ["username", "password", "client_code", "redaction_agreed"] },
  ],
});
