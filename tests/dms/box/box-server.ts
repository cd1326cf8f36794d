import { createHash, randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { HeldDocument, VendorTestServer } from "../vendor-test-server";
import { documentProperties } from "../../../server/dms/box/box-metadata";
import { checkAnswer, checkRequest, contract } from "./box-contract";

// A local Box on a loopback port, to Box's published contract (tests/fixtures/openapi/box):
// the client-credential token grant, the user, folder listing and creation, the preflight check,
// multipart uploads on the upload host's paths (/api/2.0/…), upload sessions (parts, commit,
// abort), file rename and delete, and global-properties metadata. Every request is validated
// against Box's OpenAPI description; one that does not match is answered 400 and recorded.
// Errors use Box's bodies: { type: "error", status, code, message, request_id } for the API,
// { error, error_description } for OAuth, and an empty 401 with WWW-Authenticate for a bad token.

const CLIENT_ID = "ecfx-box-client-id";
const CLIENT_SECRET = "ecfx-box-client-secret";
const ENTERPRISE_ID = "818181";
const SERVICE_ACCOUNT = { id: "30001", name: "ECFX Filing", login: "AutomationUser_818181_x1@boxdevedition.com" };
const APP_USER = { id: "30002", name: "Pat Records", login: "pat.records@firm.example" };
/** Box's smallest upload session and its part size. */
const MIN_SESSION_BYTES = 20_000_000;
const PART_SIZE = 8 * 1024 * 1024;

interface Folder {
  type: "folder";
  id: string;
  name: string;
  parentId: string | null;
}

interface StoredFile {
  type: "file";
  id: string;
  name: string;
  parentId: string;
  bytes: Buffer;
  metadata: Map<string, Record<string, unknown>>;
}

type Item = Folder | StoredFile;

interface UploadSession {
  id: string;
  folderId: string;
  fileName: string;
  fileSize: number;
  parts: Map<number, { part_id: string; offset: number; size: number; sha1: string; bytes: Buffer }>;
}

interface Failure {
  status: number;
  remaining: number;
  retryAfterSeconds?: number;
  path?: RegExp;
}

export interface BoxServerOptions {
  /** A fixed port (the browser tests name it in the product's settings before it starts); ephemeral by default. */
  port?: number;
  /** How long a token lives, in seconds (Box's are about an hour). */
  tokenSeconds?: number;
}

export interface BoxTestServer extends VendorTestServer {
  /** "METHOD /path" of every request, in order. */
  requests(): string[];
  /** Token grants issued so far. */
  tokenGrants(): number;
  /** Makes every token issued so far invalid (Box answers 401 to it). */
  revokeTokens(): void;
  /** Puts a document into a folder path (created as needed), as if someone else filed it, with a global properties instance if given; returns its id. */
  seed(folder: string[], name: string, bytes: Buffer, properties?: Record<string, string>): string;
  /** Upload sessions neither committed nor aborted. */
  openUploadSessions(): number;
  /**
   * The next `commits` commits answer 202 with Retry-After `seconds` and an empty body, as Box
   * does while it is still processing the parts; the session stays open to be committed again.
   */
  assembleSlowly(commits: number, seconds: number): void;
}

class Answer {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

const sha1 = (bytes: Buffer, encoding: "hex" | "base64") => createHash("sha1").update(bytes).digest(encoding);

const ERROR_CODES: Record<number, string> = {
  400: "bad_request",
  403: "access_denied_insufficient_permissions",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  429: "rate_limit_exceeded",
  500: "internal_server_error",
  502: "bad_gateway",
  503: "unavailable",
};

function boxError(status: number, message: string, code = ERROR_CODES[status] ?? "error", contextInfo?: unknown): Answer {
  return new Answer(status, {
    type: "error",
    status,
    code,
    message,
    request_id: randomBytes(6).toString("hex"),
    ...(contextInfo ? { context_info: contextInfo } : {}),
  });
}

const invalidToken = () =>
  new Answer(401, undefined, {
    "www-authenticate": 'Bearer realm="Service", error="invalid_token", error_description="The access token provided is invalid."',
  });

export async function startBoxServer(options: BoxServerOptions = {}): Promise<BoxTestServer> {
  const tokenSeconds = options.tokenSeconds ?? 3600;
  const items = new Map<string, Item>([["0", { type: "folder", id: "0", name: "All Files", parentId: null }]]);
  const tokens = new Map<string, { expiresAt: number; user: typeof SERVICE_ACCOUNT }>();
  const sessions = new Map<string, UploadSession>();
  const failures: Failure[] = [];
  const violations: string[] = [];
  const log: string[] = [];
  let grants = 0;
  let nextId = 1000;
  let origin = "";

  const newId = () => String(nextId++);
  const children = (folderId: string) => [...items.values()].filter((item) => item.parentId === folderId);
  const conflictIn = (folderId: string, name: string, except?: string) =>
    children(folderId).find((item) => item.id !== except && item.name.toLowerCase() === name.toLowerCase());
  const pathOf = (folderId: string | null): string[] => {
    const names: string[] = [];
    for (let id = folderId; id && id !== "0"; id = items.get(id)?.parentId ?? null) names.unshift(items.get(id)!.name);
    return names;
  };
  const folderMini = (folder: Folder) => ({ type: "folder", id: folder.id, sequence_id: "0", etag: "0", name: folder.name });
  const folderFull = (folder: Folder) => ({
    ...folderMini(folder),
    parent: folder.parentId ? folderMini(items.get(folder.parentId) as Folder) : null,
    item_status: "active",
    path_collection: { total_count: pathOf(folder.parentId).length, entries: [] },
  });
  const fileFull = (file: StoredFile) => ({
    type: "file",
    id: file.id,
    sequence_id: "0",
    etag: "0",
    name: file.name,
    size: file.bytes.length,
    sha1: sha1(file.bytes, "hex"),
    file_version: { type: "file_version", id: `${file.id}0`, sha1: sha1(file.bytes, "hex") },
    parent: folderMini(items.get(file.parentId) as Folder),
    item_status: "active",
  });
  const conflict = (item: Item) =>
    boxError(409, "Item with the same name already exists", "item_name_in_use", { conflicts: [item.type === "file" ? fileFull(item) : folderMini(item)] });

  function validName(name: unknown): name is string {
    return typeof name === "string" && name.length > 0 && name.length <= 255 && !/[/\\]/.test(name) && name.trim() === name && name !== "." && name !== "..";
  }

  function addFile(folderId: string, name: string, bytes: Buffer): StoredFile {
    const file: StoredFile = { type: "file", id: newId(), name, parentId: folderId, bytes, metadata: new Map() };
    items.set(file.id, file);
    return file;
  }

  function folderById(id: string): Folder | undefined {
    const item = items.get(id);
    return item?.type === "folder" ? item : undefined;
  }

  /** A listing entry: type, id and etag always, then the fields asked for (or Box's defaults). */
  function entry(item: Item, fields: string[] | undefined): Record<string, unknown> {
    const full: Record<string, unknown> = item.type === "file" ? fileFull(item) : folderFull(item);
    const chosen = fields ?? ["sequence_id", "name", ...(item.type === "file" ? ["sha1", "file_version"] : [])];
    const out: Record<string, unknown> = { type: item.type, id: item.id, etag: "0" };
    for (const field of chosen) {
      const [prefix, scope, template] = field.split(".");
      if (prefix === "metadata" && scope && template) {
        const instance = item.type === "file" ? item.metadata.get(`${scope}.${template}`) : undefined;
        if (instance) out.metadata = { [scope]: { [template]: instance } };
      } else if (field in full) out[field] = full[field];
    }
    return out;
  }

  function listItems(folderId: string, query: URLSearchParams): Answer {
    const folder = folderById(folderId);
    if (!folder) return boxError(404, "Not Found", "not_found");
    const fields = query.get("fields")?.split(",");
    const limit = Math.min(Number(query.get("limit") ?? 100), 1000);
    const all = children(folderId).sort((a, b) => Number(a.id) - Number(b.id));
    if (query.get("usemarker") === "true") {
      const start = query.get("marker") ? Number(Buffer.from(query.get("marker")!, "base64url").toString()) : 0;
      const page = all.slice(start, start + limit);
      const next = start + limit < all.length ? Buffer.from(String(start + limit)).toString("base64url") : null;
      return new Answer(200, { entries: page.map((item) => entry(item, fields)), limit, next_marker: next });
    }
    const offset = Number(query.get("offset") ?? 0);
    return new Answer(200, {
      total_count: all.length,
      entries: all.slice(offset, offset + limit).map((item) => entry(item, fields)),
      offset,
      limit,
      order: [{ by: "type", direction: "ASC" }],
    });
  }

  function grantToken(form: URLSearchParams): Answer {
    if (form.get("grant_type") !== "client_credentials")
      return new Answer(400, { error: "unsupported_grant_type", error_description: "Grant type not supported" });
    if (form.get("client_id") !== CLIENT_ID || form.get("client_secret") !== CLIENT_SECRET) {
      return new Answer(400, { error: "invalid_client", error_description: "The client credentials are invalid" });
    }
    const type = form.get("box_subject_type");
    const subject = form.get("box_subject_id");
    const user = type === "enterprise" && subject === ENTERPRISE_ID ? SERVICE_ACCOUNT : type === "user" && subject === APP_USER.id ? APP_USER : null;
    if (!user) return new Answer(400, { error: "invalid_grant", error_description: "Grant credentials are invalid" });
    const token = randomBytes(16).toString("hex");
    tokens.set(token, { expiresAt: Date.now() + tokenSeconds * 1000, user });
    grants++;
    return new Answer(200, { access_token: token, expires_in: tokenSeconds, restricted_to: [], token_type: "bearer" });
  }

  function sessionEndpoints(id: string) {
    const base = `${origin}/api/2.0/files/upload_sessions/${id}`;
    return { upload_part: base, commit: `${base}/commit`, abort: base, list_parts: `${base}/parts`, status: base, log_event: `${base}/log` };
  }

  let slowCommits = { remaining: 0, seconds: 0 };
  function commitSession(session: UploadSession, body: { parts?: { part_id: string }[] }, digest: string | undefined): Answer {
    if (slowCommits.remaining > 0) {
      slowCommits.remaining--;
      return new Answer(202, undefined, { "retry-after": String(slowCommits.seconds) });
    }
    const parts = [...session.parts.values()].sort((a, b) => a.offset - b.offset);
    const bytes = Buffer.concat(parts.map((part) => part.bytes));
    const listed = new Set((body.parts ?? []).map((part) => part.part_id));
    if (bytes.length !== session.fileSize || parts.some((part) => !listed.has(part.part_id)))
      return boxError(400, "The parts do not make up the file", "bad_request");
    if (digest !== `sha=${sha1(bytes, "base64")}`) return boxError(400, "The digest does not match the file", "bad_digest");
    const taken = conflictIn(session.folderId, session.fileName);
    if (taken) return conflict(taken);
    sessions.delete(session.id);
    return new Answer(201, { total_count: 1, entries: [fileFull(addFile(session.folderId, session.fileName, bytes))] });
  }

  function uploadPart(session: UploadSession, range: string | undefined, digest: string | undefined, bytes: Buffer): Answer {
    const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range ?? "");
    if (!match) return boxError(400, "Content-Range is malformed", "bad_request");
    const [start, end, total] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const lastPart = end === session.fileSize - 1;
    if (total !== session.fileSize || start % PART_SIZE !== 0 || end - start + 1 !== bytes.length || (!lastPart && bytes.length !== PART_SIZE)) {
      return boxError(416, "The part does not fit the session", "range_not_satisfiable");
    }
    if (digest !== `sha=${sha1(bytes, "base64")}`) return boxError(400, "The digest does not match the part", "bad_digest");
    const part = { part_id: randomBytes(4).toString("hex").toUpperCase(), offset: start, size: bytes.length, sha1: sha1(bytes, "hex"), bytes };
    session.parts.set(start, part);
    return new Answer(200, { part: { part_id: part.part_id, offset: part.offset, size: part.size, sha1: part.sha1 } });
  }

  async function multipart(request: http.IncomingMessage, body: Buffer): Promise<{ attributes?: Record<string, unknown>; file?: Buffer; order: string[] }> {
    const form = await new Response(new Uint8Array(body), { headers: { "content-type": request.headers["content-type"] ?? "" } }).formData();
    const order = [...form.keys()];
    const attributes = form.get("attributes");
    const file = form.get("file");
    return {
      attributes: typeof attributes === "string" ? (JSON.parse(attributes) as Record<string, unknown>) : undefined,
      file: file && typeof file !== "string" ? Buffer.from(await file.arrayBuffer()) : undefined,
      order,
    };
  }

  async function route(request: http.IncomingMessage, url: URL, raw: Buffer): Promise<Answer> {
    const method = request.method ?? "GET";
    const path = url.pathname;
    const contentType = request.headers["content-type"] ?? "";
    const json = contentType.startsWith("application/json") && raw.length ? (JSON.parse(raw.toString("utf8")) as Record<string, unknown>) : {};
    const form = contentType.startsWith("application/x-www-form-urlencoded") ? new URLSearchParams(raw.toString("utf8")) : undefined;
    const parts = contentType.startsWith("multipart/form-data") ? await multipart(request, raw) : undefined;

    const problems = await checkRequest({
      method: method.toLowerCase(),
      path,
      query: Object.fromEntries(url.searchParams.entries()),
      headers: request.headers as Record<string, string>,
      body: form
        ? Object.fromEntries(form.entries())
        : parts
          ? { attributes: parts.attributes, file: "" }
          : contentType.startsWith("application/octet-stream")
            ? undefined
            : json,
    });
    if (problems.problems.length) {
      violations.push(...problems.problems.map((problem) => `${method} ${path}: ${problem}`));
      return boxError(400, problems.problems.join("; "), "bad_request");
    }
    const operation = problems.operation!.operationId;

    if (operation === "post_oauth2_token") return grantToken(form ?? new URLSearchParams());
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    const token = bearer ? tokens.get(bearer) : undefined;
    if (!token || token.expiresAt <= Date.now()) return invalidToken();
    const id = /\/(?:folders|files|upload_sessions)\/([^/]+)/.exec(path.replace("/files/upload_sessions", "/upload_sessions"))?.[1] ?? "";

    switch (operation) {
      case "get_users_me":
        return new Answer(200, { type: "user", ...token.user, status: "active" });
      case "get_folders_id_items":
        return listItems(id, url.searchParams);
      case "post_folders": {
        const parentId = String((json.parent as { id?: unknown } | undefined)?.id);
        if (!folderById(parentId)) return boxError(404, "Not Found", "not_found");
        if (!validName(json.name)) return boxError(400, "Item name invalid", "item_name_invalid");
        const taken = conflictIn(parentId, json.name);
        if (taken) return conflict(taken);
        const folder: Folder = { type: "folder", id: newId(), name: json.name, parentId };
        items.set(folder.id, folder);
        return new Answer(201, folderFull(folder));
      }
      case "options_files_content": {
        const parentId = String((json.parent as { id?: unknown } | undefined)?.id);
        if (!folderById(parentId)) return boxError(404, "Not Found", "not_found");
        if (!validName(json.name)) return boxError(400, "Item name invalid", "item_name_invalid");
        const taken = conflictIn(parentId, json.name);
        if (taken) return conflict(taken);
        return new Answer(200, { upload_token: randomBytes(8).toString("hex"), upload_url: `${origin}/api/2.0/files/content` });
      }
      case "post_files_content": {
        if (!parts?.file || !parts.attributes) return boxError(400, "Attributes and file are required", "bad_request");
        if (parts.order.indexOf("attributes") > parts.order.indexOf("file"))
          return boxError(400, "Attributes must come before the file", "metadata_after_file_contents");
        const name = parts.attributes.name;
        const parentId = String((parts.attributes.parent as { id?: unknown } | undefined)?.id);
        if (!folderById(parentId)) return boxError(404, "Not Found", "not_found");
        if (!validName(name)) return boxError(400, "Item name invalid", "item_name_invalid");
        const taken = conflictIn(parentId, name);
        if (taken) return conflict(taken);
        return new Answer(201, { total_count: 1, entries: [fileFull(addFile(parentId, name, parts.file))] });
      }
      case "post_files_upload_sessions": {
        const folderId = String(json.folder_id);
        if (!folderById(folderId)) return boxError(404, "Not Found", "not_found");
        if (!validName(json.file_name)) return boxError(400, "Item name invalid", "item_name_invalid");
        const taken = conflictIn(folderId, json.file_name);
        if (taken) return conflict(taken);
        const size = Number(json.file_size);
        if (size < MIN_SESSION_BYTES) return boxError(400, "File size is less than minimum allowed for this API", "file_size_too_small");
        const session: UploadSession = {
          id: randomBytes(8).toString("hex").toUpperCase(),
          folderId,
          fileName: json.file_name,
          fileSize: size,
          parts: new Map(),
        };
        sessions.set(session.id, session);
        return new Answer(201, {
          id: session.id,
          type: "upload_session",
          session_expires_at: new Date(Date.now() + 86_400_000).toISOString(),
          part_size: PART_SIZE,
          total_parts: Math.ceil(size / PART_SIZE),
          num_parts_processed: 0,
          session_endpoints: sessionEndpoints(session.id),
        });
      }
      case "put_files_upload_sessions_id":
      case "get_files_upload_sessions_id_parts":
      case "post_files_upload_sessions_id_commit":
      case "delete_files_upload_sessions_id": {
        const session = sessions.get(id);
        if (!session) return boxError(404, "Not Found", "not_found");
        if (operation === "delete_files_upload_sessions_id") {
          sessions.delete(id);
          return new Answer(204);
        }
        if (operation === "get_files_upload_sessions_id_parts") {
          const entries = [...session.parts.values()].map(({ bytes: _bytes, ...part }) => part);
          return new Answer(200, { entries, limit: 1000, offset: 0, total_count: entries.length });
        }
        const digest = request.headers.digest as string | undefined;
        if (operation === "post_files_upload_sessions_id_commit") return commitSession(session, json as { parts?: { part_id: string }[] }, digest);
        return uploadPart(session, request.headers["content-range"], digest, raw);
      }
      case "put_files_id": {
        const file = items.get(id);
        if (file?.type !== "file") return boxError(404, "Not Found", "not_found");
        if (json.name !== undefined) {
          if (!validName(json.name)) return boxError(400, "Item name invalid", "item_name_invalid");
          const taken = conflictIn(file.parentId, json.name, file.id);
          if (taken) return conflict(taken);
          file.name = json.name;
        }
        return new Answer(200, fileFull(file));
      }
      case "delete_files_id": {
        if (items.get(id)?.type !== "file") return boxError(404, "Not Found", "not_found");
        items.delete(id);
        return new Answer(204);
      }
      case "post_files_id_metadata_id_id": {
        const file = items.get(id);
        if (file?.type !== "file") return boxError(404, "Not Found", "not_found");
        const [scope, template] = path.split("/").slice(-2);
        const key = `${scope}.${template}`;
        if (file.metadata.has(key)) return boxError(409, "A metadata instance already exists", "tuple_already_exists");
        const instance = {
          ...json,
          $id: randomUUID(),
          $version: 0,
          $type: `${template}-${randomUUID()}`,
          $parent: `file_${file.id}`,
          $typeVersion: 2,
          $template: template,
          $scope: scope,
          $canEdit: true,
        };
        file.metadata.set(key, instance);
        return new Answer(201, instance);
      }
      default:
        return boxError(405, "Method Not Allowed", "method_not_allowed");
    }
  }

  function takeFailure(path: string): Failure | undefined {
    const failure = failures.find((candidate) => candidate.remaining > 0 && (!candidate.path || candidate.path.test(path)));
    if (failure) failure.remaining--;
    return failure;
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", origin);
      log.push(`${request.method} ${url.pathname}`);
      const failure = takeFailure(url.pathname);
      const answered = failure
        ? Promise.resolve(
            (() => {
              const answer = boxError(
                failure.status,
                failure.status === 429 ? "Request rate limit exceeded, please try again later" : `Box failed with ${failure.status}`,
              );
              return failure.retryAfterSeconds === undefined
                ? answer
                : new Answer(answer.status, answer.body, { "retry-after": String(failure.retryAfterSeconds) });
            })(),
          )
        : route(request, url, Buffer.concat(chunks)).then(async (answer) => {
            // The answers are Box's too: one that its description does not allow is the stand-in's mistake, recorded as such.
            const wrong = await checkAnswer(request.method ?? "GET", url.pathname, answer.status, answer.body);
            violations.push(...wrong.map((problem) => `${request.method} ${url.pathname}: ${problem}`));
            return answer;
          });
      answered
        .catch((error: unknown) => boxError(500, error instanceof Error ? error.message : String(error)))
        .then((answer) => {
          const body = answer.body === undefined ? "" : JSON.stringify(answer.body);
          response.writeHead(answer.status, { ...(body ? { "content-type": "application/json" } : {}), ...answer.headers });
          response.end(body);
        });
    });
  });
  await contract();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function ensurePath(folder: string[]): string {
    let id = "0";
    for (const name of folder) {
      const existing = conflictIn(id, name);
      if (existing) {
        id = existing.id;
        continue;
      }
      const created: Folder = { type: "folder", id: newId(), name, parentId: id };
      items.set(created.id, created);
      id = created.id;
    }
    return id;
  }

  return {
    origin,
    credentialSettings: () => ({
      client_key: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      box_subject_type: "enterprise",
      box_subject_id: ENTERPRISE_ID,
      folder_creation_sync_delay: 0,
    }),
    documents: (): HeldDocument[] =>
      [...items.values()]
        .filter((item): item is StoredFile => item.type === "file")
        .map((file) => ({
          folder: pathOf(file.parentId),
          name: file.name,
          bytes: file.bytes,
          properties: documentProperties(file.metadata.get("global.properties") ?? {}),
          link: `https://app.box.com/file/${file.id}`,
        })),
    folders: () => [...items.values()].filter((item) => item.type === "folder" && item.id !== "0").map((folder) => [...pathOf(folder.parentId), folder.name]),
    assembleSlowly: (commits, seconds) => {
      slowCommits = { remaining: commits, seconds };
    },
    failNext: (status, failure = {}) => {
      failures.push({ status, remaining: failure.count ?? 1, retryAfterSeconds: failure.retryAfterSeconds, path: failure.path });
    },
    contractViolations: () => [...violations],
    requests: () => [...log],
    tokenGrants: () => grants,
    revokeTokens: () => tokens.clear(),
    seed: (folder, name, bytes, properties) => {
      const file = addFile(ensurePath(folder), name, bytes);
      if (properties) file.metadata.set("global.properties", { ...properties, $template: "properties", $scope: "global", $parent: `file_${file.id}` });
      return file.id;
    },
    openUploadSessions: () => sessions.size,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The id of the local Box's one user, for a credential with box_subject_type "user". */
export const BOX_APP_USER_ID = APP_USER.id;
