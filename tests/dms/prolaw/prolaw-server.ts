import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { HeldDocument, VendorTestServer } from "../vendor-test-server";
import { checkRequest } from "./prolaw-contract";

// A local ProLaw REST API on a loopback port, to the contract ECFX implements
// (tests/fixtures/openapi/prolaw/prolaw-rest.yaml): the API key in X-API-Key, matters by number
// and by internal key, a matter's document folders (listing, creation, 409 on a taken name),
// documents by folder and by ExternalReference, and the multipart upload of a profile and its
// file (409 on a taken name, 400 on a document type ProLaw does not know or a parent that is not
// the matter's). Every request is checked against the description; one that does not match is
// answered 400 and recorded. Errors answer ASP.NET Web API's {"Message": …}.

export const PROLAW_API_KEY = "prolaw-api-key-7f3c";
export const BASE_PATH = "/ProLaw/api";
/** The document types the firm's ProLaw knows. */
export const DOCUMENT_TYPES = ["General", "Notice", "Pleading", "Order", "Correspondence"];
export const MASTER_MATTER = { MattersId: "MT-0000-0500", MatterId: "M-500", Description: "Bluebonnet Widgets general", ParentMattersId: null };
export const FILING_MATTER = { MattersId: "MT-0000-0501", MatterId: "M-501", Description: "Peña v. Bluebonnet", ParentMattersId: MASTER_MATTER.MattersId };

interface Matter {
  MattersId: string;
  MatterId: string;
  Description: string;
  ParentMattersId: string | null;
  Status: string;
}

interface Folder {
  FolderId: string;
  MattersId: string;
  Name: string;
  ParentFolderId: string | null;
}

interface StoredDocument {
  DocumentId: string;
  MattersId: string;
  FolderId: string | null;
  FileName: string;
  DocumentType: string;
  DocumentClass: string | null;
  Description: string;
  Author: string | null;
  DocumentDate: string | null;
  ExternalReference: string | null;
  ParentMattersId: string | null;
  Fields: Record<string, string>;
  bytes: Buffer;
  contentType: string;
}

interface Failure {
  status: number;
  remaining: number;
  retryAfterSeconds?: number;
  path?: RegExp;
}

interface Answer {
  status: number;
  json?: unknown;
  headers?: Record<string, string>;
}

export interface ProLawTestServer extends VendorTestServer {
  /** "METHOD /path?query" of every request below the base path, in order. */
  requests(): string[];
  /** A matter ProLaw knows; its internal key. */
  addMatter(matter: { MatterId: string; Description?: string; MattersId?: string; ParentMattersId?: string | null }): string;
  /** Puts a document into a matter's folder path (created as needed), as if someone else filed it; its id. */
  seed(matterId: string, folder: string[], name: string, bytes: Buffer, externalReference?: string): string;
  /** Gives a matter another Matter ID (as when the firm renumbers it in ProLaw). */
  renumberMatter(from: string, to: string): void;
  /** The stored upload of a document: its profile fields as sent. */
  profiles(): Record<string, unknown>[];
}

const error = (status: number, message: string, headers?: Record<string, string>): Answer => ({ status, json: { Message: message }, headers });

/** The parts of a multipart/form-data body by name (undefined when it is not one). */
function parseMultipart(body: Buffer, contentType: string): Map<string, { headers: string; data: Buffer }> | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!/^multipart\/form-data/i.test(contentType) || !boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts = new Map<string, { headers: string; data: Buffer }>();
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next < 0) break;
    const part = body.subarray(start + delimiter.length + 2, next - 2);
    const split = part.indexOf("\r\n\r\n");
    if (split < 0) return undefined;
    const headers = part.subarray(0, split).toString("utf8");
    const name = /name="([^"]*)"/i.exec(headers)?.[1];
    if (!name) return undefined;
    parts.set(name, { headers, data: part.subarray(split + 4) });
    start = next;
  }
  return parts;
}

export async function startProLawServer(options: { port?: number } = {}): Promise<ProLawTestServer> {
  const matters = new Map<string, Matter>();
  const folders = new Map<string, Folder>();
  const documents = new Map<string, StoredDocument>();
  const failures: Failure[] = [];
  const violations: string[] = [];
  const log: string[] = [];
  let origin = "";
  let sequence = 1000;

  const addMatter: ProLawTestServer["addMatter"] = (matter) => {
    const MattersId = matter.MattersId ?? `MT-${randomUUID().slice(0, 8)}`;
    matters.set(MattersId, {
      MattersId,
      MatterId: matter.MatterId,
      Description: matter.Description ?? matter.MatterId,
      ParentMattersId: matter.ParentMattersId ?? null,
      Status: "Open",
    });
    return MattersId;
  };
  addMatter(MASTER_MATTER);
  addMatter(FILING_MATTER);

  const webUrl = (id: string) => `${origin}/ProLaw/Documents/Document.aspx?id=${id}`;
  const documentJson = (document: StoredDocument) => {
    const { bytes, contentType: _type, ...profile } = document;
    return { ...profile, Size: bytes.length, WebUrl: webUrl(document.DocumentId) };
  };
  const childFolders = (mattersId: string, parent: string | null) =>
    [...folders.values()].filter((folder) => folder.MattersId === mattersId && folder.ParentFolderId === parent);
  const folderNames = (folderId: string | null): string[] => {
    const names: string[] = [];
    for (let id = folderId; id; id = folders.get(id)?.ParentFolderId ?? null) names.unshift(folders.get(id)!.Name);
    return names;
  };
  const makeFolder = (mattersId: string, parent: string | null, name: string): Folder => {
    const folder = { FolderId: `F${++sequence}`, MattersId: mattersId, Name: name, ParentFolderId: parent };
    folders.set(folder.FolderId, folder);
    return folder;
  };
  const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

  async function handle(method: string, path: string, query: URLSearchParams, headers: http.IncomingHttpHeaders, body: Buffer): Promise<Answer> {
    const failure = failures.find((f) => f.remaining > 0 && (!f.path || f.path.test(path)));
    if (failure) {
      failure.remaining--;
      const retry = failure.retryAfterSeconds === undefined ? undefined : { "retry-after": String(failure.retryAfterSeconds) };
      const text =
        failure.status === 429
          ? "Too many requests: the API allows fewer calls per minute."
          : failure.status === 403
            ? "The API key's user has no rights to add documents to this matter."
            : failure.status >= 500
              ? "An error has occurred."
              : `The request was refused (${failure.status}).`;
      return error(failure.status, text, retry);
    }
    if (!path.startsWith(`${BASE_PATH}/`)) return error(404, `No HTTP resource was found that matches the request URI '${path}'.`);
    const key = headers["x-api-key"];
    const relative = path.slice(BASE_PATH.length);
    const contentType = String(headers["content-type"] ?? "");
    const multipart = parseMultipart(body, contentType);
    let parsedBody: unknown;
    if (multipart) {
      let profile: unknown;
      try {
        profile = JSON.parse(multipart.get("profile")?.data.toString("utf8") ?? "null");
      } catch {
        profile = "not JSON";
      }
      parsedBody = { profile, ...(multipart.has("file") ? { file: "(binary)" } : {}) };
    } else if (contentType.startsWith("application/json")) {
      try {
        parsedBody = JSON.parse(body.toString("utf8"));
      } catch {
        parsedBody = body.toString("utf8");
      }
    } else if (body.length > 0) parsedBody = body.toString("latin1");
    const check = await checkRequest({
      method,
      path: relative,
      query: Object.fromEntries(query),
      headers: headers as Record<string, string>,
      body: parsedBody,
    });
    const problem = check.problem ?? (typeof key !== "string" ? "no X-API-Key header" : null);
    if (problem) {
      violations.push(`${method} ${path}: ${problem}`);
      return { status: 400, json: { Message: "The request is invalid.", MessageDetail: problem } };
    }
    if (key !== PROLAW_API_KEY) return error(401, "Authorization has been denied for this request.");

    const parts = relative.split("/").filter(Boolean).map(decodeURIComponent);
    if (check.operationId === "listMatters") {
      const wanted = query.get("matterId");
      const all = [...matters.values()].filter((m) => wanted === null || m.MatterId === wanted);
      const size = Number(query.get("pageSize") ?? 50);
      const page = Number(query.get("page") ?? 1);
      return { status: 200, json: { Items: all.slice((page - 1) * size, page * size), TotalCount: all.length } };
    }
    if (check.operationId === "findDocuments") {
      const reference = query.get("externalReference");
      return { status: 200, json: { Items: [...documents.values()].filter((d) => d.ExternalReference === reference).map(documentJson) } };
    }
    const matter = matters.get(parts[1] ?? "");
    if (!matter) return error(404, `Matter '${parts[1]}' was not found.`);
    switch (check.operationId) {
      case "getMatter":
        return { status: 200, json: matter };
      case "listFolders": {
        const parent = query.get("parentFolderId");
        if (parent && folders.get(parent)?.MattersId !== matter.MattersId) return error(404, `Folder '${parent}' was not found.`);
        return { status: 200, json: { Items: childFolders(matter.MattersId, parent).map(({ MattersId: _m, ...folder }) => folder) } };
      }
      case "createFolder": {
        const { Name, ParentFolderId = null } = parsedBody as { Name: string; ParentFolderId?: string | null };
        if (ParentFolderId && folders.get(ParentFolderId)?.MattersId !== matter.MattersId) return error(404, `Folder '${ParentFolderId}' was not found.`);
        if (childFolders(matter.MattersId, ParentFolderId).some((f) => sameName(f.Name, Name))) return error(409, `A folder named '${Name}' already exists.`);
        const { MattersId: _m, ...folder } = makeFolder(matter.MattersId, ParentFolderId, Name);
        return { status: 201, json: folder };
      }
      case "listDocuments": {
        const folderId = query.get("folderId");
        if (folderId && folders.get(folderId)?.MattersId !== matter.MattersId) return error(404, `Folder '${folderId}' was not found.`);
        const held = [...documents.values()].filter((d) => d.MattersId === matter.MattersId && d.FolderId === folderId);
        return { status: 200, json: { Items: held.map(documentJson) } };
      }
      case "createDocument": {
        const profile = (parsedBody as { profile: Record<string, unknown> }).profile;
        const file = multipart!.get("file")!;
        const folderId = (profile.FolderId as string | null | undefined) ?? null;
        if (folderId && folders.get(folderId)?.MattersId !== matter.MattersId) return error(404, `Folder '${folderId}' was not found.`);
        const type = (profile.DocumentType as string | undefined) ?? "General";
        if (!DOCUMENT_TYPES.includes(type)) return error(400, `Document type '${type}' does not exist.`);
        const parent = (profile.ParentMattersId as string | undefined) ?? null;
        if (parent && parent !== matter.ParentMattersId) return error(400, `Matter '${parent}' is not the parent of matter '${matter.MatterId}'.`);
        const name = profile.FileName as string;
        if ([...documents.values()].some((d) => d.MattersId === matter.MattersId && d.FolderId === folderId && sameName(d.FileName, name))) {
          return error(409, `A document named '${name}' already exists in this folder.`);
        }
        const document: StoredDocument = {
          DocumentId: `D${++sequence}`,
          MattersId: matter.MattersId,
          FolderId: folderId,
          FileName: name,
          DocumentType: type,
          DocumentClass: (profile.DocumentClass as string | undefined) ?? null,
          Description: (profile.Description as string | undefined) ?? "",
          Author: (profile.Author as string | undefined) ?? null,
          DocumentDate: (profile.DocumentDate as string | undefined) ?? null,
          ExternalReference: (profile.ExternalReference as string | undefined) ?? null,
          ParentMattersId: parent,
          Fields: (profile.Fields as Record<string, string> | undefined) ?? {},
          bytes: Buffer.from(file.data),
          contentType: /content-type:\s*([^\r\n]+)/i.exec(file.headers)?.[1] ?? "",
        };
        documents.set(document.DocumentId, document);
        return { status: 201, json: documentJson(document) };
      }
      default:
        return error(405, `The requested resource does not support http method '${method}'.`);
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://prolaw.local");
      log.push(`${req.method} ${url.pathname}${url.search}`);
      handle(req.method ?? "GET", url.pathname, url.searchParams, req.headers, Buffer.concat(chunks))
        .catch((e: Error) => error(500, `An error has occurred. ${e.message}`))
        .then((answer) => {
          res.writeHead(answer.status, { "content-type": "application/json; charset=utf-8", ...answer.headers });
          res.end(JSON.stringify(answer.json ?? {}));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Compile the contract's validators before the first request, so it is not slowed past a time-out.
  await checkRequest({ method: "GET", path: "/matters", query: {}, headers: {} });

  const matterNumber = (mattersId: string) => matters.get(mattersId)?.MatterId ?? mattersId;
  return {
    origin,
    credentialSettings: () => ({
      base_url: `${origin}${BASE_PATH}`,
      api_key: PROLAW_API_KEY,
      use_agent: false,
      add_parent_id: false,
      folder_creation_sync_delay: 0,
    }),
    documents: (): HeldDocument[] =>
      [...documents.values()].map((d) => ({
        folder: folderNames(d.FolderId),
        name: d.FileName,
        bytes: d.bytes,
        properties: {
          Matter: matterNumber(d.MattersId),
          DocumentType: d.DocumentType,
          ...(d.DocumentClass ? { DocumentClass: d.DocumentClass } : {}),
          Description: d.Description,
          ...(d.Author ? { Author: d.Author } : {}),
          ...(d.DocumentDate ? { DocumentDate: d.DocumentDate } : {}),
          ...(d.ParentMattersId ? { ParentMattersId: d.ParentMattersId } : {}),
          ...(d.ExternalReference ? { ExternalReference: d.ExternalReference } : {}),
          ...d.Fields,
        },
        link: webUrl(d.DocumentId),
      })),
    folders: () => [...folders.values()].map((folder) => [matterNumber(folder.MattersId), ...folderNames(folder.FolderId)]),
    failNext: (status, failOptions = {}) => {
      failures.push({ status, remaining: failOptions.count ?? 1, retryAfterSeconds: failOptions.retryAfterSeconds, path: failOptions.path });
    },
    contractViolations: () => [...violations],
    requests: () => [...log],
    addMatter,
    seed(matterId, folderPath, name, bytes, externalReference) {
      const matter = [...matters.values()].find((m) => m.MatterId === matterId);
      if (!matter) throw new Error(`no matter ${matterId}`);
      let parent: string | null = null;
      for (const segment of folderPath) {
        parent = (childFolders(matter.MattersId, parent).find((f) => sameName(f.Name, segment)) ?? makeFolder(matter.MattersId, parent, segment)).FolderId;
      }
      const id = `D${++sequence}`;
      documents.set(id, {
        DocumentId: id,
        MattersId: matter.MattersId,
        FolderId: parent,
        FileName: name,
        DocumentType: "General",
        DocumentClass: null,
        Description: "",
        Author: null,
        DocumentDate: null,
        ExternalReference: externalReference ?? null,
        ParentMattersId: null,
        Fields: {},
        bytes,
        contentType: "application/pdf",
      });
      return id;
    },
    renumberMatter(from, to) {
      const matter = [...matters.values()].find((m) => m.MatterId === from);
      if (!matter) throw new Error(`no matter ${from}`);
      matter.MatterId = to;
    },
    profiles: () => [...documents.values()].map(({ bytes: _b, ...profile }) => profile),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
