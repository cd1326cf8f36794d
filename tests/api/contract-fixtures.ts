// Rows for the registry contract test: the smallest valid body of every writable entry, in the
// order references need them, and values that pass validation for every kind of field.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { ServerResource } from "../../server/resources/types";
import { type RunningApi, api, creator } from "./harness";

export type Ids = Record<string, string>;

/** Writable entries, parents first; each body may use the ids created before it. */
export const CREATE_ORDER = [
  "locations",
  "departments",
  "practice-groups",
  "timekeepers",
  "clients",
  "matters",
  "jurisdictions",
  "judges",
  "cases",
  "ignored-cases",
  "abbreviations",
  "users",
  "templates",
  "preference-groups",
  "notification-rule",
  "auto-case-creation",
  "jurisdiction-groups",
  "document-processing",
  "jurisdiction-preferences",
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
  "provider-credentials",
  "storage-policies",
  "ethical-walls",
  "webhooks",
] as const;

let serial = 0;

/** A body with every required field; `tag` makes names and keys unique and searchable. */
export function minimalBody(key: string, tag: string, ids: Ids, roleId: string): Record<string, unknown> {
  const n = String(++serial).padStart(5, "0");
  switch (key) {
    case "locations":
      return { name: `Location ${tag}`, unique_key: `LOC-${tag}-${n}` };
    case "departments":
      return { name: `Department ${tag}`, unique_key: `DEP-${tag}-${n}` };
    case "practice-groups":
      return { name: `Group ${tag}`, unique_key: `PG-${tag}-${n}` };
    case "timekeepers":
      return { full_name: `Keeper ${tag}`, email: `keeper-${tag}-${n}@example.test` };
    case "clients":
      return { name: `Client ${tag}`, unique_key: `CL-${tag}-${n}` };
    case "matters":
      return { name: `Matter ${tag}`, unique_key: `MA-${tag}-${n}`, client_id: ids.clients };
    case "jurisdictions":
      return { name: `Jurisdiction ${tag} ${n}`, ecfx_jurisdictions: ["nysd"] };
    case "judges":
      return { name: `Judge ${tag}`, jurisdiction_id: ids.jurisdictions };
    case "cases":
      return {
        name: `${tag} Holdings v. Other`,
        case_number: `1:24-cv-${n}`,
        matter_id: ids.matters,
        jurisdiction_id: ids.jurisdictions,
        assigned_timekeepers: [ids.timekeepers],
      };
    case "ignored-cases":
      return { name: `1:19-cv-${n}`, ecfx_jurisdiction_id: "nysd" };
    case "abbreviations":
      return { name: `AB${tag}${n}`, value: `Abbreviation ${tag}` };
    case "users":
      return { email: `user-${tag}-${n}@example.test`, full_name: `User ${tag}`, display_name: tag, security_role_id: roleId };
    case "templates":
      return { name: `Template ${tag} ${n}`, template: "<p>{{case.name}}</p>" };
    case "preference-groups":
      return { name: `Group ${tag} ${n}`, time_zone: "America/Chicago", timekeeper_ids: [ids.timekeepers] };
    case "notification-rule":
      return { name: `Rule ${tag} ${n}`, include_emails: [`rule-${n}@example.test`] };
    case "auto-case-creation":
      return { name: `Auto ${tag} ${n}`, party_email_domains: ["example.test"], matter_id: ids.matters };
    case "jurisdiction-groups":
      return { name: `Courts ${tag} ${n}`, jurisdiction_references: [ids.jurisdictions] };
    case "document-processing":
      return { name: `Processing ${tag} ${n}`, wait_for_stamp: true, max_minutes_wait_for_stamp: 60 };
    case "jurisdiction-preferences":
      return {
        name: `Preference ${tag} ${n}`,
        enabled: true,
        // Rules other tests delete are left out: a preference naming one keeps it.
        jurisdiction_groups: [ids["jurisdiction-groups"]],
        document_processing_id: ids["document-processing"],
      };
    case "dms":
      return { name: `Store ${tag} ${n}`, field: `firm-${tag}` };
    case "dms-imanage-cloud":
    case "dms-imanage-on-prem":
      return {
        name: `iManage ${tag} ${n}`,
        ...(key === "dms-imanage-cloud" ? { cloud_environment: "US" } : { base_url: "https://dms.example.test" }),
        username: "filer",
        password: "pw",
        client_id: "client",
        client_secret: "secret",
        customer_id: 1,
        database: "ACTIVE",
        folder_id: "ACTIVE!1",
        document_class: "DOC",
        document_sub_class: "NOTICE",
      };
    case "dms-netdocuments-cloud":
      return { name: `ND ${tag} ${n}`, cloud_environment: "US", basic_auth: "YTpi", refresh_token: "refresh", default_cabinet: "NG-1" };
    case "dms-netdocuments-client":
      return { name: `ND client ${tag} ${n}`, client_id: "client", client_secret: "secret", repository: "CA-1", default_cabinet: "NG-1" };
    case "dms-sharepoint-cloud":
    case "dms-sharepoint-on-prem":
      return {
        name: `SharePoint ${tag} ${n}`,
        tenant_id: "tenant",
        client_id: "client",
        client_secret: "secret",
        base_url: "https://contoso.sharepoint.example/sites/legal",
        ...(key === "dms-sharepoint-on-prem" ? { fed_auth_endpoint: "https://adfs.example.test/adfs/oauth2/token" } : {}),
      };
    case "dms-box":
      return { name: `Box ${tag} ${n}`, client_key: "key", client_secret: "secret", box_subject_type: "enterprise", box_subject_id: "1" };
    case "dms-dropbox":
      return { name: `Dropbox ${tag} ${n}`, app_key: "key", app_secret: "secret", refresh_token: "refresh" };
    case "dms-clio":
      return { name: `Clio ${tag} ${n}`, region: "us", client_id: "client", client_secret: "secret" };
    case "dms-litify":
      return {
        name: `Litify ${tag} ${n}`,
        instance_url: "https://firm.my.salesforce.example",
        client_id: "client",
        client_secret: "secret",
        matter_column_name: "Name",
      };
    case "dms-filevine":
      return { name: `FileVine ${tag} ${n}`, personalAccessToken: "pat", clientId: "client", clientSecret: "secret" };
    case "dms-prolaw":
      return { name: `ProLaw ${tag} ${n}`, base_url: "https://prolaw.example.test/api", api_key: "key" };
    case "provider-credentials":
      // One per provider type per firm: the one row each firm has.
      return { provider_type: "PACER", name: `PACER ${tag} ${n}`, username: `pacer${n}`, password: "secret" };
    case "storage-policies":
      return { name: `Policy ${tag} ${n}`, dms_credential_id: ids.dms };
    case "ethical-walls":
      return { name: `Wall ${tag} ${n}`, matter_id: ids.matters, timekeepers: [ids.timekeepers] };
    case "webhooks":
      return { name: `Hook ${tag} ${n}`, url: `https://hooks.example.test/${tag}/${n}`, events: ["notice.received"] };
    default:
      throw new Error(`no body for ${key}: add it to tests/api/contract-fixtures.ts`);
  }
}

/**
 * A row of an entry the API never writes (the pipeline does), made the way the product makes
 * it: an uploaded message for the inbox, an envelope row for a notice filed on a case, an event
 * the pipeline logged about that message.
 */
export async function readOnlyRow(server: RunningApi, key: string, firmId: number, token: string, tag: string, ids: Ids): Promise<string> {
  if (key === "inbox-items") {
    const raw = `From: clerk@court.test\r\nTo: notices@example.test\r\nSubject: Notice ${tag}\r\nMessage-ID: <${tag}-${randomUUID()}@court.test>\r\n\r\nNotice for ${tag}.\r\n`;
    const res = await api(server.url, token).request("POST", "/api/v1/inbox/upload", { body: raw, headers: { "content-type": "message/rfc822" } });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.text}`);
    return String(res.body.id);
  }
  if (key === "ecfx-notification") {
    const id = randomUUID();
    const now = Date.now();
    await sql`insert into envelope (id, firm_id, inbox_item_id, case_id, ecfx_jurisdiction_id, name, created_at, updated_at)
      values (${id}, ${firmId}, ${ids["inbox-items"]}, ${ids.cases}, ${"nysd"}, ${`Envelope ${tag}`}, ${now}, ${now})`.execute(server.ctx.database.db);
    return id;
  }
  if (key === "event-logs") {
    const id = randomUUID();
    await sql`insert into event_log (id, firm_id, inbox_item_id, level, event, detail, created_at)
      values (${id}, ${firmId}, ${ids["inbox-items"]}, ${"INFO"}, ${"received"}, ${`Event ${tag}`}, ${Date.now()})`.execute(server.ctx.database.db);
    return id;
  }
  if (key === "billing") {
    // An invoice as the worker issues it: one line, the next number.
    const id = randomUUID();
    const db = server.ctx.database.db;
    await sql`insert into invoice (id, firm_id, number, kind, issue_key, month, period_start, period_end, currency, total_cents, note, created_at)
      values (${id}, ${firmId}, (select coalesce(max(i.number), 0) + 1 from invoice i), ${"INVOICE"}, ${`test:${id}`}, ${"2026-01"}, ${Date.UTC(2026, 0, 1)}, ${Date.UTC(2026, 1, 1)}, ${"USD"}, ${2500}, ${`Invoice ${tag}`}, ${Date.now()})`.execute(
      db,
    );
    await sql`insert into invoice_line (id, invoice_id, firm_id, position, service_kind, case_id, description, quantity, amount_cents)
      values (${randomUUID()}, ${id}, ${firmId}, ${0}, ${"FSX_WEB_SERVICES"}, ${null}, ${`Service ${tag}`}, ${"1"}, ${2500})`.execute(db);
    return id;
  }
  if (key === "security-roles") {
    const id = randomUUID();
    const now = Date.now();
    await sql`insert into security_role (id, firm_id, name, is_system_defined, permissions, created_at, updated_at)
      values (${id}, ${firmId}, ${`Role ${tag}`}, ${0}, ${"{}"}, ${now}, ${now})`.execute(server.ctx.database.db);
    return id;
  }
  if (key === "dms-credentials") {
    // The directory lists every credential: one made through its own type's API shows in it.
    return creator(api(server.url, token))("/api/v1/generic-credential", { name: `Directory ${tag}`, field: `directory-${tag}` });
  }
  throw new Error(`no way to make a ${key} row: add it to tests/api/contract-fixtures.ts`);
}

/** The shared reference data every firm reads: the court list. */
export const SHARED_ROW: Record<string, string> = { "ecfx-jurisdictions": "nysd" };

/**
 * A value that passes the entry's schema for a field and, with `real`, also its reference
 * checks (rows of the caller's firm). Without `real`, references point nowhere, so a write that
 * slipped through would show.
 */
export function fieldValue(res: ServerResource, field: string, current: Record<string, unknown>, ids: Ids, roleId: string, real: boolean): unknown {
  const def = res.def.fields.find((f) => f.name === field);
  const other = (options: readonly string[]) => options.find((o) => o !== current[field]) ?? options[0];
  if (field === "daily_cadence_delivery_time") return current[field] === "06:45" ? "07:15" : "06:45";
  if (field === "party_email_domains") return [`domain${++serial}.example.test`];
  // Addresses (a webhook's URL, a DMS's base URL or sign-in endpoint) must stay addresses.
  if (/(^|_)(url|endpoint)$/.test(field)) return `https://hooks.example.test/changed/${++serial}`;
  // A Salesforce field's API name must stay one.
  if (field === "matter_column_name") return `Changed_${++serial}__c`;
  // A FileVine web address (it says the firm's region) must stay one.
  if (field === "subdomain") return `changed-${++serial}`;
  if (def?.reference && def.reference === res.def.key) return real ? ids[`${def.reference}:other`] : `no-such-${def.reference}`;
  switch (def?.kind) {
    case "email":
      return `changed-${field}-${++serial}@example.test`;
    case "emails":
      return [`copy-${++serial}@example.test`];
    case "choices":
      return [other(def.options ?? [])];
    case "select":
      return other(def.options ?? []);
    case "boolean":
      return !current[field];
    case "date":
      return "2024-02-29";
    case "number":
      return Number(current[field] ?? 0) + 1;
    case "reference":
      if (def.reference === "ecfx-jurisdictions") return other(["nyed", "cand"]);
      if (def.reference === "security-roles") return real ? roleId : "no-such-role";
      return real && def.reference && ids[def.reference] ? ids[def.reference] : `no-such-${def.reference}`;
    case "references":
      if (def.reference === "ecfx-jurisdictions") return [other(["nyed", "cand"])];
      return [real && def.reference && ids[def.reference] ? ids[def.reference] : `no-such-${def.reference}`];
    default:
      // Docket numbers stay docket-shaped; any other text will do.
      return field === "case_number" || (field === "name" && res.def.key === "ignored-cases") ? `1:20-cv-${++serial}` : `Changed ${field} ${++serial}`;
  }
}

/** A filter value of the right shape for a column of this type. */
export function filterValue(type: string): string {
  if (type === "boolean") return "true";
  if (type === "date" || type === "millis") return "2000-01-01..2100-01-01";
  return "x";
}
