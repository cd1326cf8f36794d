import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { HeldDocument, VendorTestServer } from "../vendor-test-server";
import { KEY_SESSION_REQUEST, PAT_TOKEN_REQUEST, lowerKeys, matchOperation, problemsOf } from "./filevine-contract";

// A local FileVine on a loopback port, to FileVine's API v2 contract (filevine-contract.ts): the
// identity server's personal-access-token exchange (/connect/token), GetUserOrgsWithToken, the
// older key/secret session (/session, MD5 of "key/timestamp/secret"), and the API both under the
// gateway (/fv-app/v2/…, bearer token with x-fv-orgid and x-fv-userid) and under the older API
// (/core/…, with x-fv-sessionid as well): projects, folder structure and folder creation, the
// document list, upload addresses, the upload itself (PUT to the address, as to Amazon S3),
// adding a document to a project, its hashtags, and project billing items. Answers are shaped as
// FileVine's reference declares them (PascalCase, `{ Native }` identifiers). A request that does
// not match the contract is answered 400 and recorded.

const PAT = "fv-pat-ecfx-0000-1111";
const CLIENT_ID = "ecfx-filevine-client";
const CLIENT_SECRET = "ecfx-filevine-client-secret";
const API_KEY = "fvkey-ecfx-2222";
const API_SECRET = "fvsecret-ecfx-3333";
const SUBDOMAIN = "penafirm";
const USER = { id: 77001, first: "ECFX", last: "Filing", email: "ecfx.filing@penafirm.example", username: "ecfx.filing" };
const ORG_ID = 4242;

interface Project {
  id: number;
  number: string;
  name: string;
  rootFolderId: number;
  archived: boolean;
}

interface Folder {
  id: number;
  projectId: number;
  parentId: number | null;
  name: string;
}

interface StoredDocument {
  id: number;
  filename: string;
  size: number;
  contentType: string;
  uploadToken: string;
  bytes: Buffer | null;
  projectId: number | null;
  folderId: number | null;
  uploaderId: number;
  hashtags: string[];
}

interface BillingItem {
  id: string;
  projectId: number;
  description: string;
  quantity: number;
  rate: number | null;
  billingType: string;
  userId: number;
  date: string;
  isBillable: boolean;
}

interface Failure {
  status: number;
  remaining: number;
  retryAfterSeconds?: number;
  path?: RegExp;
}

interface Token {
  expiresAt: number;
  sessionId?: string;
}

export interface FileVineServerOptions {
  port?: number;
  /** How long a token lives, in seconds. */
  tokenSeconds?: number;
}

export interface HeldFileVineDocument extends HeldDocument {
  id: string;
  projectId: number;
  hashtags: string[];
}

export interface FileVineTestServer extends VendorTestServer {
  /** The settings of a credential that signs in with the older API key and secret. */
  keySettings(): Record<string, unknown>;
  /** "METHOD /path" of every request, in order. */
  requests(): string[];
  /** Token exchanges and sessions issued so far. */
  signIns(): number;
  /** Makes every token issued so far invalid (FileVine answers 401 to it). */
  revokeTokens(): void;
  /** A project of the org (not archived unless said); its id. */
  addProject(number: string, name: string, archived?: boolean): number;
  /** The project of the bed's matter. */
  projectOf(number: string): Project | undefined;
  documentsHeld(): HeldFileVineDocument[];
  /** Documents given an upload address but never added to a project. */
  unattached(): number;
  billingItems(): BillingItem[];
  /** Puts a document into a project folder path (created as needed) as someone else filed it; its id. */
  seed(projectNumber: string, folder: string[], name: string, bytes: Buffer, hashtags?: string[]): number;
}

class Answer {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

const fail = (status: number, message: string) => new Answer(status, { message, statusCode: status });

export const FILEVINE_WEB = `https://${SUBDOMAIN}.filevineapp.com`;
export const FILEVINE_MATTER_PROJECT = { number: "M-501", name: "Peña v. Bluebonnet" };

export async function startFileVineServer(options: FileVineServerOptions = {}): Promise<FileVineTestServer> {
  const tokenSeconds = options.tokenSeconds ?? 1200;
  const projects = new Map<number, Project>();
  const folders = new Map<number, Folder>();
  const documents = new Map<number, StoredDocument>();
  const billing: BillingItem[] = [];
  const tokens = new Map<string, Token>();
  const failures: Failure[] = [];
  const violations: string[] = [];
  const log: string[] = [];
  let signIns = 0;
  let nextId = 9000;
  let origin = "";

  const newId = () => nextId++;
  const addProject = (number: string, name: string, archived = false) => {
    const id = newId();
    const root = newId();
    folders.set(root, { id: root, projectId: id, parentId: null, name: "Documents" });
    projects.set(id, { id, number, name, rootFolderId: root, archived });
    return id;
  };
  addProject(FILEVINE_MATTER_PROJECT.number, FILEVINE_MATTER_PROJECT.name);
  addProject("M-100", "Okafor Estate");
  addProject("M-999", "Closed matter", true);

  const pathOf = (folderId: number | null): string[] => {
    const names: string[] = [];
    for (let folder = folderId === null ? undefined : folders.get(folderId); folder && folder.parentId !== null; folder = folders.get(folder.parentId))
      names.unshift(folder.name);
    return names;
  };
  const id = (value: number) => ({ Native: value, Partner: null });
  const projectJson = (project: Project) => ({
    ProjectId: id(project.id),
    ProjectName: project.name,
    Number: project.number,
    ProjectOrClientName: project.name,
    RootDocFolderId: id(project.rootFolderId),
    IsArchived: project.archived,
    OrgId: ORG_ID,
    ProjectUrl: `${FILEVINE_WEB}/#/project/${project.id}`,
  });
  const documentJson = (document: StoredDocument) => ({
    DocumentId: id(document.id),
    Filename: document.filename,
    Size: document.size,
    ProjectId: document.projectId === null ? null : id(document.projectId),
    FolderId: document.folderId === null ? null : id(document.folderId),
    UploaderId: id(document.uploaderId),
    UploadDate: new Date().toISOString(),
    OrgID: ORG_ID,
    Hashtags: document.hashtags,
  });
  const page = <T>(items: T[], query: URLSearchParams) => {
    const limit = Number(query.get("limit") ?? 50);
    const offset = Number(query.get("offset") ?? 0);
    const slice = items.slice(offset, offset + limit);
    return { Items: slice, Count: slice.length, Offset: offset, Limit: limit, HasMore: offset + limit < items.length };
  };

  function violation(method: string, path: string, problems: string[]): Answer {
    violations.push(...problems.map((problem) => `${method} ${path}: ${problem}`));
    return fail(400, problems.join("; "));
  }

  function bearer(request: http.IncomingMessage): { token?: Token; value?: string } {
    const value = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
    const token = value ? tokens.get(value) : undefined;
    return { token: token && token.expiresAt > Date.now() ? token : undefined, value };
  }

  function issue(sessionId?: string): string {
    const value = randomBytes(16).toString("hex");
    tokens.set(value, { expiresAt: Date.now() + tokenSeconds * 1000, sessionId });
    signIns++;
    return value;
  }

  function tokenExchange(request: http.IncomingMessage, body: Buffer): Answer {
    if (!(request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded"))
      return violation("POST", "/connect/token", ["the token request is a form (application/x-www-form-urlencoded)"]);
    const form = Object.fromEntries(new URLSearchParams(body.toString("utf8")));
    const problems = problemsOf(PAT_TOKEN_REQUEST.safeParse(form));
    if (problems.length) return violation("POST", "/connect/token", problems);
    if (form.client_id !== CLIENT_ID || form.client_secret !== CLIENT_SECRET)
      return new Answer(400, { error: "invalid_client", error_description: "The client credentials are invalid" });
    if (form.token !== PAT) return new Answer(400, { error: "invalid_grant", error_description: "The personal access token is invalid or revoked" });
    return new Answer(200, { access_token: issue(), expires_in: tokenSeconds, token_type: "Bearer", scope: form.scope });
  }

  function keySession(body: unknown): Answer {
    const problems = problemsOf(KEY_SESSION_REQUEST.safeParse(lowerKeys(body)));
    if (problems.length) return violation("POST", "/session", problems);
    const fields = lowerKeys(body) as { apikey: string; apihash: string; apitimestamp: string };
    const expected = createHash("md5").update(`${fields.apikey}/${fields.apitimestamp}/${API_SECRET}`).digest("hex");
    if (fields.apikey !== API_KEY || fields.apihash !== expected) return fail(401, "Invalid API key or hash");
    if (Math.abs(Date.parse(fields.apitimestamp) - Date.now()) > 5 * 60_000) return fail(401, "The API timestamp is too far from now");
    const sessionId = randomBytes(12).toString("hex");
    return new Answer(200, { accessToken: issue(sessionId), refreshToken: sessionId, userId: String(USER.id), orgId: ORG_ID });
  }

  function api(request: http.IncomingMessage, method: string, path: string, legacy: boolean, query: URLSearchParams, raw: Buffer): Answer {
    const { token, value } = bearer(request);
    if (!value) return violation(method, path, ["the API is called with a bearer token"]);
    const missing = ["x-fv-orgid", "x-fv-userid", ...(legacy ? ["x-fv-sessionid"] : [])].filter((header) => !request.headers[header]);
    if (missing.length)
      return violation(
        method,
        path,
        missing.map((header) => `the ${header} header is required`),
      );
    if (!token) return fail(401, "Unauthorized");
    if (request.headers["x-fv-orgid"] !== String(ORG_ID) || request.headers["x-fv-userid"] !== String(USER.id))
      return violation(method, path, ["x-fv-orgid and x-fv-userid name the token's org and user"]);
    if (legacy && request.headers["x-fv-sessionid"] !== token.sessionId) return fail(401, "The session id does not belong to the token");
    if (!legacy && token.sessionId) return fail(401, "A key session's token is not taken by the gateway");

    const below = path.replace(legacy ? /^\/core/i : /^\/fv-app\/v2/i, "");
    const matched = matchOperation(method, below);
    if (!matched) return violation(method, path, [`${method} ${path} is not an operation of FileVine's API`]);
    const { operation, params } = matched;
    const problems = operation.query
      ? problemsOf(operation.query.safeParse(Object.fromEntries(query)))
      : [...query.keys()].map((key) => `unknown parameter ${key}`);
    let body: unknown;
    if (!operation.body) {
      if (raw.length > 0) problems.push("the operation takes no body");
    } else {
      if (!(request.headers["content-type"] ?? "").startsWith("application/json")) problems.push("the body is JSON");
      try {
        body = lowerKeys(JSON.parse(raw.toString("utf8")));
        problems.push(...problemsOf(operation.body.safeParse(body)));
      } catch {
        problems.push("the body is not JSON");
      }
    }
    if (problems.length)
      return violation(
        method,
        path,
        problems.map((problem) => `${operation.name}: ${problem}`),
      );
    return perform(operation.name, params, query, body as Record<string, never>);
  }

  function perform(name: string, params: Record<string, string>, query: URLSearchParams, body: Record<string, never>): Answer {
    const project = params.projectId ? projects.get(Number(params.projectId)) : undefined;
    switch (name) {
      case "Get Project List": {
        const number = query.get("number")?.toLowerCase();
        const named = query.get("name")?.toLowerCase();
        const list = [...projects.values()].filter(
          (p) =>
            (!number || p.number.toLowerCase().includes(number)) &&
            (!named || p.name.toLowerCase().includes(named)) &&
            !(query.get("excludeArchived") === "true" && p.archived),
        );
        return new Answer(200, page(list.map(projectJson), query));
      }
      case "Get Project":
        return project ? new Answer(200, projectJson(project)) : fail(404, "Project not found");
      case "Get Folder Structure": {
        const list = [...folders.values()].filter((folder) => folder.projectId === Number(query.get("projectId")));
        const items = list.map((folder) => ({
          FolderId: id(folder.id),
          ParentId: folder.parentId === null ? null : id(folder.parentId),
          ProjectId: id(folder.projectId),
          Name: folder.name,
          IsArchived: false,
        }));
        return new Answer(200, page(items, query));
      }
      case "Create Folder": {
        const { projectid, parentid, name: folderName } = body as unknown as { projectid?: { native: number }; parentid: { native: number }; name: string };
        const parent = folders.get(parentid.native);
        if (!parent || (projectid && parent.projectId !== projectid.native)) return fail(404, "Parent folder not found in the project");
        if ([...folders.values()].some((f) => f.parentId === parent.id && f.name.toLowerCase() === folderName.toLowerCase()))
          return fail(409, "A folder with that name already exists");
        const folderId = newId();
        folders.set(folderId, { id: folderId, projectId: parent.projectId, parentId: parent.id, name: folderName });
        return new Answer(200, { FolderId: id(folderId), ParentId: id(parent.id), ProjectId: id(parent.projectId), Name: folderName, IsArchived: false });
      }
      case "Get Document List": {
        const projectId = Number(query.get("projectId"));
        const folderId = query.get("folderId");
        const list = [...documents.values()].filter((d) => d.projectId === projectId && (!folderId || d.folderId === Number(folderId)));
        return new Answer(200, page(list.map(documentJson), query));
      }
      case "Create Document URL for Upload": {
        const { filename, size } = body as unknown as { filename: string; size: number };
        const documentId = newId();
        const uploadToken = randomBytes(12).toString("hex");
        const contentType = filename.toLowerCase().endsWith(".pdf") ? "application/pdf" : "application/octet-stream";
        documents.set(documentId, {
          id: documentId,
          filename,
          size,
          contentType,
          uploadToken,
          bytes: null,
          projectId: null,
          folderId: null,
          uploaderId: USER.id,
          hashtags: [],
        });
        return new Answer(200, {
          DocumentId: id(documentId),
          Url: `${origin}/s3/fv-documents/${uploadToken}?X-Amz-Signature=${uploadToken}`,
          ContentType: contentType,
        });
      }
      case "Add Document to Project": {
        const document = documents.get(Number(params.documentId));
        if (!project || !document) return fail(404, "Project or document not found");
        if (!document.bytes) return fail(400, "The document's content was never uploaded");
        if (document.projectId !== null) return fail(409, "The document belongs to a project already");
        const folderId = query.get("folderId");
        const folder = folderId ? folders.get(Number(folderId)) : folders.get(project.rootFolderId);
        if (!folder || folder.projectId !== project.id) return fail(404, "Folder not found in the project");
        Object.assign(document, { projectId: project.id, folderId: folder.id });
        return new Answer(200, documentJson(document));
      }
      case "Update Document Metadata": {
        const document = documents.get(Number(params.documentId));
        // FileVine answers 403 for a document the caller cannot see, or that does not exist.
        if (!document || document.projectId === null) return fail(403, "Forbidden");
        const fields = body as unknown as { hashtags?: string[] };
        if (fields.hashtags) document.hashtags = fields.hashtags.map((tag) => tag.toLowerCase());
        return new Answer(200, documentJson(document));
      }
      case "Get Project Billing Items": {
        if (!project) return fail(404, "Project not found");
        // "Range defaults to 30 days."
        const end = query.get("endDate") ?? new Date().toISOString().slice(0, 10);
        const start = query.get("startDate") ?? new Date(Date.parse(end) - 30 * 86_400_000).toISOString().slice(0, 10);
        const items = billing
          .filter((item) => item.projectId === project.id && item.date >= start && item.date <= end)
          .map((item) => ({
            ID: item.id,
            BillingType: item.billingType,
            ProjectID: item.projectId,
            OrgID: ORG_ID,
            UserID: item.userId,
            Date: item.date,
            Description: item.description,
            Quantity: item.quantity,
            Rate: item.rate ?? 0,
            IsBillable: item.isBillable,
          }));
        return new Answer(200, page(items, query));
      }
      case "Create a Billing Item": {
        if (!project) return fail(404, "Project not found");
        const fields = body as unknown as {
          description: string;
          quantity: number;
          rate?: number;
          billingtype: string;
          userid: number;
          date: string;
          isbillable: boolean;
        };
        if (fields.userid !== USER.id) return fail(400, "The timekeeper is not a user of the org");
        const item = {
          id: randomBytes(8).toString("hex"),
          projectId: project.id,
          description: fields.description,
          quantity: fields.quantity,
          rate: fields.rate ?? null,
          billingType: fields.billingtype,
          userId: fields.userid,
          date: fields.date,
          isBillable: fields.isbillable,
        };
        billing.push(item);
        return new Answer(200, { BillingItemId: item.id });
      }
      default:
        return fail(500, `no handler for ${name}`);
    }
  }

  function upload(request: http.IncomingMessage, token: string, query: URLSearchParams, body: Buffer): Answer {
    const document = [...documents.values()].find((d) => d.uploadToken === token);
    if (!document || query.get("X-Amz-Signature") !== token) return new Answer(403, { message: "SignatureDoesNotMatch" });
    if (request.headers.authorization) return violation("PUT", "/s3", ["the upload address is signed: no Authorization header"]);
    if (request.headers["content-type"] !== document.contentType) return violation("PUT", "/s3", [`the upload is signed for ${document.contentType}`]);
    if (body.length !== document.size) return violation("PUT", "/s3", [`the upload holds ${body.length} bytes, not the ${document.size} announced`]);
    document.bytes = body;
    return new Answer(200);
  }

  function route(request: http.IncomingMessage, url: URL, body: Buffer): Answer {
    const method = request.method ?? "GET";
    const path = url.pathname;
    if (method === "POST" && path === "/connect/token") return tokenExchange(request, body);
    if (method === "POST" && path.toLowerCase() === "/fv-app/v2/utils/getuserorgswithtoken") {
      const { token } = bearer(request);
      if (!token || token.sessionId) return fail(401, "Unauthorized");
      return new Answer(200, {
        User: { UserId: { Native: USER.id, Partner: null }, FirstName: USER.first, LastName: USER.last, Email: USER.email, Username: USER.username },
        Orgs: [{ OrgId: ORG_ID, Name: "Peña Firm" }],
      });
    }
    if (method === "POST" && path === "/session") {
      try {
        return keySession(JSON.parse(body.toString("utf8")));
      } catch {
        return violation(method, path, ["the session request is JSON"]);
      }
    }
    const s3 = /^\/s3\/fv-documents\/([0-9a-f]+)$/.exec(path);
    if (method === "PUT" && s3) return upload(request, s3[1]!, url.searchParams, body);
    if (/^\/fv-app\/v2\//i.test(path)) return api(request, method, path, false, url.searchParams, body);
    if (/^\/core\//i.test(path)) return api(request, method, path, true, url.searchParams, body);
    return violation(method, path, [`${method} ${path} is not FileVine's`]);
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
      let answer: Answer;
      if (failure) {
        const base = fail(failure.status, failure.status === 429 ? "API rate limit exceeded" : `FileVine failed with ${failure.status}`);
        answer = failure.retryAfterSeconds === undefined ? base : new Answer(base.status, base.body, { "retry-after": String(failure.retryAfterSeconds) });
      } else {
        try {
          answer = route(request, url, Buffer.concat(chunks));
        } catch (error) {
          answer = fail(500, error instanceof Error ? error.message : String(error));
        }
      }
      const body = answer.body === undefined ? "" : JSON.stringify(answer.body);
      response.writeHead(answer.status, { ...(body ? { "content-type": "application/json; charset=utf-8" } : {}), ...answer.headers });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const held = (): HeldFileVineDocument[] =>
    [...documents.values()]
      .filter((document) => document.projectId !== null && document.bytes)
      .map((document) => ({
        id: String(document.id),
        projectId: document.projectId!,
        folder: pathOf(document.folderId),
        name: document.filename,
        bytes: document.bytes!,
        hashtags: document.hashtags,
        properties: { hashtags: document.hashtags.join(" ") },
        link: `${FILEVINE_WEB}/#/project/${document.projectId}/documents/${document.id}`,
      }));

  const ensurePath = (project: Project, path: string[]): number => {
    let current = project.rootFolderId;
    for (const name of path) {
      const existing = [...folders.values()].find((f) => f.parentId === current && f.name.toLowerCase() === name.toLowerCase());
      if (existing) current = existing.id;
      else {
        const id = newId();
        folders.set(id, { id, projectId: project.id, parentId: current, name });
        current = id;
      }
    }
    return current;
  };

  return {
    origin,
    credentialSettings: () => ({
      subdomain: SUBDOMAIN,
      personalAccessToken: PAT,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      api_key: "",
      api_secret: "",
      hashtags: "#ecf court-notice",
      billingItem: "",
      folder_creation_sync_delay: 0,
    }),
    keySettings: () => ({
      subdomain: SUBDOMAIN,
      personalAccessToken: "",
      clientId: "",
      clientSecret: "",
      api_key: API_KEY,
      api_secret: API_SECRET,
      hashtags: "ecf",
      billingItem: "",
      folder_creation_sync_delay: 0,
    }),
    documents: held,
    documentsHeld: held,
    folders: () => [...folders.values()].filter((folder) => folder.parentId !== null).map((folder) => [...pathOf(folder.parentId), folder.name]),
    failNext: (status, failure = {}) => {
      failures.push({ status, remaining: failure.count ?? 1, retryAfterSeconds: failure.retryAfterSeconds, path: failure.path });
    },
    contractViolations: () => [...violations],
    requests: () => [...log],
    signIns: () => signIns,
    revokeTokens: () => tokens.clear(),
    addProject,
    projectOf: (number) => [...projects.values()].find((project) => project.number === number),
    unattached: () => [...documents.values()].filter((document) => document.projectId === null).length,
    billingItems: () => [...billing],
    seed: (projectNumber, folder, name, bytes, hashtags = []) => {
      const project = [...projects.values()].find((p) => p.number === projectNumber)!;
      const id = newId();
      documents.set(id, {
        id,
        filename: name,
        size: bytes.length,
        contentType: "application/pdf",
        uploadToken: "",
        bytes,
        projectId: project.id,
        folderId: ensurePath(project, folder),
        uploaderId: USER.id + 1,
        hashtags,
      });
      return id;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
