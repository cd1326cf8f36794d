import { createHash, createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { jwtVerify } from "jose";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { HeldDocument, VendorTestServer } from "../vendor-test-server";
import { MalformedQuery, readSoql } from "./litify-soql-reader";

// A local Salesforce org with Litify's matter object, on a loopback port, speaking the REST API's
// contract as its documentation gives it: the OAuth token endpoint (username-password and
// client-credentials flows, and the JWT bearer flow checked against the connected app's
// certificate key: RS256, iss the consumer key, sub a user of the org, aud the login URL, an
// expiry within three minutes; { error, error_description } refusals), the query resource
// (/services/data/vNN.0/query?q=SOQL), the ContentVersion insert as JSON with base64 VersionData
// (at most 37.5 MB of base64) or as multipart (entity_content JSON first, then VersionData), and
// errors as [{ message, errorCode }]. A request outside that contract (another path, a missing
// bearer token, an unknown field, a body of the wrong type) is refused as Salesforce would refuse
// it and recorded in contractViolations().

export const LITIFY_CLIENT_ID = "3MVG9ecfx.litify.client";
export const LITIFY_CLIENT_SECRET = "ecfx-litify-client-secret";
export const LITIFY_USERNAME = "filing@firm.example";
export const LITIFY_PASSWORD = "litify-password+securitytoken";
/** The firm's own text field on the matter holding ECFX's matter number. */
export const MATTER_COLUMN = "Matter_Number__c";

const API_PATH = /^\/services\/data\/v(\d+)\.0(\/.*)$/;
/** 37.5 MB of base64: the REST API's limit for blob data sent in JSON. */
const JSON_BASE64_LIMIT = 37.5 * 1024 * 1024;

const MATTER_FIELDS = new Set(["Id", "Name", MATTER_COLUMN, "litify_pm__Display_Name__c", "litify_pm__Status__c"]);
const VERSION_FIELDS = new Set([
  "Id",
  "ContentDocumentId",
  "Title",
  "PathOnClient",
  "ReasonForChange",
  "Description",
  "FirstPublishLocationId",
  "IsLatest",
  "Checksum",
]);
const VERSION_INSERTABLE = new Set(["Title", "PathOnClient", "VersionData", "ReasonForChange", "Description", "FirstPublishLocationId"]);
const LIMITS: Record<string, number> = { Title: 255, PathOnClient: 500, ReasonForChange: 1000, Description: 1000 };

interface Version {
  Id: string;
  ContentDocumentId: string;
  Title: string;
  PathOnClient: string;
  ReasonForChange: string | null;
  Description: string | null;
  FirstPublishLocationId: string;
  IsLatest: boolean;
  Checksum: string;
  bytes: Buffer;
  multipart: boolean;
}

interface Failure {
  status: number;
  remaining: number;
  retryAfterSeconds?: number;
  path?: RegExp;
  code?: string;
}

export interface LitifyServerOptions {
  port?: number;
  /** Whether the connected app may use the client-credentials flow (a run-as user is set). */
  clientCredentials?: boolean;
}

export interface LitifyTestServer extends VendorTestServer {
  failNext(status: number, options?: { count?: number; retryAfterSeconds?: number; path?: RegExp; code?: string }): void;
  /** "METHOD /path" of every request, in order (SOQL after the path). */
  requests(): string[];
  tokenGrants(): { grant: string; at: string }[];
  /** The private key (PEM) whose certificate the org's connected app holds, for the JWT bearer flow. */
  jwtPrivateKey: string;
  /** Ends every session issued so far (INVALID_SESSION_ID on its next use). */
  revokeTokens(): void;
  /** A matter of the org; its Id. */
  addMatter(fields: Record<string, string>): string;
  /** ContentVersions as inserted, with how they came (multipart or JSON). */
  versions(): Version[];
}

const ERROR_CODES: Record<number, string> = {
  400: "INVALID_FIELD",
  401: "INVALID_SESSION_ID",
  403: "INSUFFICIENT_ACCESS",
  404: "NOT_FOUND",
  429: "REQUEST_LIMIT_EXCEEDED",
  500: "UNKNOWN_EXCEPTION",
  503: "SERVER_UNAVAILABLE",
};

class Answer {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

const sfError = (status: number, message: string, errorCode = ERROR_CODES[status] ?? "UNKNOWN_EXCEPTION", fields: string[] = []) =>
  new Answer(status, [{ message, errorCode, fields }]);

/** Splits a multipart body on its boundary: each part's headers (lower-case) and bytes. */
function parts(body: Buffer, boundary: string): { headers: Record<string, string>; bytes: Buffer }[] | null {
  const delimiter = Buffer.from(`--${boundary}`);
  const found: { headers: Record<string, string>; bytes: Buffer }[] = [];
  let at = body.indexOf(delimiter);
  if (at !== 0) return null;
  for (;;) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === "--") return found;
    const next = body.indexOf(Buffer.concat([Buffer.from("\r\n"), delimiter]), start);
    if (next < 0) return null;
    const part = body.subarray(start + 2, next);
    const split = part.indexOf("\r\n\r\n");
    if (split < 0) return null;
    const headers: Record<string, string> = {};
    for (const line of part.subarray(0, split).toString("utf8").split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    found.push({ headers, bytes: part.subarray(split + 4) });
    at = next + 2;
  }
}

export async function startLitifyServer(options: LitifyServerOptions = {}): Promise<LitifyTestServer> {
  const matters = new Map<string, Record<string, string>>();
  const versions: Version[] = [];
  const tokens = new Set<string>();
  const grants: { grant: string; at: string }[] = [];
  const failures: Failure[] = [];
  const violations: string[] = [];
  const log: string[] = [];
  let counter = 0;
  let origin = "";

  /** An 18-character Salesforce Id of the object's key prefix. */
  const newId = (prefix: string) => `${prefix}${String(++counter).padStart(15 - prefix.length, "0")}AAA`;
  const violation = (what: string, answer: Answer) => {
    violations.push(what);
    return answer;
  };

  // The connected app's certificate: the stand-in keeps its public key, the test hands the private one to the credential.
  const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwtPrivateKey = keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const certificateKey = createPublicKey(keys.publicKey.export({ type: "spki", format: "pem" }));

  async function jwtBearer(form: URLSearchParams): Promise<Answer> {
    const assertion = form.get("assertion");
    if (!assertion)
      return violation("jwt-bearer grant without assertion", new Answer(400, { error: "invalid_request", error_description: "assertion required" }));
    if (form.has("client_secret"))
      return violation("jwt-bearer grant with a client secret", new Answer(400, { error: "invalid_request", error_description: "unexpected client_secret" }));
    try {
      const { payload, protectedHeader } = await jwtVerify(assertion, certificateKey, { audience: origin, algorithms: ["RS256"] });
      if (protectedHeader.alg !== "RS256") throw new Error("alg");
      if (payload.iss !== LITIFY_CLIENT_ID) return new Answer(400, { error: "invalid_client_id", error_description: "client identifier invalid" });
      if (typeof payload.exp !== "number" || payload.exp - Date.now() / 1000 > 180)
        return violation(
          "assertion expiring more than three minutes ahead",
          new Answer(400, { error: "invalid_grant", error_description: "expired authorization code" }),
        );
      if (payload.sub !== LITIFY_USERNAME) return new Answer(400, { error: "invalid_grant", error_description: "user hasn't approved this consumer" });
    } catch {
      return new Answer(400, { error: "invalid_grant", error_description: "invalid assertion" });
    }
    return issue();
  }

  async function token(form: URLSearchParams): Promise<Answer> {
    const grant = form.get("grant_type") ?? "";
    grants.push({ grant, at: new Date().toISOString() });
    if (grant === "urn:ietf:params:oauth:grant-type:jwt-bearer") return jwtBearer(form);
    if (form.get("client_id") !== LITIFY_CLIENT_ID) return new Answer(400, { error: "invalid_client_id", error_description: "client identifier invalid" });
    if (form.get("client_secret") !== LITIFY_CLIENT_SECRET)
      return new Answer(400, { error: "invalid_client", error_description: "invalid client credentials" });
    if (grant === "password") {
      if (!form.get("username") || !form.has("password"))
        return violation(
          "password grant without username or password",
          new Answer(400, { error: "invalid_request", error_description: "username and password required" }),
        );
      if (form.get("username") !== LITIFY_USERNAME || form.get("password") !== LITIFY_PASSWORD)
        return new Answer(400, { error: "invalid_grant", error_description: "authentication failure" });
    } else if (grant === "client_credentials") {
      if (options.clientCredentials === false) return new Answer(400, { error: "invalid_grant", error_description: "no client credentials user enabled" });
    } else {
      return violation(`unsupported grant_type ${grant}`, new Answer(400, { error: "unsupported_grant_type", error_description: "grant type not supported" }));
    }
    return issue();
  }

  function issue(): Answer {
    const accessToken = `00D5e0000000ECFX!${randomBytes(24).toString("base64url")}`;
    tokens.add(accessToken);
    const issuedAt = String(Date.now());
    return new Answer(200, {
      access_token: accessToken,
      instance_url: origin,
      id: `${origin}/id/00D5e0000000ECFXEA2/0055e000001ECFXAA1`,
      token_type: "Bearer",
      issued_at: issuedAt,
      signature: createHash("sha256")
        .update(accessToken + issuedAt)
        .digest("base64"),
    });
  }

  function record(object: string, row: Record<string, unknown>, fields: string[]) {
    const out: Record<string, unknown> = { attributes: { type: object, url: `/services/data/v62.0/sobjects/${object}/${String(row.Id)}` } };
    for (const field of fields) out[field] = row[field] ?? null;
    return out;
  }

  function query(soql: string): Answer {
    let parsed;
    try {
      parsed = readSoql(soql);
    } catch (error) {
      if (error instanceof MalformedQuery) return violation(`malformed SOQL: ${soql}`, sfError(400, error.message, "MALFORMED_QUERY"));
      throw error;
    }
    const known = parsed.object === "litify_pm__Matter__c" ? MATTER_FIELDS : parsed.object === "ContentVersion" ? VERSION_FIELDS : null;
    if (!known) return violation(`query of ${parsed.object}`, sfError(400, `sObject type '${parsed.object}' is not supported.`, "INVALID_TYPE"));
    for (const field of [...parsed.fields, ...parsed.where.map((w) => w.field)]) {
      // A column the org lacks is the firm's mistake, not the client's: answered, not recorded.
      if (!known.has(field)) return sfError(400, `No such column '${field}' on entity '${parsed.object}'.`, "INVALID_FIELD");
    }
    const rows: Record<string, unknown>[] = parsed.object === "ContentVersion" ? versions.map((v) => ({ ...v })) : [...matters.values()];
    const matching = rows.filter((row) => parsed.where.every(({ field, value }) => (row[field] ?? null) === value));
    const limited = matching.slice(0, parsed.limit ?? 2000);
    return new Answer(200, { totalSize: limited.length, done: true, records: limited.map((row) => record(parsed.object, row, parsed.fields)) });
  }

  function insertVersion(fields: Record<string, unknown>, bytes: Buffer, multipart: boolean): Answer {
    for (const key of Object.keys(fields)) {
      if (!VERSION_INSERTABLE.has(key))
        return violation(`ContentVersion field ${key}`, sfError(400, `No such column '${key}' on sobject of type ContentVersion`, "INVALID_FIELD", [key]));
    }
    for (const [key, max] of Object.entries(LIMITS)) {
      const value = fields[key];
      if (value !== undefined && (typeof value !== "string" || value.length > max)) {
        return violation(`ContentVersion ${key} too long`, sfError(400, `${key}: data value too large`, "STRING_TOO_LONG", [key]));
      }
    }
    if (typeof fields.PathOnClient !== "string" || !fields.PathOnClient) {
      return violation(
        "ContentVersion without PathOnClient",
        sfError(400, "Required fields are missing: [PathOnClient]", "REQUIRED_FIELD_MISSING", ["PathOnClient"]),
      );
    }
    const matterId = fields.FirstPublishLocationId;
    if (typeof matterId !== "string" || !matters.has(matterId)) {
      return violation(
        `FirstPublishLocationId ${String(matterId)}`,
        sfError(400, "First Publish Location ID: id value of incorrect type", "FIELD_INTEGRITY_EXCEPTION", ["FirstPublishLocationId"]),
      );
    }
    const version: Version = {
      Id: newId("0685e"),
      ContentDocumentId: newId("0695e"),
      Title: typeof fields.Title === "string" && fields.Title ? fields.Title : fields.PathOnClient.replace(/\.[^.]*$/, ""),
      PathOnClient: fields.PathOnClient,
      ReasonForChange: (fields.ReasonForChange as string | undefined) ?? null,
      Description: (fields.Description as string | undefined) ?? null,
      FirstPublishLocationId: matterId,
      IsLatest: true,
      Checksum: createHash("md5").update(bytes).digest("hex"),
      bytes,
      multipart,
    };
    versions.push(version);
    return new Answer(201, { id: version.Id, success: true, errors: [] });
  }

  function insert(contentType: string, body: Buffer): Answer {
    if (/^application\/json\b/i.test(contentType)) {
      let fields: Record<string, unknown>;
      try {
        fields = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
      } catch {
        return violation("ContentVersion insert: body is not JSON", sfError(400, "Unexpected character: was expecting JSON", "JSON_PARSER_ERROR"));
      }
      const data = fields.VersionData;
      if (typeof data !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(data)) {
        return violation(
          "ContentVersion insert without base64 VersionData",
          sfError(400, "Required fields are missing: [VersionData]", "REQUIRED_FIELD_MISSING", ["VersionData"]),
        );
      }
      if (data.length > JSON_BASE64_LIMIT)
        return violation("base64 VersionData above 37.5 MB", sfError(400, "Maximum size of request reached", "JSON_PARSER_ERROR"));
      const { VersionData: _, ...rest } = fields;
      return insertVersion(rest, Buffer.from(data, "base64"), false);
    }
    const boundary = /^multipart\/form-data;\s*boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) return violation(`ContentVersion insert as ${contentType}`, sfError(415, "Unsupported media type", "UNSUPPORTED_MEDIA_TYPE"));
    const found = parts(body, boundary);
    const [entity, data] = found ?? [];
    const named = (part: typeof entity, name: string) => new RegExp(`name="${name}"`).test(part?.headers["content-disposition"] ?? "");
    if (
      !found ||
      found.length !== 2 ||
      !named(entity, "entity_content") ||
      !named(data, "VersionData") ||
      !/^application\/json/i.test(entity!.headers["content-type"] ?? "")
    ) {
      return violation(
        "multipart ContentVersion insert not entity_content (JSON) then VersionData",
        sfError(400, "Multipart message must have entity_content then the binary part", "INVALID_MULTIPART_REQUEST"),
      );
    }
    let fields: Record<string, unknown>;
    try {
      fields = JSON.parse(entity!.bytes.toString("utf8")) as Record<string, unknown>;
    } catch {
      return violation("multipart entity_content is not JSON", sfError(400, "Unexpected character: was expecting JSON", "JSON_PARSER_ERROR"));
    }
    if ("VersionData" in fields)
      return violation("VersionData both in entity_content and as a part", sfError(400, "VersionData given twice", "INVALID_MULTIPART_REQUEST"));
    return insertVersion(fields, data!.bytes, true);
  }

  async function handle(request: http.IncomingMessage, body: Buffer): Promise<Answer> {
    const url = new URL(request.url ?? "/", origin);
    const method = request.method ?? "GET";
    const contentType = request.headers["content-type"] ?? "";
    log.push(`${method} ${url.pathname}${url.searchParams.has("q") ? ` ${url.searchParams.get("q")}` : ""}`);

    const failure = failures.find((f) => f.remaining > 0 && (!f.path || f.path.test(url.pathname)));
    if (failure) {
      failure.remaining--;
      const code = failure.code ?? ERROR_CODES[failure.status] ?? "UNKNOWN_EXCEPTION";
      const answer =
        url.pathname === "/services/oauth2/token"
          ? new Answer(failure.status, { error: code.toLowerCase(), error_description: `refused (${code})` })
          : sfError(failure.status, `Refused by the test: ${code}`, code);
      if (failure.retryAfterSeconds !== undefined) answer.headers["retry-after"] = String(failure.retryAfterSeconds);
      return answer;
    }

    if (url.pathname === "/services/oauth2/token") {
      if (method !== "POST")
        return violation(`${method} /services/oauth2/token`, new Answer(405, { error: "invalid_request", error_description: "must use HTTP POST" }));
      if (!/^application\/x-www-form-urlencoded\b/i.test(contentType)) {
        return violation(`token request as ${contentType}`, new Answer(400, { error: "invalid_request", error_description: "unsupported content type" }));
      }
      return token(new URLSearchParams(body.toString("utf8")));
    }

    const api = API_PATH.exec(url.pathname);
    if (!api) return violation(`${method} ${url.pathname} is not a REST API resource`, sfError(404, "The requested resource does not exist", "NOT_FOUND"));
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (!bearer) return violation(`${method} ${url.pathname} without a bearer token`, sfError(401, "Session expired or invalid", "INVALID_SESSION_ID"));
    if (!tokens.has(bearer)) return sfError(401, "Session expired or invalid", "INVALID_SESSION_ID");
    if (Number(api[1]) < 20) return violation(`API version ${api[1]}`, sfError(404, "The requested resource does not exist", "NOT_FOUND"));
    const resource = api[2]!;

    if (resource === "/query" || resource === "/query/") {
      if (method !== "GET")
        return violation(`${method} query`, sfError(405, `HTTP Method '${method}' not allowed. Allowed are GET,HEAD`, "METHOD_NOT_ALLOWED"));
      const soql = url.searchParams.get("q");
      if (!soql) return violation("query without q", sfError(400, "A query string has to be specified", "MALFORMED_QUERY"));
      return query(soql);
    }
    if (resource === "/sobjects/ContentVersion" || resource === "/sobjects/ContentVersion/") {
      if (method !== "POST")
        return violation(`${method} ContentVersion`, sfError(405, `HTTP Method '${method}' not allowed. Allowed are HEAD,GET,POST`, "METHOD_NOT_ALLOWED"));
      return insert(contentType, body);
    }
    return violation(`${method} ${url.pathname} is not a resource the client needs`, sfError(404, "The requested resource does not exist", "NOT_FOUND"));
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      void handle(request, Buffer.concat(chunks)).then(
        (answer) => {
          const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
          response.writeHead(answer.status, { "content-type": "application/json;charset=UTF-8", ...answer.headers });
          response.end(text);
        },
        (error: unknown) => {
          response.writeHead(500, { "content-type": "application/json;charset=UTF-8" });
          response.end(JSON.stringify([{ message: String(error), errorCode: "UNKNOWN_EXCEPTION" }]));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const matterOf = (id: string) => matters.get(id);
  const held = (version: Version): HeldDocument => {
    const segments = version.Title.split(" / ");
    const properties = Object.fromEntries(
      (version.Description ?? "")
        .split("\n")
        .filter((line) => line.includes(": "))
        .map((line) => [line.slice(0, line.indexOf(": ")), line.slice(line.indexOf(": ") + 2)]),
    );
    return {
      folder: [matterOf(version.FirstPublishLocationId)?.Name ?? version.FirstPublishLocationId, ...segments.slice(0, -1)],
      name: version.PathOnClient,
      bytes: version.bytes,
      properties,
      link: `${origin}/lightning/r/ContentDocument/${version.ContentDocumentId}/view`,
    };
  };

  return {
    origin,
    credentialSettings: () => ({
      instance_url: origin,
      client_id: LITIFY_CLIENT_ID,
      client_secret: LITIFY_CLIENT_SECRET,
      username: LITIFY_USERNAME,
      password: LITIFY_PASSWORD,
      matter_column_name: MATTER_COLUMN,
    }),
    documents: () => versions.map(held),
    folders: () => [...matters.values()].map((m) => [m.Name!]),
    failNext(status, { count = 1, retryAfterSeconds, path, code } = {}) {
      failures.push({ status, remaining: count, retryAfterSeconds, path, code });
    },
    contractViolations: () => [...violations],
    requests: () => [...log],
    tokenGrants: () => [...grants],
    jwtPrivateKey,
    revokeTokens: () => tokens.clear(),
    addMatter(fields) {
      const Id = newId("a0L5e");
      matters.set(Id, { Id, ...fields });
      return Id;
    },
    versions: () => [...versions],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
