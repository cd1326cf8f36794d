import { randomUUID } from "node:crypto";
import { FILING_COLUMN } from "../../../server/dms/sharepoint/graph-library";
import type { HeldDocument, VendorTestServer } from "../vendor-test-server";
import { GraphContract, addressed } from "./graph-contract";
import { GraphCsdl } from "./graph-csdl";
import { type Answer, type Exchange, StandIn, bearer } from "./stand-in";

// A local SharePoint Online as the client sees it: Microsoft's token endpoint
// (POST /{tenant}/oauth2/v2.0/token, client-credential grant) and Microsoft Graph v1.0 under
// /v1.0 (sites, drives, drive items by id or by path, children, content, upload sessions, list
// item fields, the library's list and columns, the site's users), answering with Graph's status
// codes and error bodies. Every Graph request is checked against Microsoft's published OpenAPI
// description (a subset, tests/fixtures/openapi/msgraph), and every JSON body it sends or
// answers against Graph's CSDL metadata (tests/fixtures/msgraph-csdl). Its model is
// SharePoint's: a drive item's description is refused (Graph documents it for OneDrive Personal
// only), a person column takes a site user's lookup id ("{column}LookupId"), never text.

export const CLOUD_TENANT = "5f1e0c1a-7d2b-4c1e-9a7f-3b6d2e8c9f10";
export const CLOUD_CLIENT_ID = "0b8a6f2e-1c3d-4e5f-8a9b-0c1d2e3f4a5b";
export const CLOUD_CLIENT_SECRET = "Xy7~local-secret";
const HOST = "contoso.sharepoint.com";
const SITE_PATH = "/sites/Legal";
const LIBRARY_URL = `https://${HOST}${SITE_PATH}/Shared%20Documents`;
/** Text columns of the library: list item fields the client may set as text. */
export const LIBRARY_COLUMNS = ["Title", "CaseNumber", "Court"];
/** The library's person column (single person). */
export const PERSON_COLUMN = "FiledBy";
/** Users of the site (its User Information List). */
export const SITE_USERS = [
  { id: "7", Title: "Jane Filer", EMail: "jane.filer@contoso.com" },
  { id: "9", Title: "Sam Clerk", EMail: "sam.clerk@contoso.com" },
];

interface ColumnDef {
  id: string;
  name: string;
  displayName: string;
  description?: string;
  text?: Record<string, unknown>;
  personOrGroup?: { allowMultipleSelection: boolean; chooseFromType: string; displayAs: string };
}

interface Item {
  id: string;
  name: string;
  parentId: string | null;
  folder: boolean;
  bytes: Buffer;
  fields: Record<string, string>;
}

interface Session {
  parentId: string;
  name: string;
  received: Buffer[];
  next: number;
}

export interface SharePointCloudServer extends VendorTestServer {
  /** Seconds an issued token lives (default 3600). */
  tokenLifetimeSeconds: number;
  /** Token requests answered so far. */
  tokensIssued(): number;
  /** Makes every issued token invalid, as a revoked consent would. */
  revokeTokens(): void;
  /** Upload sessions still open. */
  openSessions(): number;
  /** The library's column names. */
  columns(): string[];
  /** Removes a column, as a site owner might. */
  dropColumn(name: string): void;
  /** The filing column's value of the document at a link, as the library holds it. */
  filingNote(link: string): string | undefined;
}

const graphError = (status: number, code: string, message: string): Answer => ({
  status,
  json: { error: { code, message, innerError: { date: new Date().toISOString(), "request-id": randomUUID(), "client-request-id": randomUUID() } } },
});
const notFound = () => graphError(404, "itemNotFound", "The resource could not be found.");
const nameTaken = () => graphError(409, "nameAlreadyExists", "The specified item name already exists.");

export async function startSharePointCloudServer(): Promise<SharePointCloudServer> {
  const contract = new GraphContract();
  await contract.load();
  const csdl = new GraphCsdl();
  const listId = "8f2d4b6a-legal-documents-list";
  const columns = new Map<string, ColumnDef>();
  const addColumn = (column: Omit<ColumnDef, "id">) => columns.set(column.name, { id: randomUUID(), ...column });
  for (const name of LIBRARY_COLUMNS) addColumn({ name, displayName: name, text: { allowMultipleLines: false, maxLength: 255 } });
  addColumn({
    name: PERSON_COLUMN,
    displayName: "Filed by",
    personOrGroup: { allowMultipleSelection: false, chooseFromType: "peopleOnly", displayAs: "nameWithPresence" },
  });
  const tokens = new Map<string, number>();
  let issued = 0;
  const items = new Map<string, Item>();
  const sessions = new Map<string, Session>();
  const rootId = "01ROOT";
  const driveId = "b!LegalDocuments";
  const siteId = `${HOST},6d3c9e1f-legal-site,8a2b4c6d-legal-web`;
  items.set(rootId, { id: rootId, name: "root", parentId: null, folder: true, bytes: Buffer.alloc(0), fields: {} });
  const addFolder = (parentId: string, name: string) => {
    const id = `01F${randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase()}`;
    items.set(id, { id, name, parentId, folder: true, bytes: Buffer.alloc(0), fields: {} });
    return items.get(id) as Item;
  };
  addFolder(rootId, "ECFX");

  const childrenOf = (id: string) => [...items.values()].filter((item) => item.parentId === id);
  const child = (id: string, name: string) => childrenOf(id).find((item) => item.name.toLowerCase() === name.toLowerCase());
  const pathOf = (item: Item): string[] => (item.parentId === null ? [] : [...pathOf(items.get(item.parentId) as Item), item.name]);
  const webUrl = (item: Item) => [LIBRARY_URL, ...pathOf(item).map(encodeURIComponent)].join("/");
  const resource = (item: Item) => ({
    id: item.id,
    name: item.name,
    webUrl: webUrl(item),
    size: item.bytes.length,
    parentReference: { driveId, id: item.parentId ?? undefined },
    ...(item.folder ? { folder: { childCount: childrenOf(item.id).length } } : { file: { mimeType: "application/octet-stream" } }),
  });
  const walk = (from: Item | undefined, names: string[]) => names.reduce<Item | undefined>((at, name) => (at ? child(at.id, name) : undefined), from);
  const byId = (id: string) => items.get(id === "root" ? rootId : id);

  /** The item a drive item reference names, or where a new one of that path would go. */
  function locate(reference: string, graphPath: string): { item?: Item; parent?: Item; name?: string } {
    const parts = addressed(graphPath);
    if (!parts) return { item: byId(decodeURIComponent(reference)) };
    const base = byId(parts.base);
    const parent = walk(base, parts.relative.slice(0, -1));
    const name = parts.relative[parts.relative.length - 1];
    return { item: walk(base, parts.relative), parent, name };
  }

  function newFile(parent: Item, name: string, bytes: Buffer): Item {
    const id = `01D${randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase()}`;
    const item = { id, name, parentId: parent.id, folder: false, bytes, fields: {} };
    items.set(id, item);
    return item;
  }

  function token(exchange: Exchange, tenant: string): Answer {
    const form = new URLSearchParams(exchange.body.toString("utf8"));
    if (exchange.method !== "POST" || !String(exchange.headers["content-type"]).includes("application/x-www-form-urlencoded"))
      return standIn.violation(exchange, "token requests are form posts");
    if (tenant !== CLOUD_TENANT) {
      return { status: 400, json: { error: "invalid_request", error_description: `AADSTS90002: Tenant '${tenant}' not found.`, error_codes: [90002] } };
    }
    if (form.get("grant_type") !== "client_credentials" || form.get("scope") !== "https://graph.microsoft.com/.default") {
      return standIn.violation(exchange, "expected a client-credential grant for https://graph.microsoft.com/.default");
    }
    if (form.get("client_id") !== CLOUD_CLIENT_ID) {
      return {
        status: 400,
        json: {
          error: "unauthorized_client",
          error_description: `AADSTS700016: Application with identifier '${form.get("client_id")}' was not found in the directory.`,
          error_codes: [700016],
        },
      };
    }
    if (form.get("client_secret") !== CLOUD_CLIENT_SECRET) {
      return {
        status: 401,
        json: {
          error: "invalid_client",
          error_description: `AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${CLOUD_CLIENT_ID}'.`,
          error_codes: [7000215],
        },
      };
    }
    const accessToken = `eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.${randomUUID()}`;
    tokens.set(accessToken, Date.now() + server.tokenLifetimeSeconds * 1000);
    issued++;
    return {
      status: 200,
      json: { token_type: "Bearer", expires_in: server.tokenLifetimeSeconds, ext_expires_in: server.tokenLifetimeSeconds, access_token: accessToken },
    };
  }

  function uploadRange(exchange: Exchange, id: string): Answer {
    const session = sessions.get(id);
    if (!session) return graphError(404, "itemNotFound", "The upload session was not found.");
    if (exchange.method === "DELETE") {
      sessions.delete(id);
      return { status: 204 };
    }
    if (exchange.headers.authorization) return standIn.violation(exchange, "upload URLs take no Authorization header");
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(exchange.headers["content-range"] ?? ""));
    if (!range || Number(range[1]) !== session.next || Number(range[2]) - Number(range[1]) + 1 !== exchange.body.length) {
      return graphError(416, "invalidRange", "The Content-Range header does not match the expected range.");
    }
    session.received.push(exchange.body);
    session.next += exchange.body.length;
    if (session.next < Number(range[3])) {
      return { status: 202, json: { expirationDateTime: new Date(Date.now() + 3_600_000).toISOString(), nextExpectedRanges: [`${session.next}-`] } };
    }
    sessions.delete(id);
    const parent = items.get(session.parentId) as Item;
    if (child(parent.id, session.name)) return nameTaken();
    return { status: 201, json: resource(newFile(parent, session.name, Buffer.concat(session.received))) };
  }

  /** A request body checked against its CSDL type; the problems as a violation. */
  function bodyRefusal(exchange: Exchange, type: string): Answer | undefined {
    const problems = csdl.problems(type, JSON.parse(exchange.body.toString("utf8") || "null"));
    return problems.length ? standIn.violation(exchange, problems.join("; ")) : undefined;
  }

  /** An answer of a CSDL type (or a collection of it), checked before it goes out. */
  function typed(exchange: Exchange, status: number, type: string, json: unknown): Answer {
    const values = (json as { value?: unknown[] }).value;
    const problems = Array.isArray(values) ? values.flatMap((value) => csdl.problems(type, value)) : csdl.problems(type, json);
    if (problems.length) standIn.violation(exchange, `answer off the metadata: ${problems.join("; ")}`);
    return { status, json };
  }

  async function graph(exchange: Exchange, path: string): Promise<Answer> {
    const why = await contract.refusal(exchange, path);
    if (why) return standIn.violation(exchange, why);
    const presented = bearer(exchange);
    const expiry = presented ? tokens.get(presented) : undefined;
    if (!expiry || expiry < Date.now()) return graphError(401, "InvalidAuthenticationToken", "Access token validation failure. Invalid audience.");
    const json = () => JSON.parse(exchange.body.toString("utf8") || "{}") as Record<string, unknown>;

    const listCall = /^\/sites\/([^/]+)\/lists\/([^/]+)\/(columns|items)$/.exec(path);
    if (listCall) {
      if (decodeURIComponent(listCall[1] ?? "") !== siteId) return notFound();
      const list = decodeURIComponent(listCall[2] ?? "");
      if (listCall[3] === "items") {
        if (list !== "User Information List") return notFound();
        const users = SITE_USERS.map((user) => ({ id: user.id, fields: { Title: user.Title, EMail: user.EMail } }));
        return typed(exchange, 200, "listItem", { value: users });
      }
      if (list !== listId) return notFound();
      if (exchange.method === "GET") return typed(exchange, 200, "columnDefinition", { value: [...columns.values()] });
      const refused = bodyRefusal(exchange, "columnDefinition");
      if (refused) return refused;
      const body = json() as Omit<ColumnDef, "id">;
      if (typeof body.name !== "string" || !body.name) return graphError(400, "invalidRequest", "The column needs a name.");
      if (columns.has(body.name)) return graphError(409, "nameAlreadyExists", `A duplicate field name "${body.name}" was found.`);
      addColumn(body);
      return typed(exchange, 201, "columnDefinition", columns.get(body.name));
    }
    if (path === `/drives/${encodeURIComponent(driveId)}/list`) {
      return typed(exchange, 200, "list", { id: listId, name: "Shared Documents", displayName: "Documents", webUrl: LIBRARY_URL });
    }
    if (path.startsWith("/sites/")) {
      const parts = addressed(path);
      if (path === `/sites/${encodeURIComponent(siteId)}/drives`) {
        return typed(exchange, 200, "drive", { value: [{ id: driveId, name: "Documents", driveType: "documentLibrary", webUrl: LIBRARY_URL }] });
      }
      const wanted = parts ? `${parts.base}:/${parts.relative.join("/")}` : decodeURIComponent(path.slice("/sites/".length));
      if (wanted.toLowerCase() !== `${HOST}:${SITE_PATH}`.toLowerCase() && wanted !== siteId) return notFound();
      return typed(exchange, 200, "site", { id: siteId, name: "Legal", displayName: "Legal", webUrl: `https://${HOST}${SITE_PATH}` });
    }
    const drive = /^\/drives\/([^/]+)\/items\/(.+?)(\/children|\/content|\/createUploadSession|\/listItem\/fields)?$/.exec(path);
    if (!drive || decodeURIComponent(drive[1] ?? "") !== driveId) return notFound();
    const [, , reference = "", tail = ""] = drive;
    const { item, parent, name } = locate(reference, addressed(path) ? path.replace(tail, "") : path);
    const conflict = exchange.query.get("@microsoft.graph.conflictBehavior");

    if (tail === "/content" && exchange.method === "PUT") {
      if (item?.folder) return graphError(409, "nameAlreadyExists", "A folder with that name exists.");
      if (item && conflict !== "replace") return nameTaken();
      if (!parent?.folder || !name) return notFound();
      return typed(exchange, 201, "driveItem", resource(newFile(parent, name, exchange.body)));
    }
    if (tail === "/createUploadSession") {
      if (!parent?.folder || !name) return notFound();
      if (item) return nameTaken();
      const id = randomUUID();
      sessions.set(id, { parentId: parent.id, name, received: [], next: 0 });
      return {
        status: 200,
        json: { uploadUrl: `${standIn.origin}/_upload/${id}`, expirationDateTime: new Date(Date.now() + 3_600_000).toISOString(), nextExpectedRanges: ["0-"] },
      };
    }
    if (!item) return notFound();
    if (tail === "/children" && exchange.method === "GET") return typed(exchange, 200, "driveItem", { value: childrenOf(item.id).map(resource) });
    if (tail === "/children" && exchange.method === "POST") {
      const refused = bodyRefusal(exchange, "driveItem");
      if (refused) return refused;
      const body = json();
      if (typeof body.name !== "string" || !body.folder) return graphError(400, "invalidRequest", "Invalid request");
      if (child(item.id, body.name)) return nameTaken();
      return typed(exchange, 201, "driveItem", resource(addFolder(item.id, body.name)));
    }
    if (tail === "/listItem/fields") {
      const refused = bodyRefusal(exchange, "fieldValueSet");
      if (refused) return refused;
      const body = json();
      const set: Record<string, string> = {};
      for (const [field, value] of Object.entries(body)) {
        if (field.includes("@")) continue;
        const lookup = /^(.+)LookupId$/.exec(field)?.[1];
        const column = columns.get(lookup ?? field);
        if (!column) return graphError(400, "invalidRequest", `Field '${field}' is not recognized`);
        if (column.personOrGroup && !lookup)
          return graphError(400, "invalidRequest", `Field '${field}' is a person or group column: it takes ${field}LookupId`);
        if (lookup) {
          if (!column.personOrGroup) return graphError(400, "invalidRequest", `Field '${field}' is not recognized`);
          const ids = column.personOrGroup.allowMultipleSelection ? value : [value];
          const users = Array.isArray(ids) ? ids.map((id) => SITE_USERS.find((user) => user.id === id)) : [];
          if (!users.length || users.some((user) => !user)) return graphError(400, "invalidRequest", `Invalid lookup value for field '${field}'`);
          set[column.name] = users.map((user) => user?.Title).join("; ");
        } else if (typeof value !== "string") return graphError(400, "invalidRequest", `Field '${field}' takes text`);
        else set[column.name] = value;
      }
      Object.assign(item.fields, set);
      return typed(exchange, 200, "fieldValueSet", { "@odata.etag": `"${item.id},2"`, id: "1", ...item.fields });
    }
    if (exchange.method === "PATCH") {
      const refused = bodyRefusal(exchange, "driveItem");
      if (refused) return refused;
      // Graph: "description … Only on OneDrive Personal"; a SharePoint library keeps it in no column.
      if ("description" in json()) return graphError(400, "invalidRequest", "Property description is not supported for this drive type.");
      return typed(exchange, 200, "driveItem", resource(item));
    }
    if (exchange.method === "DELETE") {
      for (const gone of [item, ...childrenOf(item.id)]) items.delete(gone.id);
      return { status: 204 };
    }
    const expand = exchange.query.get("$expand") ?? "";
    const selected = /^listItem\(\$expand=fields\(\$select=([^)]*)\)\)$/.exec(expand)?.[1]?.split(",");
    if (expand && !selected) return standIn.violation(exchange, `unexpected $expand ${expand}`);
    const row = selected ? { listItem: { id: "1", fields: Object.fromEntries(Object.entries(item.fields).filter(([name]) => selected.includes(name))) } } : {};
    return typed(exchange, 200, "driveItem", { ...resource(item), ...row });
  }

  const standIn = new StandIn(async (exchange) => {
    const login = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(exchange.path);
    if (login) return token(exchange, decodeURIComponent(login[1] ?? ""));
    const upload = /^\/_upload\/([^/]+)$/.exec(exchange.path);
    if (upload) return uploadRange(exchange, upload[1] ?? "");
    if (exchange.path.startsWith("/v1.0/")) return graph(exchange, exchange.path.slice("/v1.0".length));
    return graphError(400, "BadRequest", `Resource not found for the segment '${exchange.path.split("/")[1] ?? ""}'.`);
  });
  await standIn.start();

  const server: SharePointCloudServer = {
    origin: standIn.origin,
    tokenLifetimeSeconds: 3600,
    credentialSettings: () => ({
      client_id: CLOUD_CLIENT_ID,
      client_secret: CLOUD_CLIENT_SECRET,
      tenant_id: CLOUD_TENANT,
      base_url: `${LIBRARY_URL}/ECFX`,
      author_field: "FiledBy",
      signature: "Filed by ECFX for Smith & Jones LLP",
      folder_creation_sync_delay: 0,
    }),
    documents: (): HeldDocument[] =>
      [...items.values()]
        .filter((item) => !item.folder)
        .map((item) => ({
          folder: pathOf(item).slice(0, -1),
          name: item.name,
          bytes: item.bytes,
          properties: Object.fromEntries(Object.entries(item.fields).filter(([name]) => name !== FILING_COLUMN)),
          link: webUrl(item),
        })),
    folders: () => [...items.values()].filter((item) => item.folder && item.parentId !== null).map(pathOf),
    failNext: (status, options) => standIn.failNext(status, options),
    contractViolations: () => [...standIn.violations],
    tokensIssued: () => issued,
    revokeTokens: () => tokens.clear(),
    openSessions: () => sessions.size,
    columns: () => [...columns.keys()],
    dropColumn: (name) => columns.delete(name),
    filingNote: (link) => [...items.values()].find((item) => !item.folder && webUrl(item) === link)?.fields[FILING_COLUMN],
    close: () => standIn.close(),
  };
  return server;
}
