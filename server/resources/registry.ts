import { REGISTRY, type RegistryKey } from "../../app/common/resources";
import { normaliseCaseNumber } from "./case-number";
import { buildResources } from "./columns";
import { NOTIFY_STORE_EXTENSIONS } from "./notify-store-resources";
import { CREDENTIAL_EXTENSIONS } from "./credential-resources";
import { PROVIDER_CREDENTIAL_EXTENSIONS } from "./provider-credential-resources";
import type { ServerExtension, ServerResource, UniqueRule } from "./types";
import { userHooks } from "./user-hooks";

// The server-only facts of the firm's data entities, keyed by registry key. Fields are declared
// once, in app/common/resources/; this adds tables, counts, rules and hooks.

const count = (table: string, column: string) => `(select count(*) from ${table} c where c.${column} = t.id)`;
const keyUnique: UniqueRule[] = [
  { fields: ["unique_key"], messageKey: "errors:conflict" },
  { fields: ["reference_id"], messageKey: "errors:conflict" },
];
const keyed = (...fields: string[]) => ({ indexed: [...fields] });
/** The firm's organisation: found by name and keys, not mapped until it has a reference id. */
const referenceKeyed = (table: string, dependents: ServerExtension["dependents"], ...searched: string[]): ServerExtension => ({
  table,
  search: keyed("name", "unique_key", "reference_id", ...searched),
  uniques: keyUnique,
  dependents,
  notMappedSql: "t.reference_id is null",
});

/** What an invoice's credit notes took off it (a negative sum). */
const CREDITS = "coalesce((select sum(c.total_cents) from invoice c where c.corrects_invoice_id = t.id), 0)";

const DATA_EXTENSIONS: Partial<Record<RegistryKey, ServerExtension>> = {
  clients: {
    table: "client",
    expressions: { matter_count: count("matter", "client_id") },
    search: keyed("name", "unique_key", "reference_id"),
    uniques: keyUnique,
    dependents: [
      { table: "matter", column: "client_id", messageKey: "errors:clientHasMatters" },
      { table: "ethical_wall", column: "client_id", messageKey: "errors:inUseByWalls" },
    ],
    notMappedSql: "not exists (select 1 from matter m where m.client_id = t.id)",
  },
  matters: {
    table: "matter",
    expressions: { case_count: count("court_case", "matter_id") },
    search: keyed("name", "unique_key", "reference_id", "description"),
    uniques: keyUnique,
    dependents: [
      { table: "court_case", column: "matter_id", messageKey: "errors:matterHasCases" },
      { table: "ethical_wall", column: "matter_id", messageKey: "errors:inUseByWalls" },
      { table: "auto_case_creation", column: "matter_id", messageKey: "errors:inUseByAutoCaseCreation" },
    ],
    notMappedSql: "not exists (select 1 from court_case c where c.matter_id = t.id)",
  },
  cases: {
    table: "court_case",
    expressions: { envelope_count: count("envelope", "case_id") },
    links: { assigned_timekeepers: { table: "case_timekeeper", ownerColumn: "case_id", valueColumn: "timekeeper_id" } },
    search: keyed("name", "case_number", "caption", "reference_id", "unique_key"),
    uniques: keyUnique,
    derive: (v) => (typeof v.case_number === "string" ? { case_number_normalized: normaliseCaseNumber(v.case_number) } : {}),
    notMappedSql: "(t.matter_id is null or not exists (select 1 from case_timekeeper ct where ct.case_id = t.id))",
  },
  timekeepers: {
    table: "timekeeper",
    search: keyed("full_name", "email", "unique_key", "reference_id", "title"),
    uniques: keyUnique,
    dependents: [
      { table: "case_timekeeper", column: "timekeeper_id", messageKey: "errors:timekeeperOnCases" },
      { table: "ethical_wall_timekeeper", column: "timekeeper_id", messageKey: "errors:inUseByWalls" },
      { table: "auto_case_creation_timekeeper", column: "timekeeper_id", messageKey: "errors:inUseByAutoCaseCreation" },
    ],
    notMappedSql: "t.timekeeper_group_id is null",
  },
  jurisdictions: {
    table: "jurisdiction",
    links: {
      // Spec §8: a jurisdiction whose courts cannot be mapped says so in its own words.
      ecfx_jurisdictions: {
        table: "jurisdiction_ecfx",
        ownerColumn: "jurisdiction_id",
        valueColumn: "ecfx_jurisdiction_id",
        unknownMessageKey: "errors:jurisdictionMapping",
      },
    },
    search: keyed("name", "reference_id", "unique_key"),
    uniques: [{ fields: ["name"], messageKey: "errors:jurisdictionNameExists" }, ...keyUnique],
    dependents: [
      { table: "court_case", column: "jurisdiction_id", messageKey: "errors:jurisdictionHasCases" },
      { table: "judge", column: "jurisdiction_id", messageKey: "errors:jurisdictionHasJudges" },
      { table: "jurisdiction_group_jurisdiction", column: "jurisdiction_id", messageKey: "errors:jurisdictionInGroups" },
    ],
    notMappedSql: "not exists (select 1 from jurisdiction_ecfx j where j.jurisdiction_id = t.id)",
  },
  "ecfx-jurisdictions": {
    table: "ecfx_jurisdiction",
    firmOwned: false,
    writable: false,
    stamped: false,
    search: { like: ["name", "id"] },
  },
  judges: {
    table: "judge",
    search: keyed("name", "reference_id", "unique_key"),
    uniques: keyUnique,
    dependents: [{ table: "court_case", column: "judge_id", messageKey: "errors:judgeOnCases" }],
    notMappedSql: "t.reference_id is null",
  },
  departments: referenceKeyed("department", [{ table: "timekeeper", column: "department_id", messageKey: "errors:inUseByTimekeepers" }], "long_description"),
  locations: referenceKeyed("location", [
    { table: "timekeeper", column: "location_id", messageKey: "errors:inUseByTimekeepers" },
    { table: "matter", column: "location_id", messageKey: "errors:inUseByMatters" },
  ]),
  "practice-groups": referenceKeyed("practice_group", [
    { table: "timekeeper", column: "practice_group_id", messageKey: "errors:inUseByTimekeepers" },
    { table: "matter", column: "practice_group_id", messageKey: "errors:inUseByMatters" },
  ]),
  "ignored-cases": {
    table: "ignored_case",
    search: keyed("name"),
    uniques: [{ fields: ["ecfx_jurisdiction_id", "name_normalized"], messageKey: "errors:caseAlreadyInList" }],
    derive: (v) => (typeof v.name === "string" ? { name_normalized: normaliseCaseNumber(v.name) } : {}),
  },
  users: {
    table: "app_user",
    search: { like: ["email", "full_name", "display_name", "id"] },
    uniques: [{ fields: ["email"], messageKey: "errors:userExists", acrossFirms: true }],
    notMappedSql: "t.timekeeper_id is null",
    hooks: userHooks,
  },
  // Roles are written through their own binary API (server/resources/security-roles.ts), where
  // nobody grants more than they hold; the generic module lists and reads them.
  "security-roles": {
    table: "security_role",
    writable: false,
    search: { like: ["name"] },
    uniques: [{ fields: ["name"], messageKey: "errors:conflict" }],
    expressions: { user_count: count("app_user", "security_role_id") },
  },
  abbreviations: {
    table: "abbreviation",
    search: keyed("name", "value"),
    uniques: [{ fields: ["name"], messageKey: "errors:conflict" }],
  },
  // The inbox and its envelopes are written by the pipeline only; the generic module serves their
  // table, search and export, and dedicated routes carry the inbox operations.
  "inbox-items": {
    table: "inbox_item",
    writable: false,
    search: { like: ["subject", "snippet", "sender"] },
    defaultFilter: { field: "hidden", sql: "t.hidden = 0" },
    notMappedSql: "t.case_id is null and t.disposition <> 'Split'",
  },
  "ecfx-notification": {
    table: "envelope",
    writable: false,
    search: { like: ["name", "docket_text", "filed_by"] },
  },
  "event-logs": {
    table: "event_log",
    writable: false,
    stamped: "created",
    search: { like: ["event", "detail"] },
  },
  // Invoices are issued by the worker and never changed (decision 111): the generic module lists
  // and reads them; paying and the PDF have their own routes.
  billing: {
    table: "invoice",
    writable: false,
    stamped: "created",
    search: { like: ["month", "note"] },
    expressions: {
      status:
        "(case when t.kind = 'CREDIT_NOTE' then 'ISSUED' when exists (select 1 from invoice_payment p where p.invoice_id = t.id) then 'PAID' when t.total_cents + " +
        CREDITS +
        " <= 0 then 'CREDITED' else 'OPEN' end)",
      due_cents:
        "(case when t.kind = 'CREDIT_NOTE' or exists (select 1 from invoice_payment p where p.invoice_id = t.id) then 0 when t.total_cents + " +
        CREDITS +
        " > 0 then t.total_cents + " +
        CREDITS +
        " else 0 end)",
    },
  },
};

/** Every entity as the generic API serves it, in the registry's order. */
export const SERVER_RESOURCES: ServerResource[] = buildResources(
  Object.values(REGISTRY).map((def) => {
    const ext =
      DATA_EXTENSIONS[def.key as RegistryKey] ??
      NOTIFY_STORE_EXTENSIONS[def.key as RegistryKey] ??
      CREDENTIAL_EXTENSIONS[def.key as RegistryKey] ??
      PROVIDER_CREDENTIAL_EXTENSIONS[def.key as RegistryKey];
    if (!ext) throw new Error(`${def.key} has no server extension`);
    return [def, ext];
  }),
);

export function serverResourceByPath(apiSegment: string): ServerResource | undefined {
  return SERVER_RESOURCES.find((r) => r.def.apiPath === `/api/v1/${apiSegment}`);
}

/** The served form of one entity, by registry key. */
export function serverResource(key: RegistryKey): ServerResource {
  return SERVER_RESOURCES.find((r) => r.def.key === key)!;
}
