import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { HeldDocument, VendorTestServer } from "../vendor-test-server";

// A local Clio Manage on a loopback port, to Clio's API v4 as developers.clio.com documents it:
// OAuth 2 authorization code (/oauth/authorize answers at once with a code, as if the person had
// approved) and refresh (/oauth/token), who_am_i, matters, folders, documents with the
// three-step upload (create → PUT to put_url with put_headers → PATCH fully_uploaded), external
// properties and their filters, calendar entries, `fields` (only the fields asked for come back,
// nested ones with {…}), paging (limit ≤ 200, page_token, meta.paging.next) and throttling (429
// with Retry-After). Its data model is Clio's (the v4 reference as its generated clients publish
// it: Folder.parent and Document.parent are a LinkedFolderBase, whose type is only "Folder"; a
// Matter has its own folder, Matter.folder; "Matter" is a parent type only in requests, meaning
// that matter's folder): the account has one root folder, each matter a folder below it, and
// every item reports a Folder as its parent. A request outside that contract (an unknown parameter, a body of the wrong
// shape, a missing put header) is answered 400 and recorded as a violation.

const CLIENT_ID = "ecfx-clio-client-id";
const CLIENT_SECRET = "ecfx-clio-client-secret";
const USER = { id: 344_117, name: "Adaeze Okafor", email: "aokafor@lawfirm.test" };
const PUT_HEADERS = [
  { name: "x-amz-server-side-encryption", value: "AES256" },
  { name: "Content-Type", value: "application/octet-stream" },
];

interface Matter {
  id: number;
  display_number: string;
  description: string;
  /** The matter's own folder. */
  folder: { id: number };
}

interface Folder {
  id: number;
  name: string;
  /** The folder it sits in; null for the account's root folder. */
  parent: number | null;
  matterId: number | null;
}

interface Doc {
  id: number;
  name: string;
  parent: number;
  matterId: number;
  content_type: string;
  external_properties: { name: string; value: string }[];
  version: { uuid: string; fully_uploaded: boolean; bytes: Buffer | null; putToken: string };
}

interface CalendarEntry {
  id: number;
  summary: string;
  description: string;
  start_at: string;
  end_at: string;
  all_day: boolean;
  matter: { id: number };
  calendar_owner: { id: number };
  external_properties: { name: string; value: string }[];
}

interface Failure {
  status: number;
  remaining: number;
  retryAfterSeconds?: number;
  path?: RegExp;
}

export interface ClioServerOptions {
  port?: number;
  /** How long an access token lives, in seconds (Clio's live 30 days). */
  tokenSeconds?: number;
}

export interface ClioTestServer extends VendorTestServer {
  /** "METHOD /path" of every request, in order. */
  requests(): string[];
  /** Token grants issued so far, by grant type. */
  grants(): { authorization_code: number; refresh_token: number };
  /** A code as Clio would send back after consent, for `redirectUri`. */
  issueCode(redirectUri: string): string;
  /** Makes every access token issued so far invalid (Clio answers 401). */
  revokeAccessTokens(): void;
  /** Makes every refresh token invalid (the firm disconnected the app). */
  revokeRefreshTokens(): void;
  addMatter(displayNumber: string, description: string): number;
  /** A document someone else filed into a matter's folder path (created as needed). */
  seed(matterId: number, folder: string[], name: string): number;
  /** A document an interrupted attempt created and never finished. */
  seedHalfUploaded(matterId: number, name: string, key: string): number;
  calendarEntries(): CalendarEntry[];
  /** The next request to a path matching `path` gets no answer at all (a time-out for the client). */
  hangNext(path: RegExp): void;
  /** Documents as the stand-in holds them, with their matter and upload state. */
  held(): (HeldDocument & { matterId: number; fullyUploaded: boolean })[];
}

class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

const apiError = (status: number, type: string, message: string) => new Answer(status, { error: { type, message } });

/** Parses Clio's `fields` ("id,name,parent{id,type}") into a tree. */
function parseFields(spec: string): Map<string, Map<string, unknown> | null> {
  const tree = new Map<string, Map<string, unknown> | null>();
  let i = 0;
  const level = (into: Map<string, unknown>) => {
    let name = "";
    while (i < spec.length) {
      const c = spec[i++]!;
      if (c === ",") {
        if (name) into.set(name.trim(), null);
        name = "";
      } else if (c === "{") {
        const child = new Map<string, unknown>();
        level(child);
        into.set(name.trim(), child);
        name = "";
        if (spec[i] === ",") i++;
      } else if (c === "}") {
        break;
      } else name += c;
    }
    if (name.trim()) into.set(name.trim(), null);
  };
  level(tree as Map<string, unknown>);
  return tree;
}

/** Only the fields asked for; Clio answers id and etag when none are. */
function project(record: Record<string, unknown>, fields: Map<string, unknown> | null): Record<string, unknown> {
  if (!fields) return { id: record.id, etag: `"${record.id}"` };
  const out: Record<string, unknown> = {};
  for (const [name, child] of fields) {
    if (!(name in record)) continue;
    const value = record[name];
    if (child instanceof Map && value && typeof value === "object")
      out[name] = Array.isArray(value) ? value.map((v) => project(v as Record<string, unknown>, child)) : project(value as Record<string, unknown>, child);
    else out[name] = value;
  }
  return out;
}

export async function startClioServer(options: ClioServerOptions = {}): Promise<ClioTestServer> {
  const tokenSeconds = options.tokenSeconds ?? 2_592_000;
  let nextId = 5000;
  const matters = new Map<number, Matter>();
  const folders = new Map<number, Folder>();
  const documents = new Map<number, Doc>();
  const calendar: CalendarEntry[] = [];
  const codes = new Map<string, string>();
  let accessTokens = new Map<string, number>();
  let refreshTokens = new Set<string>();
  const grants = { authorization_code: 0, refresh_token: 0 };
  const failures: Failure[] = [];
  const hangs: RegExp[] = [];
  const violations: string[] = [];
  const log: string[] = [];
  let origin = "";

  const rootFolder: Folder = { id: 100, name: "Documents", parent: null, matterId: null };
  folders.set(rootFolder.id, rootFolder);
  const addMatter = (display: string, description: string) => {
    const id = ++nextId;
    const own: Folder = { id: ++nextId, name: `${display} - ${description}`, parent: rootFolder.id, matterId: id };
    folders.set(own.id, own);
    matters.set(id, { id, display_number: display, description, folder: { id: own.id } });
    return id;
  };
  addMatter("M-501", "Peña v. Bluebonnet");
  addMatter("M-5010", "Bluebonnet supply dispute");

  const violation = (what: string) => {
    violations.push(what);
    return apiError(400, "BadRequest", what);
  };

  const isMatterFolder = (folder: Folder) => folder.matterId !== null && matters.get(folder.matterId)?.folder.id === folder.id;
  /** The names below the matter's own folder down to `folderId`. */
  const folderPath = (folderId: number): string[] => {
    const path: string[] = [];
    let at = folders.get(folderId);
    while (at && at.parent !== null && !isMatterFolder(at)) {
      path.unshift(at.name);
      at = folders.get(at.parent);
    }
    return path;
  };
  /** Clio's answer for a parent: a LinkedFolderBase. */
  const linkedFolder = (folderId: number) => ({ id: folderId, type: "Folder", name: folders.get(folderId)?.name, root: folderId === rootFolder.id });
  const link = (id: number) => `${origin}/nc/#/documents/${id}/details`;

  const docRecord = (d: Doc) => ({
    id: d.id,
    name: d.name,
    content_type: d.content_type,
    parent: linkedFolder(d.parent),
    matter: { id: d.matterId },
    external_properties: d.external_properties,
    latest_document_version: {
      uuid: d.version.uuid,
      fully_uploaded: d.version.fully_uploaded,
      put_url: `${origin}/uploads/${d.version.uuid}?X-Amz-Signature=${d.version.putToken}`,
      put_headers: PUT_HEADERS,
    },
  });

  const page = (url: URL, records: Record<string, unknown>[]) => {
    const limit = Number(url.searchParams.get("limit") ?? 200);
    const offset = Number(url.searchParams.get("page_token") ?? 0);
    const fields = url.searchParams.has("fields") ? parseFields(url.searchParams.get("fields")!) : null;
    const slice = records.slice(offset, offset + limit).map((r) => project(r, fields));
    const next = new URL(url);
    next.searchParams.set("page_token", String(offset + limit));
    const paging = offset + limit < records.length ? { next: `${origin}${next.pathname}${next.search}` } : {};
    return new Answer(200, { data: slice, meta: { paging, records: records.length } });
  };

  const checkQuery = (url: URL, allowed: string[]): Answer | null => {
    for (const key of url.searchParams.keys()) if (!allowed.includes(key)) return violation(`unknown parameter ${key} on ${url.pathname}`);
    const limit = url.searchParams.get("limit");
    if (limit !== null && !(/^\d+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 200)) return violation(`limit must be 1 to 200, not ${limit}`);
    const valueWithoutName = url.searchParams.has("external_property_value") && !url.searchParams.has("external_property_name");
    if (valueWithoutName) return violation("external_property_value needs external_property_name");
    return null;
  };

  // The fields each resource has in Clio's reference: asking for another is a client mistake.
  const MATTER_FIELDS = ["id", "etag", "display_number", "number", "description", "status", "folder"];
  const ITEM_FIELDS = [
    "id",
    "etag",
    "name",
    "type",
    "root",
    "parent",
    "matter",
    "content_type",
    "external_properties",
    "latest_document_version",
    "created_at",
    "updated_at",
  ];
  const checkFields = (url: URL, allowed: string[]): Answer | null => {
    const spec = url.searchParams.get("fields");
    if (spec === null) return null;
    for (const name of parseFields(spec).keys()) if (!allowed.includes(name)) return violation(`unknown field ${name} on ${url.pathname}`);
    return null;
  };

  const wildcard = (value: string, query: string | null) => !query || value.toLowerCase().includes(query.toLowerCase());
  const hasProperty = (props: { name: string; value: string }[], url: URL) => {
    const name = url.searchParams.get("external_property_name");
    if (!name) return true;
    const value = url.searchParams.get("external_property_value");
    return props.some((p) => p.name === name && (value === null || p.value === value));
  };

  /** A request's parent {id, type}: "Folder" by folder id, "Matter" for that matter's folder. */
  const parseParent = (value: unknown): { id: number; type: "Matter" | "Folder" } | null => {
    const parent = value as { id?: unknown; type?: unknown } | null;
    if (!parent || typeof parent.id !== "number" || (parent.type !== "Matter" && parent.type !== "Folder")) return null;
    return { id: parent.id, type: parent.type };
  };
  /** The folder a request's parent names, or null when there is none. */
  const folderOf = (parent: { id: number; type: "Matter" | "Folder" }): Folder | null =>
    (parent.type === "Matter" ? folders.get(matters.get(parent.id)?.folder.id ?? -1) : folders.get(parent.id)) ?? null;
  const parseProperties = (value: unknown): { name: string; value: string }[] | null => {
    if (value === undefined) return [];
    if (!Array.isArray(value)) return null;
    const props = value.map((p) => p as { name?: unknown; value?: unknown });
    if (props.some((p) => typeof p.name !== "string" || typeof p.value !== "string")) return null;
    return props as { name: string; value: string }[];
  };

  function bearer(req: http.IncomingMessage): Answer | null {
    const header = req.headers.authorization ?? "";
    const token = /^Bearer (.+)$/.exec(header)?.[1];
    if (!token) return apiError(401, "UnauthorizedError", "An access token is required");
    const expires = accessTokens.get(token);
    if (!expires || expires < Date.now()) return apiError(401, "UnauthorizedError", "The access token is invalid or has expired");
    return null;
  }

  function issueTokens() {
    const access = randomBytes(16).toString("hex");
    const refresh = randomBytes(16).toString("hex");
    accessTokens.set(access, Date.now() + tokenSeconds * 1000);
    refreshTokens.add(refresh);
    return { access, refresh };
  }

  function token(form: URLSearchParams): Answer {
    for (const key of form.keys())
      if (!["grant_type", "code", "redirect_uri", "client_id", "client_secret", "refresh_token"].includes(key)) return violation(`unknown token field ${key}`);
    if (form.get("client_id") !== CLIENT_ID || form.get("client_secret") !== CLIENT_SECRET)
      return new Answer(401, { error: "invalid_client", error_description: "Client authentication failed" });
    const grant = form.get("grant_type");
    if (grant === "authorization_code") {
      const code = form.get("code") ?? "";
      const redirect = codes.get(code);
      if (!form.get("redirect_uri")) return violation("redirect_uri is required with an authorization code");
      if (!redirect || redirect !== form.get("redirect_uri"))
        return new Answer(400, {
          error: "invalid_grant",
          error_description: "The authorization code is invalid, expired or was issued to another redirect URI",
        });
      codes.delete(code);
      grants.authorization_code++;
      const { access, refresh } = issueTokens();
      return new Answer(200, { token_type: "bearer", access_token: access, refresh_token: refresh, expires_in: tokenSeconds });
    }
    if (grant === "refresh_token") {
      const refresh = form.get("refresh_token") ?? "";
      if (!refreshTokens.has(refresh)) return new Answer(400, { error: "invalid_grant", error_description: "The refresh token is invalid or was revoked" });
      grants.refresh_token++;
      const access = randomBytes(16).toString("hex");
      accessTokens.set(access, Date.now() + tokenSeconds * 1000);
      // Clio keeps the refresh token: the answer carries none.
      return new Answer(200, { token_type: "bearer", access_token: access, expires_in: tokenSeconds });
    }
    return new Answer(400, { error: "unsupported_grant_type", error_description: `grant_type ${grant ?? "(none)"} is not supported` });
  }

  function authorize(url: URL): Answer {
    const redirect = url.searchParams.get("redirect_uri");
    if (url.searchParams.get("response_type") !== "code" || !redirect || !url.searchParams.get("state"))
      return violation("authorize needs response_type=code, redirect_uri and state");
    if (url.searchParams.get("client_id") !== CLIENT_ID) return new Answer(400, { error: "invalid_client", error_description: "Unknown client_id" });
    const code = issueCode(redirect);
    const back = new URL(redirect);
    back.searchParams.set("code", code);
    back.searchParams.set("state", url.searchParams.get("state")!);
    return new Answer(302, null, { location: back.toString() });
  }

  function issueCode(redirectUri: string) {
    const code = randomBytes(12).toString("hex");
    codes.set(code, redirectUri);
    return code;
  }

  async function route(req: http.IncomingMessage, url: URL, body: Buffer): Promise<Answer> {
    const method = req.method ?? "GET";
    const path = url.pathname;
    if (method === "GET" && path === "/oauth/authorize") return authorize(url);
    if (method === "POST" && path === "/oauth/token") {
      if (!String(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded"))
        return violation("the token request must be form-encoded");
      return token(new URLSearchParams(body.toString("utf8")));
    }
    const upload = /^\/uploads\/([\w-]+)$/.exec(path);
    if (method === "PUT" && upload) {
      const doc = [...documents.values()].find((d) => d.version.uuid === upload[1]);
      if (!doc || url.searchParams.get("X-Amz-Signature") !== doc.version.putToken)
        return new Answer(403, { error: { type: "AccessDenied", message: "Signature does not match" } });
      for (const header of PUT_HEADERS)
        if (req.headers[header.name.toLowerCase()] !== header.value) return violation(`the upload must carry put header ${header.name}: ${header.value}`);
      if (req.headers.authorization) return violation("the upload must not carry Clio's token");
      doc.version.bytes = body;
      return new Answer(200, null);
    }

    const refused = bearer(req);
    if (refused) return refused;
    const json = (): Record<string, unknown> | null => {
      if (!String(req.headers["content-type"] ?? "").startsWith("application/json")) return null;
      try {
        const parsed = JSON.parse(body.toString("utf8")) as { data?: unknown };
        return parsed && typeof parsed.data === "object" && parsed.data !== null ? (parsed.data as Record<string, unknown>) : null;
      } catch {
        return null;
      }
    };

    if (method === "GET" && path === "/api/v4/users/who_am_i.json") {
      const bad = checkQuery(url, ["fields"]);
      if (bad) return bad;
      const fields = url.searchParams.has("fields") ? parseFields(url.searchParams.get("fields")!) : null;
      return new Answer(200, { data: project(USER, fields) });
    }
    if (method === "GET" && path === "/api/v4/matters.json") {
      const bad = checkQuery(url, ["fields", "query", "ids", "limit", "page_token", "status"]) ?? checkFields(url, MATTER_FIELDS);
      if (bad) return bad;
      const ids = url.searchParams.get("ids");
      const query = url.searchParams.get("query");
      const found = [...matters.values()].filter(
        (m) => (!ids || String(m.id) === ids) && (wildcard(m.display_number, query) || wildcard(m.description, query)),
      );
      return page(url, found as unknown as Record<string, unknown>[]);
    }
    if (method === "GET" && path === "/api/v4/folders.json") {
      const bad =
        checkQuery(url, ["fields", "query", "matter_id", "parent_id", "limit", "page_token", "external_property_name", "external_property_value"]) ??
        checkFields(url, ITEM_FIELDS);
      if (bad) return bad;
      const matterId = url.searchParams.get("matter_id");
      const parentId = url.searchParams.get("parent_id");
      const found = [...folders.values()].filter(
        (f) =>
          (!matterId || String(f.matterId) === matterId) && (!parentId || String(f.parent) === parentId) && wildcard(f.name, url.searchParams.get("query")),
      );
      return page(
        url,
        found.map((f) => ({
          id: f.id,
          name: f.name,
          root: f.id === rootFolder.id,
          parent: f.parent === null ? null : linkedFolder(f.parent),
          matter: f.matterId === null ? null : { id: f.matterId },
        })),
      );
    }
    if (method === "POST" && path === "/api/v4/folders.json") {
      const bad = checkQuery(url, ["fields"]);
      if (bad) return bad;
      const data = json();
      const parent = parseParent(data?.parent);
      if (!data || typeof data.name !== "string" || !data.name.trim() || !parent) return violation("a folder needs data.name and data.parent {id, type}");
      const into = folderOf(parent);
      if (!into) return apiError(404, "NotFound", "The parent could not be found");
      if ([...folders.values()].some((f) => f.parent === into.id && f.name.toLowerCase() === (data.name as string).toLowerCase()))
        return apiError(422, "UnprocessableEntity", "Name has already been taken");
      const folder: Folder = { id: ++nextId, name: data.name, parent: into.id, matterId: into.matterId };
      folders.set(folder.id, folder);
      const fields = url.searchParams.has("fields") ? parseFields(url.searchParams.get("fields")!) : null;
      return new Answer(201, { data: project({ id: folder.id, name: folder.name, parent: linkedFolder(into.id) }, fields) });
    }
    if (method === "GET" && path === "/api/v4/documents.json") {
      const bad =
        checkQuery(url, [
          "fields",
          "query",
          "matter_id",
          "parent_id",
          "limit",
          "page_token",
          "show_uncompleted",
          "external_property_name",
          "external_property_value",
        ]) ?? checkFields(url, ITEM_FIELDS);
      if (bad) return bad;
      const matterId = url.searchParams.get("matter_id");
      const parentId = url.searchParams.get("parent_id");
      const uncompleted = url.searchParams.get("show_uncompleted") === "true";
      const found = [...documents.values()].filter(
        (d) =>
          (!matterId || String(d.matterId) === matterId) &&
          (!parentId || String(d.parent) === parentId) &&
          (uncompleted || d.version.fully_uploaded) &&
          wildcard(d.name, url.searchParams.get("query")) &&
          hasProperty(d.external_properties, url),
      );
      return page(url, found.map(docRecord));
    }
    if (method === "POST" && path === "/api/v4/documents.json") {
      const bad = checkQuery(url, ["fields"]);
      if (bad) return bad;
      const data = json();
      const parent = parseParent(data?.parent);
      const props = parseProperties(data?.external_properties);
      if (!data || typeof data.name !== "string" || !data.name.trim() || !parent || !props)
        return violation("a document needs data.name, data.parent {id, type} and well-formed external_properties");
      for (const key of Object.keys(data))
        if (!["name", "parent", "content_type", "external_properties", "filename", "received_at", "document_category"].includes(key))
          return violation(`unknown document field ${key}`);
      const into = folderOf(parent);
      if (!into) return apiError(404, "NotFound", "The parent could not be found");
      if (into.matterId === null) return violation("a filed document must go into a matter's folder");
      const doc: Doc = {
        id: ++nextId,
        name: data.name,
        parent: into.id,
        matterId: into.matterId,
        content_type: typeof data.content_type === "string" ? data.content_type : "application/octet-stream",
        external_properties: props,
        version: { uuid: randomUUID(), fully_uploaded: false, bytes: null, putToken: randomBytes(8).toString("hex") },
      };
      documents.set(doc.id, doc);
      const fields = url.searchParams.has("fields") ? parseFields(url.searchParams.get("fields")!) : null;
      return new Answer(201, { data: project(docRecord(doc), fields) });
    }
    const one = /^\/api\/v4\/documents\/(\d+)\.json$/.exec(path);
    if (one && (method === "PATCH" || method === "DELETE")) {
      const doc = documents.get(Number(one[1]));
      if (!doc) return apiError(404, "NotFound", "The document could not be found");
      if (method === "DELETE") {
        if (url.search) return violation("DELETE takes no parameters");
        documents.delete(doc.id);
        return new Answer(204, null);
      }
      const bad = checkQuery(url, ["fields"]);
      if (bad) return bad;
      const data = json();
      if (!data || data.uuid !== doc.version.uuid || data.fully_uploaded !== true)
        return violation("completing an upload needs data.uuid of the version and fully_uploaded: true");
      if (!doc.version.bytes) return apiError(422, "UnprocessableEntity", "The document version has no content yet");
      doc.version.fully_uploaded = true;
      const fields = url.searchParams.has("fields") ? parseFields(url.searchParams.get("fields")!) : null;
      return new Answer(200, { data: project(docRecord(doc), fields) });
    }
    if (method === "GET" && path === "/api/v4/calendar_entries.json") {
      const bad = checkQuery(url, ["fields", "matter_id", "limit", "page_token", "external_property_name", "external_property_value", "calendar_id"]);
      if (bad) return bad;
      return page(url, calendar.filter((e) => hasProperty(e.external_properties, url)) as unknown as Record<string, unknown>[]);
    }
    if (method === "POST" && path === "/api/v4/calendar_entries.json") {
      const bad = checkQuery(url, ["fields"]);
      if (bad) return bad;
      const data = json();
      const props = parseProperties(data?.external_properties);
      const owner = data?.calendar_owner as { id?: unknown } | undefined;
      const matter = data?.matter as { id?: unknown } | undefined;
      const iso = (v: unknown) => typeof v === "string" && !Number.isNaN(Date.parse(v)) && /[+-]\d{2}:\d{2}$|Z$/.test(v);
      if (!data || typeof data.summary !== "string" || !iso(data.start_at) || !iso(data.end_at) || typeof owner?.id !== "number" || !props)
        return violation("a calendar entry needs summary, start_at and end_at (ISO-8601 with offset) and calendar_owner {id}");
      if (matter !== undefined && !matters.has(Number(matter.id))) return apiError(404, "NotFound", "The matter could not be found");
      const entry: CalendarEntry = {
        id: ++nextId,
        summary: data.summary,
        description: typeof data.description === "string" ? data.description : "",
        start_at: data.start_at as string,
        end_at: data.end_at as string,
        all_day: data.all_day === true,
        matter: { id: Number(matter?.id) },
        calendar_owner: { id: owner.id },
        external_properties: props,
      };
      calendar.push(entry);
      return new Answer(201, { data: { id: entry.id } });
    }
    return violation(`no such endpoint: ${method} ${path}`);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", origin);
        log.push(`${req.method} ${url.pathname}`);
        const hang = hangs.findIndex((path) => path.test(url.pathname));
        if (hang >= 0) {
          hangs.splice(hang, 1);
          return;
        }
        const failure = failures.find((f) => f.remaining > 0 && (!f.path || f.path.test(url.pathname)));
        let answer: Answer;
        if (failure) {
          failure.remaining--;
          const headers: Record<string, string> = failure.retryAfterSeconds !== undefined ? { "retry-after": String(failure.retryAfterSeconds) } : {};
          const type = failure.status === 429 ? "RateLimited" : failure.status >= 500 ? "InternalServerError" : "Forbidden";
          const message =
            failure.status === 429 ? "Rate limit exceeded" : failure.status >= 500 ? "Something went wrong" : "You do not have permission to do that";
          answer = new Answer(failure.status, { error: { type, message } }, headers);
        } else {
          answer = await route(req, url, Buffer.concat(chunks));
        }
        const headers: Record<string, string> = { ...answer.headers };
        if (answer.body !== null) headers["content-type"] = "application/json; charset=utf-8";
        res.writeHead(answer.status, headers);
        res.end(answer.body === null ? undefined : JSON.stringify(answer.body));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const held = () =>
    [...documents.values()].map((d) => ({
      folder: folderPath(d.parent),
      name: d.name,
      bytes: d.version.bytes ?? Buffer.alloc(0),
      properties: Object.fromEntries(d.external_properties.map((p) => [p.name, p.value])),
      link: link(d.id),
      matterId: d.matterId,
      fullyUploaded: d.version.fully_uploaded,
    }));

  return {
    origin,
    credentialSettings: () => ({ region: "us", client_id: CLIENT_ID, client_secret: CLIENT_SECRET, create_calendar_entries: true, calendar_id: USER.id }),
    documents: () => held().filter((d) => d.fullyUploaded),
    held,
    folders: () => [...folders.values()].filter((f) => f.parent !== null && !isMatterFolder(f)).map((f) => folderPath(f.id)),
    failNext(status, opts = {}) {
      failures.push({ status, remaining: opts.count ?? 1, retryAfterSeconds: opts.retryAfterSeconds, path: opts.path });
    },
    contractViolations: () => [...violations],
    requests: () => [...log],
    grants: () => ({ ...grants }),
    issueCode,
    revokeAccessTokens() {
      accessTokens = new Map();
    },
    revokeRefreshTokens() {
      refreshTokens = new Set();
    },
    addMatter,
    seed(matterId, folderNames, name) {
      let parent = matters.get(matterId)!.folder.id;
      for (const folderName of folderNames) {
        let folder = [...folders.values()].find((f) => f.parent === parent && f.name === folderName);
        if (!folder) {
          folder = { id: ++nextId, name: folderName, parent, matterId };
          folders.set(folder.id, folder);
        }
        parent = folder.id;
      }
      const doc: Doc = {
        id: ++nextId,
        name,
        parent,
        matterId,
        content_type: "application/pdf",
        external_properties: [],
        version: { uuid: randomUUID(), fully_uploaded: true, bytes: Buffer.from("someone else's"), putToken: "x" },
      };
      documents.set(doc.id, doc);
      return doc.id;
    },
    seedHalfUploaded(matterId, name, key) {
      const doc: Doc = {
        id: ++nextId,
        name,
        parent: matters.get(matterId)!.folder.id,
        matterId,
        content_type: "application/pdf",
        external_properties: [{ name: "ecfx_filing", value: key }],
        version: { uuid: randomUUID(), fully_uploaded: false, bytes: null, putToken: "y" },
      };
      documents.set(doc.id, doc);
      return doc.id;
    },
    calendarEntries: () => [...calendar],
    hangNext(path) {
      hangs.push(path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
