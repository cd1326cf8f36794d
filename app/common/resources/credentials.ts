import { z } from "zod";
import { FILEVINE_BILLING_ITEM, FILEVINE_SUBDOMAIN } from "../filevine";
import { requiredText } from "../validation";
import { name, optionalText, properties } from "./schema-parts";
import { type ColumnDef, type CrossCheck, type FieldDef, type ResourceDef, defineResource } from "./types";

// The credential of each vendor DMS of spec §3 (and Dropbox): one declaration each, built from a
// list of its fields so the rules every credential shares (name, folder creation delay, secrets
// that never come back, URLs, the numeric customer id) are written once. Spec §5: "DMS creation
// requires per-type fields". Each type is its own permission resource; the generic credential
// keeps its own declaration in storage.ts.

/** How a credential field is typed in and checked. */
type CredentialFieldKind = "text" | "secret" | "url" | "integer" | "flag" | "choice" | "map";

interface CredentialField {
  name: string;
  kind: CredentialFieldKind;
  required?: boolean;
  options?: readonly string[];
  /** Which wizard step asks for it: signing in, or where and how documents are filed. */
  step: "connection" | "filing";
  column?: boolean;
  /** Catalogue key of a sentence shown under the input. */
  hintKey?: string;
  /** A text that must match this pattern, or is refused with the message key. */
  pattern?: { regex: RegExp; message: string };
  /** A choice's value when none is given (records from before the field existed). */
  defaultValue?: string;
}

export const BOX_SUBJECT_TYPES = ["enterprise", "user"] as const;
/** How an iManage credential signs in: a user's password, or a person's approval through the tenant's SSO. */
export const IMANAGE_SIGN_IN_METHODS = ["password", "authorization_code"] as const;

/** Milliseconds waited after creating a folder before filing into it (some DMS index folders late). */
const syncDelay = () =>
  z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? 0 : typeof v === "string" ? Number(v) : v),
    z
      .number({ invalid_type_error: "errors:wholeMilliseconds" })
      .int("errors:wholeMilliseconds")
      .min(0, "errors:wholeMilliseconds")
      .max(600_000, "errors:wholeMilliseconds"),
  );

const urlText = (required: boolean) => {
  // A form leaves an empty field out: a required URL missing says so as every required field does.
  const url = z
    .string({ required_error: "errors:required" })
    .trim()
    .max(1000, "errors:fieldLength|1000")
    .refine((v) => v === "" || /^https?:\/\/[^\s/]+/i.test(v), "errors:invalidUrl");
  return required ? url.pipe(requiredText(1000)) : url.optional();
};

const integer = (required: boolean) => {
  const number = z.preprocess(
    (v) => (v === "" || v === null ? undefined : typeof v === "string" ? Number(v.trim()) : v),
    z
      .number({ invalid_type_error: "errors:numeric", required_error: "errors:required" })
      .int("errors:numeric")
      .min(0, "errors:numeric")
      .max(Number.MAX_SAFE_INTEGER, "errors:numeric"),
  );
  return required ? number : number.optional();
};

function schemaOf(field: CredentialField): z.ZodTypeAny {
  const required = field.required ?? false;
  switch (field.kind) {
    case "url":
      return urlText(required);
    case "integer":
      return integer(required);
    case "flag":
      return z.boolean().default(false);
    case "choice": {
      const choice = z.enum(field.options as [string, ...string[]], { required_error: "errors:required" });
      return field.defaultValue ? z.preprocess((v) => (v === null || v === "" ? undefined : v), choice.default(field.defaultValue)) : choice;
    }
    case "map":
      return properties();
    case "secret":
      return required ? requiredText(4000) : optionalText(4000);
    default: {
      const text = required ? requiredText(500) : optionalText(500);
      const { pattern } = field;
      return pattern ? text.refine((v) => v === undefined || v === "" || pattern.regex.test(v), pattern.message) : text;
    }
  }
}

const FIELD_KIND: Record<CredentialFieldKind, FieldDef["kind"]> = {
  text: "text",
  secret: "text",
  url: "text",
  integer: "number",
  flag: "boolean",
  choice: "select",
  map: "properties",
};

function fieldDef(field: CredentialField): FieldDef {
  const def: FieldDef = { name: field.name, kind: FIELD_KIND[field.kind] };
  if (field.required || field.kind === "choice") def.required = true;
  if (field.hintKey) def.hintKey = field.hintKey;
  if (field.options) def.options = field.options;
  if (field.kind === "secret") {
    def.secret = true;
    def.sortable = false;
    def.filterable = false;
  }
  return def;
}

/** Every DMS credential type's list page: the /dms page shows them as tabs of one page. */
export const DMS_CREDENTIAL_KEYS = [
  "dms",
  "dms-imanage-cloud",
  "dms-imanage-on-prem",
  "dms-netdocuments-cloud",
  "dms-netdocuments-client",
  "dms-sharepoint-cloud",
  "dms-sharepoint-on-prem",
  "dms-box",
  "dms-dropbox",
  "dms-clio",
  "dms-litify",
  "dms-filevine",
  "dms-prolaw",
] as const;

interface CredentialType {
  key: (typeof DMS_CREDENTIAL_KEYS)[number];
  /** Spec §3 resource type (its own permission), and the table it is kept in. */
  resource: string;
  apiPath: string;
  creationFailedKey: string;
  updateFailedKey: string;
  fields: CredentialField[];
  borrowsPermission?: boolean;
  /** Ways of signing in: at least one group must be complete (the first group's first field names the error). */
  signInWith?: string[][];
  authorization?: ResourceDef["authorization"];
  /** A rule across fields of its own. */
  crossCheck?: CrossCheck;
}

const NAME_STEP = { name: "name", kind: "text", required: true, step: "connection" } as const;
const DELAY = { name: "folder_creation_sync_delay", kind: "integer", step: "filing" } as const;

function credentialResource(type: CredentialType): ResourceDef {
  const all: CredentialField[] = [NAME_STEP, ...type.fields, DELAY];
  const shape: Record<string, z.ZodTypeAny> = {};
  for (const field of all) shape[field.name] = field.name === "name" ? name() : field.name === DELAY.name ? syncDelay() : schemaOf(field);
  const shown = all.filter((f) => f.column);
  const columns: ColumnDef[] = [
    { field: "name", sortable: true, filter: "text" },
    ...shown.map((f): ColumnDef => ({ field: f.name, sortable: true, filter: f.kind === "choice" ? "select" : "text" })),
    { field: "created_at", sortable: true, filter: "dateRange" },
  ];
  return defineResource({
    key: type.key,
    audited: true,
    creationFailedKey: type.creationFailedKey,
    updateFailedKey: type.updateFailedKey,
    resource: type.resource,
    ...(type.borrowsPermission ? { borrowsPermission: true } : {}),
    accessKey: "firmAccess",
    apiPath: type.apiPath,
    page: { titleKey: `resources:${type.key}.title` },
    siblings: DMS_CREDENTIAL_KEYS,
    titleField: "name",
    schema: z.object(shape),
    ...(type.signInWith ? { crossCheck: signInCheck(type.signInWith) } : type.crossCheck ? { crossCheck: type.crossCheck } : {}),
    fields: [...all.map(fieldDef), { name: "created_at", kind: "date", computed: true }],
    columns,
    defaultSort: "name",
    quickFilters: {},
    wizard: [
      { key: "connection", fields: all.filter((f) => f.step === "connection").map((f) => f.name) },
      { key: "filing", fields: all.filter((f) => f.step === "filing").map((f) => f.name) },
    ],
    testConnection: true,
    ...(type.authorization ? { authorization: type.authorization } : {}),
  });
}

const filled = (value: unknown) => (typeof value === "string" ? value.trim() !== "" : value !== undefined && value !== null);

/** A credential that signs in one of several ways needs one of them whole: each missing field of the first way is marked. */
const signInCheck = (groups: string[][]): CrossCheck => ({
  fields: groups.flat(),
  check: (values) =>
    groups.some((group) => group.every((field) => filled(values[field])))
      ? null
      : Object.fromEntries(groups[0]!.filter((name) => !filled(values[name])).map((name) => [name, "errors:required"])),
});

const f = (name: string, kind: CredentialFieldKind, step: CredentialField["step"], extra: Partial<CredentialField> = {}): CredentialField => ({
  name,
  kind,
  step,
  ...extra,
});
const req = { required: true } as const;

const IMANAGE_SIGN_IN: CredentialField[] = [
  f("sign_in", "choice", "connection", { options: IMANAGE_SIGN_IN_METHODS, defaultValue: "password" }),
  f("username", "text", "connection"),
  f("password", "secret", "connection"),
  f("client_id", "text", "connection", req),
  f("client_secret", "secret", "connection", req),
  f("customer_id", "integer", "connection", req),
  f("database", "text", "connection", { required: true, column: true }),
];
const IMANAGE_FILING: CredentialField[] = [
  f("folder_id", "text", "filing", req),
  f("author_field", "text", "filing"),
  f("document_class", "text", "filing", req),
  f("document_sub_class", "text", "filing", req),
  f("default_security", "text", "filing"),
  f("matter_workspace_search", "flag", "filing"),
  f("matter_workspace_search_path", "text", "filing"),
  f("custom_properties", "map", "filing"),
];
const SHAREPOINT: CredentialField[] = [
  f("tenant_id", "text", "connection", req),
  f("client_id", "text", "connection", req),
  f("client_secret", "secret", "connection", req),
  f("base_url", "url", "connection", { required: true, column: true }),
  f("author_field", "text", "filing"),
  f("signature", "text", "filing"),
];

/** A password sign-in needs the user's name and password; an approved one (SSO) has none. */
const imanageSignInCheck: CrossCheck = {
  fields: ["sign_in", "username", "password"],
  check: (values) => {
    if (values.sign_in === "authorization_code") return null;
    const missing = ["username", "password"].filter((field) => !filled(values[field]));
    return missing.length ? Object.fromEntries(missing.map((field) => [field, "errors:required"])) : null;
  },
};

const failed = (system: string) => ({ creationFailedKey: `errors:dmsCreation.${system}`, updateFailedKey: `errors:dmsUpdate.${system}` });

export const imanageCloudCredentials = credentialResource({
  key: "dms-imanage-cloud",
  resource: "imanage_cloud_credential",
  apiPath: "/api/v1/imanage-cloud-credential",
  ...failed("imanageCloud"),
  authorization: { system: "imanage-cloud" },
  crossCheck: imanageSignInCheck,
  fields: [f("cloud_environment", "text", "connection", { required: true, column: true }), ...IMANAGE_SIGN_IN, ...IMANAGE_FILING],
});

export const imanageOnPremCredentials = credentialResource({
  key: "dms-imanage-on-prem",
  resource: "imanage_on_prem_credential",
  apiPath: "/api/v1/imanage-on-prem-credential",
  ...failed("imanageOnPrem"),
  authorization: { system: "imanage-on-prem" },
  crossCheck: imanageSignInCheck,
  fields: [f("base_url", "url", "connection", { required: true, column: true }), f("use_agent", "flag", "connection"), ...IMANAGE_SIGN_IN, ...IMANAGE_FILING],
});

export const netDocumentsCloudCredentials = credentialResource({
  key: "dms-netdocuments-cloud",
  resource: "net_documents_cloud_credential",
  apiPath: "/api/v1/net-documents-cloud-credential",
  ...failed("netDocumentsCloud"),
  authorization: { system: "netdocuments" },
  fields: [
    f("cloud_environment", "text", "connection", { required: true, column: true }),
    f("basic_auth", "secret", "connection", req),
    f("refresh_token", "secret", "connection", req),
    f("recent_access_token", "secret", "connection"),
    f("default_cabinet", "text", "filing", { required: true, column: true }),
    f("author_field", "text", "filing"),
    f("matter_workspaces", "flag", "filing"),
  ],
});

export const netDocumentsClientCredentials = credentialResource({
  key: "dms-netdocuments-client",
  resource: "net_documents_client_credential",
  apiPath: "/api/v1/net-documents-client-credential",
  ...failed("netDocumentsClient"),
  fields: [
    f("region", "text", "connection", { column: true }),
    f("client_id", "text", "connection", req),
    f("client_secret", "secret", "connection", req),
    f("repository", "text", "connection", req),
    f("default_cabinet", "text", "filing", { required: true, column: true }),
    f("author_field", "text", "filing"),
    f("create_folders", "flag", "filing"),
    f("matter_workspaces", "flag", "filing"),
  ],
});

export const sharePointCloudCredentials = credentialResource({
  key: "dms-sharepoint-cloud",
  resource: "share_point_cloud_credential",
  apiPath: "/api/v1/share-point-cloud-credential",
  ...failed("sharePointCloud"),
  fields: SHAREPOINT,
});

export const sharePointOnPremCredentials = credentialResource({
  key: "dms-sharepoint-on-prem",
  resource: "share_point_on_prem_credential",
  apiPath: "/api/v1/share-point-on-prem-credential",
  ...failed("sharePointOnPrem"),
  // Windows sign-in: client_id is the account, client_secret its password, tenant_id its domain (decision 108).
  fields: [...SHAREPOINT, f("fed_auth_endpoint", "url", "connection"), f("use_agent", "flag", "connection")],
});

export const boxCredentials = credentialResource({
  key: "dms-box",
  resource: "box_client_credential_grant_credential",
  apiPath: "/api/v1/box-client-credential-grant-credential",
  ...failed("box"),
  fields: [
    f("client_key", "text", "connection", req),
    f("client_secret", "secret", "connection", req),
    f("box_subject_type", "choice", "connection", { options: BOX_SUBJECT_TYPES, column: true }),
    f("box_subject_id", "text", "connection", { required: true, column: true }),
  ],
});

// Dropbox is no credential type of spec §3's role message: it answers to the generic credential's permission.
export const dropboxCredentials = credentialResource({
  key: "dms-dropbox",
  resource: "generic_credential",
  borrowsPermission: true,
  apiPath: "/api/v1/dropbox-credential",
  ...failed("dropbox"),
  fields: [
    f("app_key", "text", "connection", req),
    f("app_secret", "secret", "connection", req),
    f("refresh_token", "secret", "connection", req),
    f("root_path", "text", "filing", { column: true }),
  ],
});

export const CLIO_REGIONS = ["us", "ca", "eu", "au"] as const;

// Practice-management systems: documents go to the matter the filing belongs to.
export const clioCredentials = credentialResource({
  key: "dms-clio",
  resource: "clio_credential",
  apiPath: "/api/v1/clio-credential",
  ...failed("clio"),
  authorization: { system: "clio" },
  fields: [
    f("region", "choice", "connection", { options: CLIO_REGIONS, column: true }),
    f("client_id", "text", "connection", req),
    f("client_secret", "secret", "connection", req),
    f("create_calendar_entries", "flag", "filing"),
    f("calendar_id", "integer", "filing"),
  ],
});

/**
 * A Salesforce field API name ("litify_pm__Display_Name__c"), or a relationship path to one
 * ("litify_pm__Client__r.Name"): letters, digits and underscores, each part starting with a
 * letter. The matter column goes into a SOQL query as it is typed, so nothing else is taken.
 */
export const SALESFORCE_FIELD_PATH = /^[A-Za-z][A-Za-z0-9_]{0,79}(\.[A-Za-z][A-Za-z0-9_]{0,79}){0,4}$/;

export const litifyCredentials = credentialResource({
  key: "dms-litify",
  resource: "litify_credential",
  apiPath: "/api/v1/litify-credential",
  ...failed("litify"),
  fields: [
    f("instance_url", "url", "connection", { required: true, column: true }),
    f("client_id", "text", "connection", req),
    f("client_secret", "secret", "connection", req),
    f("username", "text", "connection"),
    f("password", "secret", "connection"),
    f("matter_column_name", "text", "filing", { required: true, pattern: { regex: SALESFORCE_FIELD_PATH, message: "errors:salesforceFieldName" } }),
  ],
});

export const fileVineCredentials = credentialResource({
  key: "dms-filevine",
  resource: "file_vine_credential",
  apiPath: "/api/v1/file-vine-credential",
  ...failed("fileVine"),
  signInWith: [
    ["personalAccessToken", "clientId", "clientSecret"],
    ["api_key", "api_secret"],
  ],
  fields: [
    // The web address also says the firm's region (app/common/filevine.ts).
    f("subdomain", "text", "connection", {
      column: true,
      hintKey: "resources:dms-filevine.hints.subdomain",
      pattern: { regex: FILEVINE_SUBDOMAIN, message: "errors:fileVineSubdomain" },
    }),
    f("personalAccessToken", "secret", "connection"),
    f("clientId", "text", "connection"),
    f("clientSecret", "secret", "connection"),
    f("api_key", "secret", "connection"),
    f("api_secret", "secret", "connection"),
    f("hashtags", "text", "filing"),
    f("billingItem", "text", "filing", { pattern: { regex: FILEVINE_BILLING_ITEM, message: "errors:fileVineBillingItem" } }),
  ],
});

export const proLawCredentials = credentialResource({
  key: "dms-prolaw",
  resource: "pro_law_credential",
  apiPath: "/api/v1/pro-law-credential",
  ...failed("proLaw"),
  fields: [
    // ProLaw publishes no API: the address is the firm's own endpoint implementing ECFX's ProLaw contract.
    f("base_url", "url", "connection", { required: true, column: true, hintKey: "resources:dms-prolaw.hints.base_url" }),
    f("api_key", "secret", "connection", req),
    f("use_agent", "flag", "connection"),
    f("add_parent_id", "flag", "filing"),
  ],
});

/** The table (the directory's "kind") of each credential type's entity. */
export const DMS_CREDENTIAL_TABLES = {
  dms: "generic_credential",
  "dms-imanage-cloud": "imanage_cloud_credential",
  "dms-imanage-on-prem": "imanage_on_prem_credential",
  "dms-netdocuments-cloud": "net_documents_cloud_credential",
  "dms-netdocuments-client": "net_documents_client_credential",
  "dms-sharepoint-cloud": "share_point_cloud_credential",
  "dms-sharepoint-on-prem": "share_point_on_prem_credential",
  "dms-box": "box_client_credential_grant_credential",
  "dms-dropbox": "dropbox_credential",
  "dms-clio": "clio_credential",
  "dms-litify": "litify_credential",
  "dms-filevine": "file_vine_credential",
  "dms-prolaw": "pro_law_credential",
} as const satisfies Record<(typeof DMS_CREDENTIAL_KEYS)[number], string>;

export type DmsCredentialKind = (typeof DMS_CREDENTIAL_TABLES)[keyof typeof DMS_CREDENTIAL_TABLES];
export const DMS_CREDENTIAL_KINDS = Object.values(DMS_CREDENTIAL_TABLES) as DmsCredentialKind[];

/**
 * Every credential of the firm whatever its type, read only: what a storage policy picks its
 * credential from. Seeing credential names is part of editing storage policies.
 */
export const dmsCredentialDirectory = defineResource({
  key: "dms-credentials",
  resource: "storage_policy",
  borrowsPermission: true,
  accessKey: "storagePolicyAccess",
  apiPath: "/api/v1/dms-credential",
  titleField: "name",
  schema: z.object({}),
  fields: [
    { name: "name", kind: "text" },
    { name: "kind", kind: "select", options: DMS_CREDENTIAL_KINDS },
    { name: "created_at", kind: "date", computed: true },
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "kind", sortable: true, filter: "select" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: {},
  wizard: [],
});
