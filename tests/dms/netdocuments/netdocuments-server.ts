import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { HeldDocument, VendorTestServer } from "../vendor-test-server";

// A local NetDocuments: the REST v1 calls the client makes, on a loopback port, to the contract
// docs/dms/netdocuments.md describes (NetDocuments publishes no OpenAPI description, so every
// request is checked here by hand): /v1/OAuth (refresh-token and client-credentials grants,
// tokens that expire, refresh tokens that rotate), the signed-in user, a cabinet's info and
// folders, a folder's content (paged by `next`), folder creation, document upload (multipart)
// and download. Requests off the contract are answered 400 and recorded.

export interface NetDocumentsServerOptions {
  /** Which credential's settings credentialSettings() gives: the cloud one (default) or the service account's. */
  kind?: "cloud" | "client";
  /** Lifetime of the access tokens it issues. */
  tokenLifetimeSeconds?: number;
  /** Items per page of a folder's content. */
  pageSize?: number;
}

export interface NetDocumentsTestServer extends VendorTestServer {
  /** The grant types of the token requests it answered with a token, in order. */
  grants(): string[];
  /** "METHOD /path" of every request, in order. */
  requests(): string[];
  /** The refresh token a cloud credential would use now (it rotates with each use). */
  currentRefreshToken(): string;
  /** Revokes every access token issued so far (the next call with one gets 401). */
  revokeAccessTokens(): void;
  /** The next request to a path matching `path` is read and then never answered. */
  hangNext(path: RegExp): void;
  /** Settings of a credential of either type that signs in here. */
  credentialSettingsFor(kind: "cloud" | "client"): Record<string, unknown>;
  /** Adds a folder (by name path) and a document in it, as if someone had filed it. */
  addDocument(folder: string[], name: string, extension: string, bytes: Buffer): void;
  /**
   * Adds the matter workspace of `client` and `matter` in the cabinet (documents held in it list
   * the workspace's name as their first folder).
   */
  addWorkspace(client: string, matter: string, name: string): void;
  /** Makes the current refresh token invalid (revoked, or unused past its lifetime). */
  revokeRefreshToken(): void;
}

const CABINET = { id: "NG-ECFX0001", name: "Matters" };
const APP = { clientId: "AP-ECFX0001", secret: "ecfx-app-secret" };
const SERVICE = { clientId: "AP-ECFXSVC1", secret: "ecfx-service-secret", repository: "CA-ECFX0001" };
const USER = { id: "ECFXFILING", displayName: "ECFX Filing", email: "filing@firm.example" };
const FOLDER_EXTENSION = "ndfld";
const MAX_BODY = 32 * 1024 * 1024;

interface Folder {
  id: string;
  name: string;
  parent: string | null;
  /** A matter workspace: its client and matter, the cabinet's workspace attributes. */
  workspace?: { client: string; matter: string };
}
interface Stored {
  id: string;
  name: string;
  extension: string;
  folder: string | null;
  bytes: Buffer;
  profile: Record<string, string>;
}
interface Failure {
  status: number;
  left: number;
  retryAfterSeconds?: number;
  path?: RegExp;
}

class ContractViolation extends Error {}

const FAILURE_BODIES: Record<number, string> = {
  401: "The access token is not valid",
  403: "Access to this cabinet is denied",
  404: "The resource was not found",
  429: "Too many requests: the API rate limit was exceeded",
};

export async function startNetDocumentsServer(options: NetDocumentsServerOptions = {}): Promise<NetDocumentsTestServer> {
  const lifetime = options.tokenLifetimeSeconds ?? 3600;
  const pageSize = options.pageSize ?? 100;
  const folders = new Map<string, Folder>();
  const documents = new Map<string, Stored>();
  const accessTokens = new Map<string, number>();
  let refreshToken = `rt-${randomBytes(12).toString("hex")}`;
  const failures: Failure[] = [];
  const hangs: RegExp[] = [];
  const violations: string[] = [];
  const grants: string[] = [];
  const requests: string[] = [];
  let sequence = 4800;
  const nextId = () => `${++sequence}-0000-${String(sequence % 10000).padStart(4, "0")}`;
  let origin = "";
  const codes = new Map<string, string>();

  const link = (id: string) => `${origin}/neWeb2/goID.aspx?id=${id}`;
  const pathOf = (folderId: string | null): string[] => {
    const names: string[] = [];
    for (let at = folderId ? folders.get(folderId) : undefined; at; at = at.parent ? folders.get(at.parent) : undefined) names.unshift(at.name);
    return names;
  };
  const folderAttributes = (folder: Folder) => ({
    id: folder.id,
    envId: `:Q1:${folder.id}.nev`,
    name: folder.name,
    extension: folder.workspace ? "ndws" : FOLDER_EXTENSION,
    url: link(folder.id),
  });
  const documentAttributes = (doc: Stored) => ({
    id: doc.id,
    envId: `:Q1:${doc.id}.nev`,
    name: doc.name,
    extension: doc.extension,
    size: doc.bytes.length,
    url: link(doc.id),
  });
  // A workspace is no folder of the cabinet: it is found by its client and matter.
  const childFolders = (parent: string | null) => [...folders.values()].filter((f) => f.parent === parent && !f.workspace);
  const makeFolder = (name: string, parent: string | null): Folder => {
    const folder = { id: nextId(), name, parent };
    folders.set(folder.id, folder);
    return folder;
  };

  const violation = (message: string): never => {
    throw new ContractViolation(message);
  };
  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(text)), ...headers });
    res.end(text);
  };

  async function readBody(req: http.IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY) violation("request body too large");
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  function formOf(req: http.IncomingMessage, body: Buffer): URLSearchParams {
    if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded"))
      violation(`${req.url}: body must be application/x-www-form-urlencoded`);
    return new URLSearchParams(body.toString("utf8"));
  }

  function bearer(req: http.IncomingMessage): string {
    const header = req.headers.authorization ?? "";
    if (!/^Bearer \S+$/.test(header)) violation(`${req.method} ${req.url}: no bearer token`);
    return header.slice("Bearer ".length);
  }

  function checkQuery(url: URL, allowed: string[]) {
    for (const key of url.searchParams.keys()) if (!allowed.includes(key)) violation(`${url.pathname}: unknown query parameter ${key}`);
  }

  function token(res: http.ServerResponse, req: http.IncomingMessage, body: Buffer) {
    if (req.method !== "POST") violation("/v1/OAuth takes POST only");
    const form = formOf(req, body);
    const basic = /^Basic (\S+)$/.exec(req.headers.authorization ?? "");
    if (!basic) violation("/v1/OAuth: the client must authenticate with HTTP Basic");
    const decoded = Buffer.from(basic![1]!, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const [client, secret] = colon < 0 ? [decoded, ""] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
    const grant = form.get("grant_type");
    const issue = (withRefresh: boolean) => {
      const access = `at-${randomBytes(12).toString("hex")}`;
      accessTokens.set(access, Date.now() + lifetime * 1000);
      grants.push(grant!);
      const answer: Record<string, unknown> = { access_token: access, token_type: "bearer", expires_in: lifetime };
      if (withRefresh) {
        refreshToken = `rt-${randomBytes(12).toString("hex")}`;
        answer.refresh_token = refreshToken;
      }
      send(res, 200, answer);
    };
    if (grant === "authorization_code") {
      const code = form.get("code") ?? "";
      const redirect = form.get("redirect_uri");
      if (!redirect) violation("/v1/OAuth: authorization_code grant without redirect_uri");
      if (client !== APP.clientId || secret !== APP.secret)
        return send(res, 401, { error: "invalid_client", error_description: "Client authentication failed" });
      if (codes.get(code) !== redirect)
        return send(res, 400, { error: "invalid_grant", error_description: "The authorization code is invalid or has expired" });
      codes.delete(code);
      return issue(true);
    }
    if (grant === "refresh_token") {
      const offered = form.get("refresh_token");
      if (!offered) violation("/v1/OAuth: refresh_token grant without refresh_token");
      if (client !== APP.clientId || secret !== APP.secret)
        return send(res, 401, { error: "invalid_client", error_description: "Client authentication failed" });
      if (offered !== refreshToken) return send(res, 400, { error: "invalid_grant", error_description: "The refresh token is invalid or has expired" });
      return issue(true);
    }
    if (grant === "client_credentials") {
      if (!form.get("scope")) violation("/v1/OAuth: client_credentials grant without scope");
      const [clientId, repository] = client.split("|");
      if (clientId !== SERVICE.clientId || secret !== SERVICE.secret)
        return send(res, 401, { error: "invalid_client", error_description: "Client authentication failed" });
      if (repository !== SERVICE.repository)
        return send(res, 400, { error: "invalid_request", error_description: "The repository is not mapped to this service account" });
      return issue(false);
    }
    return violation(`/v1/OAuth: unknown grant_type ${grant}`);
  }

  async function upload(res: http.ServerResponse, req: http.IncomingMessage, body: Buffer) {
    const type = req.headers["content-type"] ?? "";
    if (!type.startsWith("multipart/form-data")) violation("/v1/Document: upload must be multipart/form-data");
    const form = await new Response(Uint8Array.from(body), { headers: { "content-type": type } }).formData();
    const text = (key: string, required = true): string | null => {
      const value = form.get(key);
      if (value === null) return required ? violation(`/v1/Document: ${key} is missing`) : null;
      if (typeof value !== "string") return violation(`/v1/Document: ${key} must be a text field`);
      return value;
    };
    if (text("action") !== "upload") violation("/v1/Document: action must be upload");
    const cabinet = text("cabinet");
    const name = text("name")!;
    const extension = text("extension")!;
    const destination = text("destination", false);
    const profileText = text("profile", false);
    const file = form.get("file");
    if (file === null || typeof file === "string") return violation("/v1/Document: file must be a file part");
    if (name === "" || name.length > 200 || /[\\/:*?"<>|]/.test(name)) return violation(`/v1/Document: name "${name}" breaks NetDocuments' name rules`);
    const profile: Record<string, string> = {};
    if (profileText !== null) {
      const parsed = JSON.parse(profileText) as unknown;
      if (!Array.isArray(parsed)) return violation("/v1/Document: profile must be a JSON array");
      for (const entry of parsed as { id?: unknown; value?: unknown }[]) {
        if (!Number.isInteger(entry?.id) || typeof entry?.value !== "string") return violation("/v1/Document: profile entries are {id: number, value: string}");
        profile[String(entry.id)] = entry.value;
      }
    }
    if (cabinet !== CABINET.id) return send(res, 404, { error: `Cabinet ${cabinet} was not found` });
    if (destination !== null && !folders.has(destination)) return send(res, 404, { error: `Folder ${destination} was not found` });
    const doc: Stored = { id: nextId(), name, extension, folder: destination, bytes: Buffer.from(await file.arrayBuffer()), profile };
    documents.set(doc.id, doc);
    send(res, 200, documentAttributes(doc));
  }

  async function route(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) {
    const url = new URL(req.url ?? "/", origin);
    const path = url.pathname;
    const method = req.method ?? "GET";
    if (path === "/v1/OAuth") return token(res, req, body);
    if (path === "/neWeb2/OAuth.aspx") {
      // The person signs in and approves at once: back to the redirect URI with a code.
      if (method !== "GET") violation(`${method} ${path}: GET only`);
      const redirect = url.searchParams.get("redirect_uri");
      const state = url.searchParams.get("state");
      if (url.searchParams.get("response_type") !== "code" || !redirect || !state || !url.searchParams.get("scope"))
        return violation("/neWeb2/OAuth.aspx needs response_type=code, scope, redirect_uri and state");
      if (url.searchParams.get("client_id") !== APP.clientId) return send(res, 400, { error: "invalid_client" });
      const code = randomBytes(10).toString("hex");
      codes.set(code, redirect);
      const back = new URL(redirect);
      back.searchParams.set("code", code);
      back.searchParams.set("state", state);
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    const presented = bearer(req);
    const expires = accessTokens.get(presented);
    if (expires === undefined || expires < Date.now())
      return send(res, 401, { error: "invalid_token", error_description: "The access token is invalid or has expired" });
    const get = () => {
      if (method !== "GET") violation(`${method} ${path}: GET only`);
    };
    let match: RegExpExecArray | null;
    if (path === "/v1/User/info") {
      get();
      return send(res, 200, USER);
    }
    if ((match = /^\/v1\/Cabinet\/([^/]+)\/(info|folders)$/.exec(path))) {
      get();
      checkQuery(url, []);
      if (decodeURIComponent(match[1]!) !== CABINET.id) return send(res, 404, { error: `Cabinet ${match[1]} was not found` });
      return send(res, 200, match[2] === "info" ? CABINET : childFolders(null).map(folderAttributes));
    }
    if ((match = /^\/v1\/Workspace\/([^/]+)\/([^/]+)\/([^/]+)\/info$/.exec(path))) {
      get();
      checkQuery(url, []);
      const [cabinet, client, matter] = [match[1]!, match[2]!, match[3]!].map(decodeURIComponent);
      if (cabinet !== CABINET.id) return send(res, 404, { error: `Cabinet ${cabinet} was not found` });
      const workspace = [...folders.values()].find((f) => f.workspace?.client === client && f.workspace?.matter === matter);
      if (!workspace) return send(res, 404, { error: `No workspace for ${client}/${matter}` });
      return send(res, 200, { standardAttributes: folderAttributes(workspace) });
    }
    if ((match = /^\/v1\/Folder\/([^/]+)$/.exec(path))) {
      get();
      checkQuery(url, ["$select", "$skiptoken"]);
      const folder = folders.get(decodeURIComponent(match[1]!));
      if (!folder) return send(res, 404, { error: `Folder ${match[1]} was not found` });
      const items = [
        ...childFolders(folder.id).map(folderAttributes),
        ...[...documents.values()].filter((d) => d.folder === folder.id).map(documentAttributes),
      ];
      const start = Number(url.searchParams.get("$skiptoken") ?? 0);
      const page = items.slice(start, start + pageSize);
      const more = start + pageSize < items.length;
      return send(res, 200, { standardList: page, ...(more ? { next: String(start + pageSize) } : {}) });
    }
    if (path === "/v1/Folder") {
      if (method !== "POST") violation("/v1/Folder: POST only");
      const form = formOf(req, body);
      const name = form.get("name");
      const cabinet = form.get("cabinet");
      const parent = form.get("parent");
      if (!name || !cabinet) return violation("/v1/Folder: name and cabinet are required");
      if (name.length > 200 || /[\\/:*?"<>|]/.test(name)) return violation(`/v1/Folder: name "${name}" breaks NetDocuments' name rules`);
      if (cabinet !== CABINET.id) return send(res, 404, { error: `Cabinet ${cabinet} was not found` });
      if (parent && !folders.has(parent)) return send(res, 404, { error: `Folder ${parent} was not found` });
      return send(res, 200, folderAttributes(makeFolder(name, parent || null)));
    }
    if (path === "/v1/Document") {
      if (method !== "POST") violation("/v1/Document: POST only");
      return upload(res, req, body);
    }
    if ((match = /^\/v1\/Document\/([^/]+)$/.exec(path))) {
      get();
      const doc = documents.get(decodeURIComponent(match[1]!));
      if (!doc) return send(res, 404, { error: `Document ${match[1]} was not found` });
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(doc.bytes.length) });
      return res.end(doc.bytes);
    }
    return violation(`${method} ${path} is not a call of the contract`);
  }

  async function serve(req: http.IncomingMessage, res: http.ServerResponse, path: string) {
    const body = await readBody(req);
    const hang = hangs.findIndex((pattern) => pattern.test(path));
    if (hang >= 0) {
      // Read and never answered: the client's time-out is what ends it.
      hangs.splice(hang, 1);
      return;
    }
    const failure = failures.find((f) => !f.path || f.path.test(path));
    if (failure) {
      if (--failure.left <= 0) failures.splice(failures.indexOf(failure), 1);
      const headers: Record<string, string> = failure.retryAfterSeconds === undefined ? {} : { "retry-after": String(failure.retryAfterSeconds) };
      return send(res, failure.status, { error: FAILURE_BODIES[failure.status] ?? "The service is unavailable" }, headers);
    }
    await route(req, res, body);
  }

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    requests.push(`${req.method} ${path}`);
    serve(req, res, path).catch((error: unknown) => {
      violations.push(error instanceof ContractViolation ? error.message : `${req.method} ${path}: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) send(res, 400, { error: error instanceof Error ? error.message : "The request could not be read" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const settingsFor = (kind: "cloud" | "client"): Record<string, unknown> =>
    kind === "client"
      ? {
          client_id: SERVICE.clientId,
          client_secret: SERVICE.secret,
          repository: SERVICE.repository,
          default_cabinet: CABINET.id,
          author_field: "3",
          region: "US",
          folder_creation_sync_delay: 0,
          create_folders: true,
        }
      : {
          basic_auth: Buffer.from(`${APP.clientId}:${APP.secret}`).toString("base64"),
          refresh_token: refreshToken,
          recent_access_token: "",
          cloud_environment: "US",
          default_cabinet: CABINET.id,
          author_field: "3",
          folder_creation_sync_delay: 0,
        };

  return {
    origin,
    credentialSettings: () => settingsFor(options.kind ?? "cloud"),
    credentialSettingsFor: settingsFor,
    documents: (): HeldDocument[] =>
      [...documents.values()].map((doc) => ({
        folder: pathOf(doc.folder),
        name: doc.extension ? `${doc.name}.${doc.extension}` : doc.name,
        bytes: doc.bytes,
        properties: { ...doc.profile },
        link: link(doc.id),
      })),
    folders: () => [...folders.values()].map((f) => pathOf(f.id)),
    failNext: (status, opts = {}) => {
      failures.push({ status, left: opts.count ?? 1, retryAfterSeconds: opts.retryAfterSeconds, path: opts.path });
    },
    contractViolations: () => [...violations],
    grants: () => [...grants],
    requests: () => [...requests],
    currentRefreshToken: () => refreshToken,
    revokeAccessTokens: () => accessTokens.clear(),
    hangNext: (path) => {
      hangs.push(path);
    },
    revokeRefreshToken: () => {
      refreshToken = `rt-revoked-${randomBytes(6).toString("hex")}`;
    },
    addWorkspace: (client, matter, name) => {
      const workspace: Folder = { id: nextId(), name, parent: null, workspace: { client, matter } };
      folders.set(workspace.id, workspace);
    },
    addDocument: (folder, name, extension, bytes) => {
      let parent: string | null = null;
      for (const segment of folder) parent = (childFolders(parent).find((f) => f.name === segment) ?? makeFolder(segment, parent)).id;
      const doc: Stored = { id: nextId(), name, extension, folder: parent, bytes, profile: {} };
      documents.set(doc.id, doc);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
