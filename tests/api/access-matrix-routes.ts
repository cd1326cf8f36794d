// The access matrix's table of expectations: for every route of the API, what a caller's role
// must hold to use it, how the route is aimed at a firm's real rows, and how another firm's rows
// must be answered. The expectations come from the security model (docs/security-model.md), never
// from what the server answers: a route whose code checks less than its entry here fails the test.
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import type { RequestOptions } from "./harness";
import { solidPng } from "./png";

/** The rows of one firm a request can name: the registry entries' own, and the walled canary notice's. */
export interface Rows {
  firmId: number;
  tag: string;
  /** Ids by registry key, plus document, dmsRecord, mail, role, job, webhookDelivery. */
  ids: Record<string, string>;
  /** The walled notice's rows: inbox-items, ecfx-notification, document, dmsRecord, mail, event-logs, webhookDelivery, cases. */
  canary: Record<string, string>;
}

/**
 * What a route needs of the caller. `entry`: a registry entry's level and its console page (the
 * generic routes' rule, `requireResource`); `resource`: a bare resource level; `field`: a field
 * level besides; `ownRoleOr`: the caller's own role always, another with this resource level.
 */
export type Need =
  | { entry: string; need: "read" | "write" }
  | { resource: string; need: "read" | "write" }
  | { field: [resource: string, field: string]; need: "read" }
  | { ownRoleOr: string }
  /** The firm's Administrator role itself (SCIM provisioning: its tokens act on administrators too). */
  | { administrator: true };

export interface Request {
  path: string;
  options?: RequestOptions;
}

/**
 * How another firm's rows are answered to a caller whose role allows the route: `404` (the id in
 * the path is unknown in the caller's firm), `ignored` (ids in the body change nothing of the other
 * firm and come back at most as not found), `refused` (a 4xx: the body may not name them), `none`
 * (the route acts on the caller's own firm only:
 * covered by the own-firm pass).
 */
export type Cross = "404" | "refused" | "ignored" | "none";

/**
 * Who must not see the canary row behind the route: `notice` (notice data: walled callers and
 * roles that may not open the inbox), `walled` (case data: walled callers).
 */
export type Blind = "notice" | "walled";

export interface RouteRule {
  needs: Need[];
  /** No session at all: answers are not firm data. */
  public?: true;
  request(rows: Rows): Request;
  /**
   * The same route aimed at the walled canary's row. A change is sent only by callers kept from
   * the row, and must be refused; `list`: the answer is a list that leaves the row out, or an
   * outcome per id that leaves it undone, instead of a refusal.
   */
  canary?: { blind: Blind; request(rows: Rows): Request; list?: true };
  cross: Cross;
  /** A change a caller who may is allowed to send in the matrix: it changes no firm data. */
  harmless?: true;
  /** What an allowed caller's own-firm request answers, when not 2xx. */
  ok?: number[];
  /** Only the demo firm has the route (the demo reset): any other firm gets 404. */
  demoOnly?: true;
  /** ECFX Track or another entitled feature: on for both firms in the matrix. */
  feature?: "ECFX_TRACK";
  /** The answer must not depend on the Host header the caller sends (the feature is configuration). */
  hostIndependent?: true;
}

const json = (body: unknown): RequestOptions => ({ json: body });
const at = (path: string) => (): Request => ({ path });
const UserSecurityRole = protobuf.loadSync(fileURLToPath(new URL("../../proto/security_role.proto", import.meta.url))).lookupType("ecfx.UserSecurityRole");
/** A role message as the role editor sends it: a name and the users given the role. */
const roleBody = (name: string, userIds: string[]): RequestOptions => ({
  body: UserSecurityRole.encode(UserSecurityRole.fromObject({ name, userIds })).finish(),
  headers: { "content-type": "application/x-protobuf", accept: "application/x-protobuf" },
});

/** A DMS credential type's registry key by its API path, for its own routes. */
const CREDENTIAL_TYPES: Record<string, string> = {
  "share-point-cloud-credential": "dms-sharepoint-cloud",
  "share-point-on-prem-credential": "dms-sharepoint-on-prem",
  "pro-law-credential": "dms-prolaw",
  "file-vine-credential": "dms-filevine",
  "dropbox-credential": "dms-dropbox",
  "imanage-cloud-credential": "dms-imanage-cloud",
  "imanage-on-prem-credential": "dms-imanage-on-prem",
  "clio-credential": "dms-clio",
  "net-documents-cloud-credential": "dms-netdocuments-cloud",
  "net-documents-client-credential": "dms-netdocuments-client",
  "box-client-credential-grant-credential": "dms-box",
  "litify-credential": "dms-litify",
  "provider-credential": "provider-credentials",
};

function credentialRoutes(): Record<string, RouteRule> {
  const out: Record<string, RouteRule> = {};
  for (const [segment, key] of Object.entries(CREDENTIAL_TYPES)) {
    out[`POST /api/v1/${segment}/:id/test-connection`] = {
      needs: [{ entry: key, need: "write" }],
      request: (r) => ({ path: `/api/v1/${segment}/${r.ids[key]}/test-connection` }),
      cross: "404",
    };
  }
  // The credentials a firm authorizes at the vendor (the authorization-code grant).
  for (const segment of ["clio-credential", "imanage-cloud-credential", "imanage-on-prem-credential", "net-documents-cloud-credential"]) {
    const key = CREDENTIAL_TYPES[segment]!;
    out[`GET /api/v1/${segment}/:id/authorization`] = {
      needs: [{ entry: key, need: "read" }],
      request: (r) => ({ path: `/api/v1/${segment}/${r.ids[key]}/authorization` }),
      cross: "404",
    };
    out[`POST /api/v1/${segment}/:id/authorization`] = {
      needs: [{ entry: key, need: "write" }],
      request: (r) => ({ path: `/api/v1/${segment}/${r.ids[key]}/authorization` }),
      cross: "404",
    };
  }
  return out;
}

const firmRead: Need[] = [{ resource: "firm", need: "read" }];
const firmWrite: Need[] = [{ resource: "firm", need: "write" }];
const inboxRead: Need[] = [{ entry: "inbox-items", need: "read" }];
const inboxWrite: Need[] = [{ resource: "inbox_item", need: "write" }];
const rawRead: Need[] = [...inboxRead, { field: ["inbox_item", "raw_content"], need: "read" }];
const documentRead: Need[] = [{ resource: "document", need: "read" }];
const webhookRead: Need[] = [{ entry: "webhooks", need: "read" }];
const webhookWrite: Need[] = [{ entry: "webhooks", need: "write" }];
const caseRead: Need[] = [{ entry: "cases", need: "read" }];
const caseWrite: Need[] = [{ entry: "cases", need: "write" }];

/** Every bespoke route; the generic `:resource` routes follow the registry (GENERIC below). */
export const ROUTES: Record<string, RouteRule> = {
  "GET /api/v1/health": { needs: [], public: true, request: at("/api/v1/health"), cross: "none" },
  "GET /api/v1/firm/public": { needs: [], public: true, request: (r) => ({ path: `/api/v1/firm/public?firm=${r.firmId}` }), cross: "none" },
  "GET /api/v1/firm/logo.png": { needs: [], public: true, request: (r) => ({ path: `/api/v1/firm/logo.png?firm=${r.firmId}` }), cross: "none" },
  "GET /api/v1/ping": { needs: [], request: at("/api/v1/ping"), cross: "none" },
  "GET /api/v1/firm": { needs: [], request: at("/api/v1/firm"), cross: "none" },
  "GET /api/v1/firm/features": { needs: [], request: at("/api/v1/firm/features"), cross: "none" },
  "GET /api/v1/dictionary/words": { needs: [], request: at("/api/v1/dictionary/words"), cross: "none" },
  "GET /api/v1/preferences/:key": { needs: [], request: at("/api/v1/preferences/matrix"), cross: "none" },
  "PUT /api/v1/preferences/:key": {
    needs: [],
    request: () => ({ path: "/api/v1/preferences/matrix", options: json({ value: "matrix" }) }),
    cross: "none",
    harmless: true,
  },
  "DELETE /api/v1/preferences/:key": { needs: [], request: at("/api/v1/preferences/matrix-gone"), cross: "none", harmless: true },
  "POST /api/v1/analytics/page-view": {
    needs: [],
    request: () => ({ path: "/api/v1/analytics/page-view", options: json({ title: "Matrix", path: "/dashboard", host: "localhost" }) }),
    cross: "none",
    harmless: true,
  },
  // A state that was never signed: refused for everyone, before any credential is looked up.
  "POST /api/v1/dms-authorization/callback": {
    needs: [],
    request: () => ({ path: "/api/v1/dms-authorization/callback", options: json({ system: "clio", code: "code", state: "not-a-signed-state" }) }),
    cross: "none",
    harmless: true,
    ok: [400],
  },

  "GET /api/v1/security-role-choice/search": {
    needs: [{ resource: "user", need: "read" }],
    request: (r) => ({ path: `/api/v1/security-role-choice/search?filter.id=${r.ids.role}` }),
    cross: "none",
  },
  "GET /api/v1/user-security-role/:id": {
    needs: [{ ownRoleOr: "firm" }],
    request: (r) => ({ path: `/api/v1/user-security-role/${r.ids.role}` }),
    cross: "404",
  },
  "POST /api/v1/user-security-role": {
    needs: firmWrite,
    request: (r) => ({ path: "/api/v1/user-security-role", options: roleBody(`Taken ${r.tag}`, [r.ids.users!]) }),
    cross: "none",
  },
  "PUT /api/v1/user-security-role/:id": {
    needs: firmWrite,
    request: (r) => ({ path: `/api/v1/user-security-role/${r.ids.customRole}`, options: roleBody(`Taken ${r.tag}`, [r.ids.users!]) }),
    cross: "404",
  },
  "DELETE /api/v1/user-security-role/:id": { needs: firmWrite, request: (r) => ({ path: `/api/v1/user-security-role/${r.ids.customRole}` }), cross: "404" },

  "PUT /api/v1/firm/:id": { needs: firmWrite, request: (r) => ({ path: `/api/v1/firm/${r.firmId}`, options: json({ name: `Taken ${r.tag}` }) }), cross: "404" },
  "POST /api/v1/firm/:id": {
    needs: firmWrite,
    request: (r) => ({ path: `/api/v1/firm/${r.firmId}`, options: json({ name: `Taken ${r.tag}` }) }),
    cross: "404",
  },
  "PUT /api/v1/firm/logo.png": {
    needs: firmWrite,
    request: () => ({ path: "/api/v1/firm/logo.png", options: { body: solidPng(), headers: { "content-type": "image/png" } } }),
    cross: "none",
  },
  "PUT /api/v1/firm/web-preferences": {
    needs: firmWrite,
    request: () => ({ path: "/api/v1/firm/web-preferences", options: json({ web_preferences: "{}" }) }),
    cross: "none",
  },
  "GET /api/v1/firm/storage-hierarchy": { needs: firmRead, request: at("/api/v1/firm/storage-hierarchy"), cross: "none" },
  "PUT /api/v1/firm/storage-hierarchy": {
    needs: firmWrite,
    request: (r) => ({
      path: "/api/v1/firm/storage-hierarchy",
      options: json({ hierarchy: ["firm", "location", "practice_group", "client", "matter", "case"], storage_policy_id: r.ids["storage-policies"] }),
    }),
    cross: "refused",
  },
  "GET /api/v1/firm/sso": { needs: firmRead, request: at("/api/v1/firm/sso"), cross: "none" },
  // Empty settings: the firm keeps signing in with passwords whoever may send them.
  "PUT /api/v1/firm/sso": { needs: firmWrite, request: () => ({ path: "/api/v1/firm/sso", options: json({}) }), cross: "none" },
  "GET /api/v1/firm/internal-walls": { needs: firmRead, request: at("/api/v1/firm/internal-walls"), cross: "none" },
  "PUT /api/v1/firm/internal-walls": {
    needs: firmWrite,
    request: () => ({ path: "/api/v1/firm/internal-walls", options: json({ enabled: false }) }),
    cross: "none",
  },
  "GET /api/v1/slow-calls": { needs: firmWrite, request: at("/api/v1/slow-calls"), cross: "none" },
  "POST /api/v1/demo/reset": { needs: firmWrite, request: at("/api/v1/demo/reset"), cross: "none", demoOnly: true },

  "GET /api/v1/dashboard": { needs: [{ resource: "dashboard", need: "read" }], request: at("/api/v1/dashboard"), cross: "none" },
  "GET /api/v1/dashboard/summary": { needs: [{ resource: "dashboard", need: "read" }], request: at("/api/v1/dashboard/summary"), cross: "none" },

  "GET /api/v1/dictionary/namespaces": { needs: firmRead, request: at("/api/v1/dictionary/namespaces"), cross: "none" },
  "GET /api/v1/dictionary/search": { needs: firmRead, request: at("/api/v1/dictionary/search?overridden=true"), cross: "none" },
  "GET /api/v1/dictionary/export": { needs: firmRead, request: at("/api/v1/dictionary/export"), cross: "none" },
  "GET /api/v1/dictionary/:namespace/:key": { needs: firmRead, request: at("/api/v1/dictionary/errors/walledOut"), cross: "none" },
  "PUT /api/v1/dictionary/:namespace/:key": {
    needs: firmWrite,
    request: () => ({ path: "/api/v1/dictionary/errors/walledOut", options: json({ value: "Taken over." }) }),
    cross: "none",
  },
  "DELETE /api/v1/dictionary/:namespace/:key": { needs: firmWrite, request: at("/api/v1/dictionary/errors/walledOut"), cross: "none" },
  "POST /api/v1/dictionary/import": {
    needs: firmWrite,
    request: () => ({
      path: "/api/v1/dictionary/import",
      options: { body: "namespace,key,value\nerrors,walledOut,Taken over.\n", headers: { "content-type": "text/csv" } },
    }),
    cross: "none",
  },

  // Captured mail holds notices: firm settings FULL to read it, and the notice's own rules.
  "GET /api/v1/outbox/search": { needs: firmWrite, request: at("/api/v1/outbox/search?max=100"), cross: "none" },
  "GET /api/v1/outbox/:id": {
    needs: firmWrite,
    request: (r) => ({ path: `/api/v1/outbox/${r.ids.mail}` }),
    canary: { blind: "notice", request: (r) => ({ path: `/api/v1/outbox/${r.canary.mail}` }) },
    cross: "404",
  },

  "POST /api/v1/inbox/upload": {
    needs: inboxWrite,
    request: (r) => ({
      path: "/api/v1/inbox/upload",
      options: { body: `From: a@court.test\r\nSubject: Upload ${r.tag}\r\n\r\nx\r\n`, headers: { "content-type": "message/rfc822" } },
    }),
    cross: "none",
  },
  "GET /api/v1/inbox/ids": { needs: inboxRead, request: at("/api/v1/inbox/ids"), cross: "none" },
  "POST /api/v1/inbox/bulk": {
    needs: inboxWrite,
    request: (r) => ({ path: "/api/v1/inbox/bulk", options: json({ action: "archive", ids: [r.ids["inbox-items"]] }) }),
    canary: {
      blind: "notice",
      list: true,
      request: (r) => ({ path: "/api/v1/inbox/bulk", options: json({ action: "archive", ids: [r.canary["inbox-items"]] }) }),
    },
    cross: "ignored",
  },
  "POST /api/v1/inbox/requeue": {
    needs: inboxWrite,
    request: (r) => ({ path: "/api/v1/inbox/requeue", options: json({ ids: [r.ids["inbox-items"]] }) }),
    canary: { blind: "notice", list: true, request: (r) => ({ path: "/api/v1/inbox/requeue", options: json({ ids: [r.canary["inbox-items"]] }) }) },
    cross: "ignored",
  },
  "GET /api/v1/inbox/:id/card": {
    needs: inboxRead,
    request: (r) => ({ path: `/api/v1/inbox/${r.ids["inbox-items"]}/card` }),
    canary: { blind: "notice", request: (r) => ({ path: `/api/v1/inbox/${r.canary["inbox-items"]}/card` }) },
    cross: "404",
  },
  "GET /api/v1/inbox/:id/raw": {
    needs: rawRead,
    request: (r) => ({ path: `/api/v1/inbox/${r.ids["inbox-items"]}/raw` }),
    canary: { blind: "notice", request: (r) => ({ path: `/api/v1/inbox/${r.canary["inbox-items"]}/raw` }) },
    cross: "404",
  },
  "GET /api/v1/inbox/:id/original": {
    needs: rawRead,
    request: (r) => ({ path: `/api/v1/inbox/${r.ids["inbox-items"]}/original` }),
    canary: { blind: "notice", request: (r) => ({ path: `/api/v1/inbox/${r.canary["inbox-items"]}/original` }) },
    cross: "404",
  },
  "GET /api/v1/inbox/:id/dms": {
    needs: inboxRead,
    request: (r) => ({ path: `/api/v1/inbox/${r.ids["inbox-items"]}/dms` }),
    canary: { blind: "notice", request: (r) => ({ path: `/api/v1/inbox/${r.canary["inbox-items"]}/dms` }) },
    cross: "404",
  },
  "POST /api/v1/inbox/:id/reprocess": {
    needs: [...inboxWrite, { resource: "case", need: "read" }],
    request: (r) => ({ path: `/api/v1/inbox/${r.ids["inbox-items"]}/reprocess`, options: json({ case_id: r.ids.cases }) }),
    canary: { blind: "notice", request: (r) => ({ path: `/api/v1/inbox/${r.canary["inbox-items"]}/reprocess`, options: json({ case_id: r.canary.cases }) }) },
    cross: "404",
  },
  "GET /api/v1/document/list": {
    needs: documentRead,
    request: (r) => ({ path: `/api/v1/document/list?envelope_id=${r.ids["ecfx-notification"]}` }),
    canary: { blind: "notice", list: true, request: (r) => ({ path: `/api/v1/document/list?case_id=${r.canary.cases}` }) },
    cross: "ignored",
  },
  "GET /api/v1/document/:id/content": {
    needs: documentRead,
    request: (r) => ({ path: `/api/v1/document/${r.ids.document}/content` }),
    canary: { blind: "notice", request: (r) => ({ path: `/api/v1/document/${r.canary.document}/content` }) },
    cross: "404",
  },
  "GET /api/v1/dms-record/:id/content": {
    needs: documentRead,
    request: (r) => ({ path: `/api/v1/dms-record/${r.ids.dmsRecord}/content` }),
    canary: { blind: "notice", request: (r) => ({ path: `/api/v1/dms-record/${r.canary.dmsRecord}/content` }) },
    cross: "404",
  },
  "POST /api/v1/email-template/preview": {
    needs: [{ entry: "templates", need: "read" }, ...inboxRead],
    request: (r) => ({
      path: "/api/v1/email-template/preview",
      options: json({ template: "{{docketText}} {{case.name}}", inboxItemId: r.ids["inbox-items"] }),
    }),
    canary: {
      blind: "notice",
      request: (r) => ({
        path: "/api/v1/email-template/preview",
        options: json({ template: "{{docketText}} {{case.name}}", inboxItemId: r.canary["inbox-items"] }),
      }),
    },
    cross: "404",
    harmless: true,
  },

  "GET /api/v1/import-jobs/:id": {
    needs: [{ entry: "abbreviations", need: "read" }],
    request: (r) => ({ path: `/api/v1/import-jobs/${r.ids.job}` }),
    cross: "404",
  },
  "GET /api/v1/import-jobs/:id/lines": {
    needs: [{ entry: "abbreviations", need: "read" }],
    request: (r) => ({ path: `/api/v1/import-jobs/${r.ids.job}/lines` }),
    cross: "404",
  },

  "GET /api/v1/case/:id/tracking": {
    needs: caseRead,
    feature: "ECFX_TRACK",
    request: (r) => ({ path: `/api/v1/case/${r.ids.cases}/tracking` }),
    canary: { blind: "walled", request: (r) => ({ path: `/api/v1/case/${r.canary.cases}/tracking` }) },
    cross: "404",
  },
  "POST /api/v1/case/:id/tracking": {
    needs: caseWrite,
    feature: "ECFX_TRACK",
    request: (r) => ({ path: `/api/v1/case/${r.ids.cases}/tracking`, options: json({ action: "start" }) }),
    canary: { blind: "walled", request: (r) => ({ path: `/api/v1/case/${r.canary.cases}/tracking`, options: json({ action: "start" }) }) },
    cross: "404",
  },
  "GET /api/v1/case/:id/retrieve": {
    needs: caseRead,
    hostIndependent: true,
    request: (r) => ({ path: `/api/v1/case/${r.ids.cases}/retrieve` }),
    canary: { blind: "walled", request: (r) => ({ path: `/api/v1/case/${r.canary.cases}/retrieve` }) },
    cross: "404",
  },
  "POST /api/v1/case/:id/retrieve": {
    needs: caseWrite,
    hostIndependent: true,
    request: (r) => ({ path: `/api/v1/case/${r.ids.cases}/retrieve`, options: json({ mode: "update" }) }),
    canary: { blind: "walled", request: (r) => ({ path: `/api/v1/case/${r.canary.cases}/retrieve`, options: json({ mode: "update" }) }) },
    cross: "404",
  },

  "PUT /api/v1/jurisdiction-preference/order": {
    needs: [{ entry: "jurisdiction-preferences", need: "write" }],
    request: (r) => ({ path: "/api/v1/jurisdiction-preference/order", options: json({ ids: [r.ids["jurisdiction-preferences"]] }) }),
    cross: "refused",
  },

  // A delivery's body is the notice: the webhook page's rule (firm settings open) and the notice's.
  "GET /api/v1/webhook/:id/deliveries": {
    needs: webhookRead,
    request: (r) => ({ path: `/api/v1/webhook/${r.ids.webhooks}/deliveries?size=100` }),
    cross: "404",
  },
  "POST /api/v1/webhook/:id/test": { needs: webhookWrite, request: (r) => ({ path: `/api/v1/webhook/${r.ids.webhooks}/test` }), cross: "404" },
  "POST /api/v1/webhook/:id/secret": { needs: webhookWrite, request: (r) => ({ path: `/api/v1/webhook/${r.ids.webhooks}/secret` }), cross: "404" },
  "POST /api/v1/webhook/:id/secret/rotate": {
    needs: webhookWrite,
    request: (r) => ({ path: `/api/v1/webhook/${r.ids.webhooks}/secret/rotate` }),
    cross: "404",
  },
  "POST /api/v1/webhook-delivery/:id/resend": {
    needs: webhookWrite,
    request: (r) => ({ path: `/api/v1/webhook-delivery/${r.ids.webhookDelivery}/resend` }),
    canary: { blind: "notice", request: (r) => ({ path: `/api/v1/webhook-delivery/${r.canary.webhookDelivery}/resend` }) },
    cross: "404",
  },

  "GET /api/v1/invoice/:id/lines": { needs: firmRead, request: (r) => ({ path: `/api/v1/invoice/${r.ids.billing}/lines` }), cross: "404" },
  "GET /api/v1/invoice/:id/pdf": { needs: firmRead, request: (r) => ({ path: `/api/v1/invoice/${r.ids.billing}/pdf` }), cross: "404" },
  "POST /api/v1/invoice/:id/pay": { needs: firmWrite, request: (r) => ({ path: `/api/v1/invoice/${r.ids.billing}/pay` }), cross: "404" },
  "GET /api/v1/billing/settings": { needs: firmRead, request: at("/api/v1/billing/settings"), cross: "none" },
  "PUT /api/v1/billing/settings": { needs: firmWrite, request: () => ({ path: "/api/v1/billing/settings", options: json({}) }), cross: "none" },
  "POST /api/v1/billing/costs/export": {
    needs: firmRead,
    request: () => ({ path: "/api/v1/billing/costs/export", options: json({ from: "2026-01-01", to: "2026-01-31", format: "csv" }) }),
    cross: "none",
  },
  "POST /api/v1/billing/time/export": {
    needs: firmRead,
    request: () => ({ path: "/api/v1/billing/time/export", options: json({ from: "2026-01-01", to: "2026-01-31" }) }),
    cross: "none",
  },

  ...credentialRoutes(),

  "GET /api/v1/scim": { needs: [{ administrator: true }], request: at("/api/v1/scim"), cross: "none" },
  "POST /api/v1/scim/tokens": {
    needs: [{ administrator: true }],
    request: () => ({ path: "/api/v1/scim/tokens", options: json({ label: "matrix" }) }),
    cross: "none",
  },
  "DELETE /api/v1/scim/tokens/:id": {
    needs: [{ administrator: true }],
    request: () => ({ path: "/api/v1/scim/tokens/00000000-0000-0000-0000-000000000000" }),
    cross: "none",
    harmless: true,
    ok: [404],
  },
  "PUT /api/v1/scim/groups/:id": {
    needs: [{ administrator: true }],
    request: () => ({ path: "/api/v1/scim/groups/00000000-0000-0000-0000-000000000000", options: json({ security_role_id: null }) }),
    cross: "none",
    harmless: true,
    ok: [404],
  },
};

/** The generic routes, expanded to every registry entry by the test. */
export const GENERIC = [
  "POST /api/v1/:resource",
  "GET /api/v1/:resource/export",
  "GET /api/v1/:resource/search",
  "POST /api/v1/:resource/import",
  "GET /api/v1/:resource/:id",
  "PUT /api/v1/:resource/:id",
  "PATCH /api/v1/:resource/:id",
  "DELETE /api/v1/:resource/:id",
] as const;

/** Routes outside the matrix, and the tests that cover them. */
export const EXCLUDED: Record<string, string> = {
  "POST /auth/login": "signs in; tests/api/auth.test.ts",
  "POST /auth/logout": "would end the caller's own session; tests/api/auth.test.ts, session-end.test.ts",
  "GET /auth/me": "the caller's own identity; tests/api/auth.test.ts",
  "POST /auth/password-forgot": "no session; tests/api/password-reset.test.ts",
  "POST /auth/password-reset": "no session; tests/api/password-reset.test.ts",
  "PUT /auth/:id/change-password": "the caller's own password; tests/api/change-password.test.ts",
  "POST /oauth/access_token": "token refresh; tests/api/refresh.test.ts",
  "GET *": "signed public document links; tests/api/notify.test.ts",
  "GET /auth/saml/metadata": "the firm's public service provider metadata, no session; tests/api/saml.test.ts",
  "POST /auth/saml/start": "no session: begins a sign-on; tests/api/saml.test.ts",
  "POST /auth/saml/acs": "no session: the identity provider's signed answer is its authority; tests/api/saml.test.ts",
  "POST /auth/saml/slo": "no session: the identity provider's signed logout is its authority; tests/api/saml.test.ts",
  "POST /auth/oidc/start": "no session: begins a sign-on; tests/api/oidc.test.ts",
  "POST /auth/oidc/callback": "no session: the issuer's signed ID token is its authority; tests/api/oidc.test.ts",
  "POST /api/v1/billing/stripe/webhook": "no session: the payment provider's signature is its authority; tests/api/billing.test.ts",
  "GET /scim/v2/ServiceProviderConfig": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "GET /scim/v2/ResourceTypes": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "GET /scim/v2/ResourceTypes/:id": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "GET /scim/v2/Schemas": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "GET /scim/v2/Schemas/:id": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "GET /scim/v2/Users": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "POST /scim/v2/Users": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "GET /scim/v2/Users/:id": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "PUT /scim/v2/Users/:id": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "PATCH /scim/v2/Users/:id": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "DELETE /scim/v2/Users/:id": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "GET /scim/v2/Groups": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "POST /scim/v2/Groups": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "GET /scim/v2/Groups/:id": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "PUT /scim/v2/Groups/:id": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "PATCH /scim/v2/Groups/:id": "a firm's SCIM token, no session; tests/api/scim.test.ts",
  "DELETE /scim/v2/Groups/:id": "a firm's SCIM token, no session; tests/api/scim.test.ts",
};
