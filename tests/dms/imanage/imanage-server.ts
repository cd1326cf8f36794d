import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { HeldDocument, VendorTestServer } from "../vendor-test-server";

// A local iManage Work server for tests: the Work API v2 calls ECFX makes, on 127.0.0.1, with
// iManage's paths, status codes and JSON shapes (docs/dms/imanage.md lists them): the OAuth 2
// token endpoint (password and refresh grants, tokens that expire), discovery (GET /api),
// workspace search, folder children and creation, folder documents, document search and the
// multipart upload. iManage publishes no OpenAPI description, so the server checks each request
// against the documented contract (methods, content types, required and known fields) and
// answers 400 to, and records, any that does not match.

export const IMANAGE_TEST_CUSTOMER = 1;
export const IMANAGE_TEST_LIBRARY = "ACTIVE";
export const IMANAGE_TEST_ROOT_FOLDER = "ACTIVE!100";
/** The matter number of the workspace the server holds, in custom2. */
export const IMANAGE_TEST_MATTER = "2024-0001";
const USER = { id: "ECFXSVC", password: "filing-pass-1", name: "ECFX Service" };
const CLIENT = { id: "ecfx-console", secret: "s3cret-app-key" };
/** Classes the library knows; a profile naming another is refused as iManage refuses it. */
const CLASSES = new Set(["DOC", "PLEADING", "CORR"]);
const SECURITY = new Set(["inherit", "public", "private", "view"]);
const FORBIDDEN = /[\\/:*?"<>|]/;
const PROFILE_FIELDS = new Set(["name", "extension", "comment", "author", "class", "subclass", "default_security"]);
const CUSTOM = /^custom([1-9]|[12][0-9]|30)$/;
const MAX_BODY = 50 * 1024 * 1024;

interface Folder {
  id: string;
  name: string;
  parent: string | null;
  workspace: boolean;
  custom: Record<string, string>;
}

interface Stored {
  id: string;
  folder: string;
  profile: Record<string, string>;
  bytes: Buffer;
}

export interface IManageTestServer extends VendorTestServer {
  /** Settings of an on-premises credential whose base_url is this server. */
  onPremCredentialSettings(): Record<string, unknown>;
  /** The grant types of the token requests iManage answered, in order ("password", "refresh_token"). */
  grants(): string[];
  /** Forgets every issued access token (as iManage does when an administrator ends sessions): the next call answers 401. */
  revokeTokens(): void;
  /** Forgets every refresh token (the app's approval was withdrawn). */
  revokeRefreshTokens(): void;
  /** Files a document as someone else would (not through ECFX), into a folder given by names below the root folder. */
  addDocument(folder: string[], name: string, extension: string, comment?: string): string;
  /** While true, document search finds nothing (iManage's index not yet caught up with new documents). */
  searchLags(lagging: boolean): void;
  /** Every request received, as "METHOD /path". */
  requests(): string[];
  /** A code as iManage sends back after a person approved ECFX (through the tenant's SSO), for `redirectUri`. */
  issueCode(redirectUri: string): string;
  /**
   * Adds a workspace with the given profile fields. A workspace without a field answers without
   * it: iManage leaves empty profile fields out of its answers.
   */
  addWorkspace(name: string, custom: Record<string, string>): string;
  /**
   * While true, workspace search ignores custom-field filters (a library whose search does not
   * cover the field answers every workspace): only the client's own check keeps the matter right.
   */
  searchIgnoresCustomFields(ignoring: boolean): void;
  failNext(status: number, options?: IManageFailureOptions): void;
}

interface Failure {
  status: number;
  remaining: number;
  retryAfterSeconds?: number;
  path?: RegExp;
  method?: string;
}

/** failNext's options, with the method as well: a folder's documents are listed (GET) and uploaded to (POST) on one path. */
export interface IManageFailureOptions {
  count?: number;
  retryAfterSeconds?: number;
  path?: RegExp;
  method?: string;
}

class ContractViolation extends Error {}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
};

/** iManage's Work API error body. */
const apiError = (code: string, message: string) => ({ error: { code, code_message: message } });

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy(new Error("body too large"));
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function checkQuery(url: URL, allowed: RegExp): void {
  for (const key of url.searchParams.keys()) if (!allowed.test(key)) throw new ContractViolation(`unknown query parameter ${key}`);
}

function checkFolderName(name: unknown): string {
  if (typeof name !== "string" || !name.trim() || name.length > 254 || FORBIDDEN.test(name))
    throw new ContractViolation(`folder name ${JSON.stringify(name)} is not one iManage takes`);
  return name;
}

function parseJsonBody(req: http.IncomingMessage, body: Buffer): Record<string, unknown> {
  if (!(req.headers["content-type"] ?? "").startsWith("application/json")) throw new ContractViolation("body is not application/json");
  const parsed = JSON.parse(body.toString("utf8")) as unknown;
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new ContractViolation("body is not a JSON object");
  return parsed as Record<string, unknown>;
}

/** The doc_profile of an upload, checked field by field. */
function checkProfile(value: unknown): Record<string, string> {
  const profile = (typeof value === "object" && value !== null ? (value as { doc_profile?: unknown }).doc_profile : undefined) as
    Record<string, unknown> | undefined;
  if (typeof profile !== "object" || profile === null) throw new ContractViolation("profile part has no doc_profile object");
  for (const [field, fieldValue] of Object.entries(profile)) {
    if (!PROFILE_FIELDS.has(field) && !CUSTOM.test(field)) throw new ContractViolation(`unknown profile field ${field}`);
    if (typeof fieldValue !== "string") throw new ContractViolation(`profile field ${field} is not a string`);
  }
  const name = profile.name;
  if (typeof name !== "string" || !name.trim() || name.length > 254 || FORBIDDEN.test(name))
    throw new ContractViolation(`document name ${JSON.stringify(name)} is not one iManage takes`);
  if (profile.extension !== undefined && !/^[A-Za-z0-9]{0,16}$/.test(profile.extension as string))
    throw new ContractViolation("extension is not one iManage takes");
  return profile as Record<string, string>;
}

export async function startIManageServer(options: { tokenLifetimeSeconds?: number } = {}): Promise<IManageTestServer> {
  const lifetime = options.tokenLifetimeSeconds ?? 1800;
  const folders = new Map<string, Folder>();
  const stored = new Map<string, Stored>();
  const accessTokens = new Map<string, number>();
  const refreshTokens = new Set<string>();
  const failures: Failure[] = [];
  const violations: string[] = [];
  const grantLog: string[] = [];
  const requestLog: string[] = [];
  let nextNumber = 1000;
  let searchLagging = false;
  let ignoreCustomFilters = false;
  /** Codes issued after approval, with the redirect URI they were issued for. */
  const codes = new Map<string, string>();
  const issueCode = (redirectUri: string) => {
    const code = randomBytes(12).toString("hex");
    codes.set(code, redirectUri);
    return code;
  };
  let origin = "";

  folders.set(IMANAGE_TEST_ROOT_FOLDER, { id: IMANAGE_TEST_ROOT_FOLDER, name: "ECFX Filings", parent: null, workspace: false, custom: {} });
  folders.set("ACTIVE!200", {
    id: "ACTIVE!200",
    name: "Acme v. Widget",
    parent: null,
    workspace: true,
    custom: { custom1: "ACME", custom2: IMANAGE_TEST_MATTER },
  });

  const newId = () => `${IMANAGE_TEST_LIBRARY}!${nextNumber++}`;
  const childrenOf = (id: string) => [...folders.values()].filter((folder) => folder.parent === id);
  const folderPath = (id: string): string[] => {
    const names: string[] = [];
    for (let folder = folders.get(id); folder; folder = folder.parent ? folders.get(folder.parent) : undefined) {
      if (folder.id === IMANAGE_TEST_ROOT_FOLDER) break;
      names.unshift(folder.name);
    }
    return names;
  };
  const documentView = (document: Stored) => ({
    id: document.id,
    database: IMANAGE_TEST_LIBRARY,
    document_number: Number(document.id.split("!")[1]?.split(".")[0]),
    version: 1,
    wstype: "document",
    size: document.bytes.length,
    ...document.profile,
  });
  const folderView = (folder: Folder) => ({
    id: folder.id,
    name: folder.name,
    wstype: folder.workspace ? "workspace" : "folder",
    database: IMANAGE_TEST_LIBRARY,
    ...folder.custom,
  });

  function issueToken(res: http.ServerResponse): void {
    const access = randomBytes(18).toString("base64url");
    const refresh = randomBytes(18).toString("base64url");
    accessTokens.set(access, Date.now() + lifetime * 1000);
    refreshTokens.add(refresh);
    json(res, 200, { access_token: access, token_type: "bearer", expires_in: lifetime, refresh_token: refresh, scope: "user" });
  }

  function token(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
    if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded"))
      throw new ContractViolation("token request is not form-urlencoded");
    const form = new URLSearchParams(body.toString("utf8"));
    const grant = form.get("grant_type");
    if (grant !== "password" && grant !== "refresh_token" && grant !== "authorization_code")
      throw new ContractViolation(`grant_type ${grant} is not one ECFX uses`);
    grantLog.push(grant);
    if (form.get("client_id") !== CLIENT.id || form.get("client_secret") !== CLIENT.secret) {
      return json(res, 401, { error: "invalid_client", error_description: "Client authentication failed" });
    }
    if (grant === "authorization_code") {
      const code = form.get("code") ?? "";
      const redirect = form.get("redirect_uri");
      if (!redirect) throw new ContractViolation("authorization_code grant without redirect_uri");
      if (form.get("username") || form.get("password")) throw new ContractViolation("authorization_code grant with a password");
      if (codes.get(code) !== redirect)
        return json(res, 400, { error: "invalid_grant", error_description: "The authorization code is invalid or has expired" });
      codes.delete(code);
      return issueToken(res);
    }
    if (grant === "password") {
      if (!form.get("username") || !form.get("password")) throw new ContractViolation("password grant without username or password");
      if (form.get("username") !== USER.id || form.get("password") !== USER.password) {
        return json(res, 400, { error: "invalid_grant", error_description: "The user name or password is incorrect" });
      }
      return issueToken(res);
    }
    const refresh = form.get("refresh_token") ?? "";
    if (!refreshTokens.delete(refresh)) return json(res, 400, { error: "invalid_grant", error_description: "The refresh token is invalid or has expired" });
    return issueToken(res);
  }

  /** Routes under /work/api/v2/customers/{customer}/libraries/{library}. */
  async function library(req: http.IncomingMessage, res: http.ServerResponse, url: URL, rest: string, body: Buffer): Promise<void> {
    const method = req.method ?? "GET";
    let match: RegExpMatchArray | null;
    if (method === "GET" && rest === "/workspaces") {
      checkQuery(url, /^(name|limit|offset|custom([1-9]|[12][0-9]|30))$/);
      const filters = [...url.searchParams].filter(([key]) => key !== "limit" && key !== "offset");
      const found = [...folders.values()].filter(
        (folder) =>
          folder.workspace && filters.every(([key, value]) => (key === "name" ? folder.name === value : ignoreCustomFilters || folder.custom[key] === value)),
      );
      return json(res, 200, { data: found.slice(0, Number(url.searchParams.get("limit") ?? 25)).map(folderView) });
    }
    if (method === "GET" && (match = rest.match(/^\/(folders|workspaces)\/([^/]+)\/children$/))) {
      checkQuery(url, /^(limit|offset)$/);
      const parent = folders.get(decodeURIComponent(match[2]!));
      if (!parent || parent.workspace !== (match[1] === "workspaces")) return json(res, 404, apiError("NRC_NO_RECORD", "The folder was not found"));
      return json(res, 200, { data: childrenOf(parent.id).map(folderView) });
    }
    if (method === "POST" && (match = rest.match(/^\/(?:folders\/([^/]+)\/subfolders|workspaces\/([^/]+)\/folders)$/))) {
      const parentId = decodeURIComponent((match[1] ?? match[2])!);
      const parent = folders.get(parentId);
      const fields = parseJsonBody(req, body);
      for (const field of Object.keys(fields))
        if (!["name", "default_security", "description"].includes(field)) throw new ContractViolation(`unknown folder field ${field}`);
      const name = checkFolderName(fields.name);
      if (fields.default_security !== undefined && !SECURITY.has(String(fields.default_security)))
        throw new ContractViolation("default_security is not one iManage knows");
      if (!parent || parent.workspace !== Boolean(match[2])) return json(res, 404, apiError("NRC_NO_RECORD", "The parent folder was not found"));
      const folder: Folder = { id: newId(), name, parent: parent.id, workspace: false, custom: {} };
      folders.set(folder.id, folder);
      return json(res, 201, { data: folderView(folder) });
    }
    if (method === "GET" && (match = rest.match(/^\/folders\/([^/]+)\/documents$/))) {
      checkQuery(url, /^(limit|offset)$/);
      const folder = folders.get(decodeURIComponent(match[1]!));
      if (!folder || folder.workspace) return json(res, 404, apiError("NRC_NO_RECORD", "The folder was not found"));
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const limit = Number(url.searchParams.get("limit") ?? 500);
      const inFolder = [...stored.values()].filter((document) => document.folder === folder.id);
      return json(res, 200, { data: inFolder.slice(offset, offset + limit).map(documentView) });
    }
    if (method === "GET" && rest === "/documents") {
      checkQuery(url, /^(comments|name|limit|offset)$/);
      const words = (url.searchParams.get("comments") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
      const found = [...stored.values()].filter(
        (document) => !searchLagging && words.every((word) => (document.profile.comment ?? "").toLowerCase().includes(word)),
      );
      return json(res, 200, { data: found.slice(0, Number(url.searchParams.get("limit") ?? 25)).map(documentView) });
    }
    if (method === "POST" && (match = rest.match(/^\/folders\/([^/]+)\/documents$/))) return upload(req, res, decodeURIComponent(match[1]!), body);
    throw new ContractViolation(`no such operation ${method} ${url.pathname}`);
  }

  async function upload(req: http.IncomingMessage, res: http.ServerResponse, folderId: string, body: Buffer): Promise<void> {
    const contentType = req.headers["content-type"] ?? "";
    if (!contentType.startsWith("multipart/form-data")) throw new ContractViolation("upload is not multipart/form-data");
    const form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
    const profilePart = form.get("profile");
    const filePart = form.get("file");
    if (!(profilePart instanceof Blob) || !profilePart.type.startsWith("application/json"))
      throw new ContractViolation("upload has no application/json profile part");
    if (!(filePart instanceof Blob)) throw new ContractViolation("upload has no file part");
    const profile = checkProfile(JSON.parse(await profilePart.text()) as unknown);
    const folder = folders.get(folderId);
    if (!folder || folder.workspace) return json(res, 404, apiError("NRC_NO_RECORD", "The folder was not found"));
    if (profile.class && !CLASSES.has(profile.class))
      return json(res, 400, apiError("NRC_INVALID_CLASS", `Class '${profile.class}' is not valid in library ${IMANAGE_TEST_LIBRARY}`));
    const document: Stored = { id: `${newId()}.1`, folder: folder.id, profile, bytes: Buffer.from(await filePart.arrayBuffer()) };
    stored.set(document.id, document);
    return json(res, 201, { data: documentView(document) });
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readBody(req);
    const url = new URL(req.url ?? "/", origin);
    const method = req.method ?? "GET";
    requestLog.push(`${method} ${url.pathname}`);
    const failure = failures.find((candidate) => (!candidate.path || candidate.path.test(url.pathname)) && (!candidate.method || candidate.method === method));
    if (failure) {
      if (--failure.remaining <= 0) failures.splice(failures.indexOf(failure), 1);
      const headers: Record<string, string> = failure.retryAfterSeconds === undefined ? {} : { "retry-after": String(failure.retryAfterSeconds) };
      const words =
        failure.status === 429
          ? "Too many requests"
          : failure.status === 403
            ? "The user has no access to this folder"
            : "The server could not complete the request";
      return json(res, failure.status, apiError(failure.status === 429 ? "TOO_MANY_REQUESTS" : `HTTP_${failure.status}`, words), headers);
    }
    try {
      if (url.pathname === "/auth/oauth2/token" && method === "POST") return token(req, res, body);
      if (url.pathname === "/auth/oauth2/authorize" && method === "GET") {
        // The tenant's SSO signs the person in and they approve at once: back with a code.
        const redirect = url.searchParams.get("redirect_uri");
        const state = url.searchParams.get("state");
        if (url.searchParams.get("response_type") !== "code" || !redirect || !state || url.searchParams.get("scope") !== "user")
          throw new ContractViolation("authorize needs response_type=code, redirect_uri, state and scope=user");
        if (url.searchParams.get("client_id") !== CLIENT.id) return json(res, 400, { error: "invalid_client", error_description: "Unknown client_id" });
        const back = new URL(redirect);
        back.searchParams.set("code", issueCode(redirect));
        back.searchParams.set("state", state);
        res.writeHead(302, { location: back.toString() });
        return void res.end();
      }
      const access = String(req.headers["x-auth-token"] ?? "");
      const expires = accessTokens.get(access);
      if (expires === undefined || expires <= Date.now()) return json(res, 401, apiError("AUTH_INVALID_TOKEN", "The access token is not valid"));
      if (url.pathname === "/api" && method === "GET") {
        return json(res, 200, {
          data: {
            auth_status: "authenticated",
            user: { id: USER.id, name: USER.name, customer_id: IMANAGE_TEST_CUSTOMER, email: "ecfx@firm.example" },
            versions: [{ name: "v2", url: `${origin}/work/api/v2`, version: "10.4.0" }],
          },
        });
      }
      const match = url.pathname.match(/^\/work\/api\/v2\/customers\/([^/]+)\/libraries\/([^/]+)(\/.*)$/);
      if (!match) throw new ContractViolation(`no such operation ${method} ${url.pathname}`);
      if (match[1] !== String(IMANAGE_TEST_CUSTOMER)) return json(res, 404, apiError("NRC_NO_CUSTOMER", "The customer was not found"));
      if (decodeURIComponent(match[2]!) !== IMANAGE_TEST_LIBRARY) return json(res, 404, apiError("NRC_NO_LIBRARY", "The library was not found"));
      return await library(req, res, url, match[3]!, body);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      violations.push(`${method} ${url.pathname}: ${reason}`);
      return json(res, 400, apiError("BAD_REQUEST", reason));
    }
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, apiError("INTERNAL", String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const common = {
    username: USER.id,
    password: USER.password,
    client_id: CLIENT.id,
    client_secret: CLIENT.secret,
    database: IMANAGE_TEST_LIBRARY,
    customer_id: IMANAGE_TEST_CUSTOMER,
    folder_id: IMANAGE_TEST_ROOT_FOLDER,
    author_field: "",
    document_class: "PLEADING",
    document_sub_class: "MOTION",
    default_security: "inherit",
    matter_workspace_search: false,
    matter_workspace_search_path: "custom2",
    custom_properties: {},
    folder_creation_sync_delay: 0,
  };

  return {
    origin,
    credentialSettings: () => ({ ...common, cloud_environment: "US" }),
    onPremCredentialSettings: () => ({ ...common, base_url: origin, use_agent: false }),
    documents: (): HeldDocument[] =>
      [...stored.values()].map((document) => {
        const { name = "", extension = "", ...properties } = document.profile;
        return {
          folder: folderPath(document.folder),
          name: extension ? `${name}.${extension}` : name,
          bytes: document.bytes,
          properties,
          link: `${origin}/work/link/d/${encodeURIComponent(document.id)}`,
        };
      }),
    folders: () => [...folders.values()].filter((folder) => folder.id !== IMANAGE_TEST_ROOT_FOLDER).map((folder) => folderPath(folder.id)),
    failNext: (status, failOptions = {}) => {
      failures.push({ status, remaining: failOptions.count ?? 1, ...failOptions });
    },
    contractViolations: () => [...violations],
    grants: () => [...grantLog],
    revokeTokens: () => accessTokens.clear(),
    addDocument: (folderNames, name, extension, comment = "") => {
      let parent = IMANAGE_TEST_ROOT_FOLDER;
      for (const segment of folderNames) {
        const existing = childrenOf(parent).find((folder) => folder.name === segment);
        if (existing) parent = existing.id;
        else {
          const folder: Folder = { id: newId(), name: segment, parent, workspace: false, custom: {} };
          folders.set(folder.id, folder);
          parent = folder.id;
        }
      }
      const document: Stored = {
        id: `${newId()}.1`,
        folder: parent,
        profile: { name, extension, ...(comment ? { comment } : {}) },
        bytes: Buffer.from("someone else's"),
      };
      stored.set(document.id, document);
      return document.id;
    },
    searchLags: (lagging) => {
      searchLagging = lagging;
    },
    issueCode,
    revokeRefreshTokens: () => {
      refreshTokens.clear();
    },
    addWorkspace: (name, custom) => {
      const id = newId();
      folders.set(id, { id, name, parent: null, workspace: true, custom: { ...custom } });
      return id;
    },
    searchIgnoresCustomFields: (ignoring) => {
      ignoreCustomFilters = ignoring;
    },
    requests: () => [...requestLog],
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
