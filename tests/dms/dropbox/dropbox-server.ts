import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { dropboxContentHash } from "../../../server/dms/dropbox/content-hash";
import type { HeldDocument, VendorTestServer } from "../vendor-test-server";
import { DropboxNamespace, type PropertyGroup, RouteError, type Template } from "./dropbox-namespace";
import { Stone, type StoneRoute } from "./stone";

// A local Dropbox for the tests, on 127.0.0.1 with an ephemeral port: the OAuth token endpoint
// and the API v2 routes the Dropbox target calls, at Dropbox's paths (/oauth2/token, /2/<route>;
// RPC and content routes share the origin, as the target maps them when its base URL is
// switched), with Dropbox's status codes and bodies: 400 plain text for a malformed call, 401
// JSON for a bad token, 409 JSON with error_summary for a route error, 429 with Retry-After.
// Every call's arguments (JSON body or Dropbox-API-Arg header), its Dropbox-API-Path-Root header,
// and every answer this server gives (the result, or a route error's `error`) are checked against
// the route's types in Dropbox's Stone specification, tests/fixtures/dropbox-api/*.stone, read by
// ./stone.ts: a call off the specification is refused and recorded, an answer off it recorded.

const STONE_DIR = new URL("../../fixtures/dropbox-api/", import.meta.url);
const MAX_REQUEST_BYTES = 200 * 1024 * 1024;
const ROOT_PATH = "/ECFX";

type Args = Record<string, unknown>;
interface Route {
  style: "rpc" | "upload";
  handle(args: Args, body: Buffer): unknown;
}

export interface DropboxTestServer extends VendorTestServer {
  /** Makes every token issued so far expired, as four hours later. */
  expireTokens(): void;
  /** How many access tokens the token endpoint issued. */
  tokenGrants(): number;
  /** "POST /2/files/upload", … in the order they came. */
  requests(): string[];
  /** Puts another document at `path` (someone else's file), as a file the target did not write. */
  putFile(path: string, bytes: Buffer): void;
}

/** The team's root namespace, when the server plays a team member's account with team space. */
const TEAM_ROOT = "7770001";

export interface DropboxServerOptions {
  /** The account is a team member's whose team has team space (root namespace other than home). */
  teamSpace?: boolean;
  /** Lifetime of the access tokens issued (Dropbox: four hours). */
  tokenLifetimeSeconds?: number;
}

interface Failure {
  status: number;
  remaining: number;
  retryAfterSeconds?: number;
  path?: RegExp;
}

function failureBody(status: number, retryAfterSeconds?: number): { json?: unknown; text?: string } {
  if (status === 429)
    return { json: { error_summary: "too_many_requests/..", error: { reason: { ".tag": "too_many_requests" }, retry_after: retryAfterSeconds ?? 1 } } };
  if (status === 401) return { json: { error_summary: "invalid_access_token/..", error: { ".tag": "invalid_access_token" } } };
  if (status === 403) return { json: { error_summary: "no_permission/..", error: { ".tag": "no_permission" } } };
  if (status === 409) return { json: { error_summary: "other/..", error: { ".tag": "other" } } };
  if (status === 400) return { text: "Error in call to API function: the request was refused" };
  return { text: status >= 500 ? "Internal Server Error" : `HTTP ${status}` };
}

// The specification, read once for every server a test run starts.
let stone: Stone | undefined;
function specification(): Stone {
  stone ??= new Stone(
    fs
      .readdirSync(STONE_DIR)
      .filter((file) => file.endsWith(".stone"))
      .map((file) => new URL(file, STONE_DIR).pathname),
  );
  return stone;
}

/** The route's types in the specification. */
function routeOf(name: string): StoneRoute {
  const route = specification().routes.get(name);
  if (!route) throw new Error(`${name} is not a route of Dropbox's Stone specification`);
  return route;
}

function readBody(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) request.destroy(new Error("request too large"));
      else chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

const str = (value: unknown) => (typeof value === "string" ? value : "");
const tagOf = (value: unknown) => (typeof value === "string" ? value : str((value as { ".tag"?: unknown } | undefined)?.[".tag"]));

export async function startDropboxServer(options: DropboxServerOptions = {}): Promise<DropboxTestServer> {
  const lifetime = options.tokenLifetimeSeconds ?? 4 * 3600;
  const app = {
    key: `key${randomBytes(6).toString("hex")}`,
    secret: `secret${randomBytes(8).toString("hex")}`,
    refresh: `rt-${randomBytes(16).toString("hex")}`,
  };
  const tokens = new Map<string, number>();
  const violations: string[] = [];
  const log: string[] = [];
  const failures: Failure[] = [];
  let grants = 0;

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A team member with team space has a home namespace and the team's root namespace; calls reach
  // the team's only with Dropbox-API-Path-Root naming it. Without team space both are one.
  const home = new DropboxNamespace(origin);
  const team = options.teamSpace ? new DropboxNamespace(origin) : home;
  let namespace = home;

  // files/upload's UploadWriteFailed carries the reason and a session the bytes wait in.
  const pathError = (what: string) =>
    new RouteError(`path/conflict/${what}/..`, {
      ".tag": "path",
      reason: { ".tag": "conflict", conflict: { ".tag": what } },
      upload_session_id: `pid_upload_session:${randomBytes(12).toString("hex")}`,
    });
  const finishPathError = (what: string) =>
    new RouteError(`path/conflict/${what}/..`, { ".tag": "path", path: { ".tag": "conflict", conflict: { ".tag": what } } });
  const lookupError = (summary: string, error: unknown) => new RouteError(`lookup_failed/${summary}..`, { ".tag": "lookup_failed", lookup_failed: error });
  const checkHash = (args: Args, bytes: Buffer) => {
    if (args.content_hash !== undefined && args.content_hash !== dropboxContentHash(bytes))
      throw new RouteError("content_hash_mismatch/..", { ".tag": "content_hash_mismatch" });
  };
  const templateFilter = (args: Args) => (args.include_property_groups as { filter_some?: string[] } | undefined)?.filter_some;

  const routes: Record<string, Route> = {
    "users/get_current_account": {
      style: "rpc",
      handle: () => ({
        account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
        name: { given_name: "Franz", surname: "Ferdinand", familiar_name: "Franz", display_name: "Franz Ferdinand (Personal)", abbreviated_name: "FF" },
        email: "franz@example.com",
        email_verified: true,
        disabled: false,
        locale: "en",
        referral_link: "https://db.tt/ZITNuhtI",
        is_paired: false,
        account_type: { ".tag": "basic" },
        root_info: options.teamSpace
          ? { ".tag": "team", root_namespace_id: TEAM_ROOT, home_namespace_id: "3235641", home_path: "/Franz Ferdinand" }
          : { ".tag": "user", root_namespace_id: "3235641", home_namespace_id: "3235641" },
        country: "US",
      }),
    },
    "files/create_folder_v2": { style: "rpc", handle: (args) => namespace.createFolder(str(args.path)) },
    "files/get_metadata": { style: "rpc", handle: (args) => namespace.getMetadata(str(args.path), templateFilter(args)) },
    "files/list_folder": { style: "rpc", handle: (args) => namespace.listFolder(str(args.path)) },
    "files/upload": {
      style: "upload",
      handle: (args, body) => {
        if (tagOf(args.mode ?? "add") !== "add" || args.autorename === true) throw new Error("only mode add without autorename is served here");
        checkHash(args, body);
        return namespace.commit(str(args.path), body, args.property_groups as PropertyGroup[] | undefined, pathError);
      },
    },
    "files/upload_session/start": {
      style: "upload",
      handle: (args, body) => {
        checkHash(args, body);
        return { session_id: namespace.startSession(body) };
      },
    },
    "files/upload_session/append_v2": {
      style: "upload",
      handle: (args, body) => {
        checkHash(args, body);
        const cursor = args.cursor as { session_id: string; offset: number };
        namespace.appendSession(cursor.session_id, cursor.offset, body, lookupError);
        return null;
      },
    },
    "files/upload_session/finish": {
      style: "upload",
      handle: (args, body) => {
        checkHash(args, body);
        const cursor = args.cursor as { session_id: string; offset: number };
        const commit = args.commit as Args;
        if (tagOf(commit.mode ?? "add") !== "add" || commit.autorename === true) throw new Error("only mode add without autorename is served here");
        const bytes = namespace.appendSession(cursor.session_id, cursor.offset, body, lookupError);
        const metadata = namespace.commit(str(commit.path), bytes, commit.property_groups as PropertyGroup[] | undefined, finishPathError);
        namespace.closeSession(cursor.session_id);
        return metadata;
      },
    },
    "file_properties/templates/list_for_user": { style: "rpc", handle: () => ({ template_ids: [...namespace.templates.keys()] }) },
    "file_properties/templates/get_for_user": { style: "rpc", handle: (args) => namespace.getTemplate(str(args.template_id)) },
    "file_properties/templates/add_for_user": { style: "rpc", handle: (args) => ({ template_id: namespace.addTemplate(args as unknown as Template) }) },
    "file_properties/templates/update_for_user": {
      style: "rpc",
      handle: (args) => {
        const template = namespace.getTemplate(str(args.template_id));
        template.fields.push(...((args.add_fields as Template["fields"] | undefined) ?? []));
        return { template_id: args.template_id };
      },
    },
    "sharing/create_shared_link_with_settings": { style: "rpc", handle: (args) => namespace.createLink(str(args.path)) },
    "sharing/list_shared_links": { style: "rpc", handle: (args) => namespace.listLinks(args.path === undefined ? undefined : str(args.path)) },
  };

  function send(response: http.ServerResponse, status: number, answer: { json?: unknown; text?: string }, headers: Record<string, string> = {}): void {
    const text = answer.text ?? JSON.stringify(answer.json);
    response.writeHead(status, { "content-type": answer.text !== undefined ? "text/plain; charset=utf-8" : "application/json", ...headers });
    response.end(text);
  }

  function refuse(response: http.ServerResponse, route: string, why: string): void {
    violations.push(`${route}: ${why}`);
    send(response, 400, { text: `Error in call to API function "${route}": ${why}` });
  }

  function token(request: http.IncomingMessage, body: Buffer, response: http.ServerResponse): void {
    if (!str(request.headers["content-type"]).startsWith("application/x-www-form-urlencoded"))
      return refuse(response, "oauth2/token", "the body must be a form");
    const form = new URLSearchParams(body.toString("utf8"));
    const basic = /^Basic (.+)$/.exec(str(request.headers.authorization))?.[1];
    const [clientId, clientSecret] = basic ? Buffer.from(basic, "base64").toString("utf8").split(":") : [form.get("client_id"), form.get("client_secret")];
    if (form.get("grant_type") !== "refresh_token") {
      violations.push(`oauth2/token: grant_type ${form.get("grant_type")}`);
      return send(response, 400, { json: { error: "unsupported_grant_type", error_description: "grant_type must be refresh_token here" } });
    }
    if (clientId !== app.key || clientSecret !== app.secret)
      return send(response, 400, { json: { error: "invalid_client", error_description: "Invalid client_id or client_secret" } });
    if (form.get("refresh_token") !== app.refresh)
      return send(response, 400, { json: { error: "invalid_grant", error_description: "refresh token is invalid or revoked" } });
    const issued = `sl.${randomBytes(24).toString("base64url")}`;
    tokens.set(issued, Date.now() + lifetime * 1000);
    grants++;
    send(response, 200, { json: { access_token: issued, token_type: "bearer", expires_in: lifetime } });
  }

  function argumentsOf(route: string, style: Route["style"], request: http.IncomingMessage, body: Buffer): { args: Args } | { why: string } {
    const type = str(request.headers["content-type"]);
    let raw: string;
    if (style === "upload") {
      if (type !== "application/octet-stream") return { why: `Bad HTTP "Content-Type" header: "${type}". Expecting "application/octet-stream".` };
      raw = str(request.headers["dropbox-api-arg"]);
      if (!raw) return { why: 'Must provide HTTP header "Dropbox-API-Arg" or URL parameter "arg".' };
    } else {
      if (body.length > 0 && !type.startsWith("application/json")) return { why: `Bad HTTP "Content-Type" header: "${type}". Expecting "application/json".` };
      raw = body.length > 0 ? body.toString("utf8") : "null";
    }
    let args: unknown;
    try {
      args = JSON.parse(raw);
    } catch {
      return { why: "could not decode input as JSON" };
    }
    const problems = specification().check(routeOf(route).arg, args);
    if (problems.length) return { why: `request body: ${problems.join("; ")}` };
    return { args: (args ?? {}) as Args };
  }

  /** The namespace a call reaches: Dropbox-API-Path-Root, when sent, must be {".tag": "home"} or the team's root. */
  function pathRootOf(request: http.IncomingMessage): { namespace: DropboxNamespace } | { why: string } {
    const header = request.headers["dropbox-api-path-root"];
    if (header === undefined) return { namespace: home };
    let value: { ".tag"?: unknown; root?: unknown };
    try {
      value = JSON.parse(str(header)) as typeof value;
    } catch {
      return { why: "Dropbox-API-Path-Root is not JSON" };
    }
    const problems = specification().check(specification().type("common", "PathRoot"), value);
    if (problems.length) return { why: `Dropbox-API-Path-Root: ${problems.join("; ")}` };
    if (value[".tag"] === "home") return { namespace: home };
    if (value[".tag"] === "root" && options.teamSpace && value.root === TEAM_ROOT) return { namespace: team };
    if (value[".tag"] === "root" && !options.teamSpace && value.root === "3235641") return { namespace: home };
    return { why: `Dropbox-API-Path-Root names no namespace of this account: ${str(header)}` };
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", origin);
    const body = await readBody(request);
    log.push(`${request.method} ${url.pathname}`);
    const failure = failures.find((candidate) => candidate.remaining > 0 && (!candidate.path || candidate.path.test(url.pathname)));
    if (failure) {
      failure.remaining--;
      const retry = failure.retryAfterSeconds !== undefined ? { "retry-after": String(failure.retryAfterSeconds) } : undefined;
      return send(response, failure.status, failureBody(failure.status, failure.retryAfterSeconds), retry);
    }
    if (request.method !== "POST") return send(response, 405, { text: "Method Not Allowed" });
    if (url.pathname === "/oauth2/token") return token(request, body, response);
    const name = url.pathname.replace(/^\/2\//, "");
    const route = url.pathname.startsWith("/2/") ? routes[name] : undefined;
    if (!route) return refuse(response, name, "Unknown API function");
    const bearer = /^Bearer (.+)$/.exec(str(request.headers.authorization))?.[1];
    if (!bearer) return refuse(response, name, 'Must provide HTTP header "Authorization" or URL parameter "authorization".');
    const expiresAt = tokens.get(bearer);
    if (expiresAt === undefined) return send(response, 401, { json: { error_summary: "invalid_access_token/..", error: { ".tag": "invalid_access_token" } } });
    if (expiresAt <= Date.now()) return send(response, 401, { json: { error_summary: "expired_access_token/..", error: { ".tag": "expired_access_token" } } });
    const parsed = argumentsOf(name, route.style, request, body);
    if ("why" in parsed) return refuse(response, name, parsed.why);
    const root = pathRootOf(request);
    if ("why" in root) return refuse(response, name, root.why);
    namespace = root.namespace;
    // What this server answers is held to the specification too: a wrong answer would let a wrong reading pass.
    const answerProblems = (type: StoneRoute["result"], value: unknown) =>
      violations.push(
        ...specification()
          .check(type, value)
          .map((problem) => `${name}: answer ${problem}`),
      );
    try {
      const result = route.handle(parsed.args, body) ?? null;
      answerProblems(routeOf(name).result, result);
      send(response, 200, { json: result });
    } catch (error) {
      if (!(error instanceof RouteError)) return refuse(response, name, (error as Error).message);
      answerProblems(routeOf(name).error, error.error);
      send(response, 409, { json: { error_summary: error.summary, error: error.error } });
    }
  }

  server.on("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
    handle(request, response).catch((error: Error) => send(response, 500, { text: error.message }));
  });

  const rootParts = ROOT_PATH.split("/").filter(Boolean);
  /** Folder names below the credential's root path (the whole path for anything outside it). */
  const belowRoot = (path: string) => {
    const parts = path.split("/").filter(Boolean);
    const inside = rootParts.every((part, index) => parts[index]?.toLowerCase() === part.toLowerCase());
    return inside ? parts.slice(rootParts.length) : parts;
  };

  return {
    origin,
    credentialSettings: () => ({ app_key: app.key, app_secret: app.secret, refresh_token: app.refresh, root_path: ROOT_PATH, folder_creation_sync_delay: 0 }),
    // What the firm sees: the team space when the account has one.
    documents: () =>
      [...team.entries.values()]
        .filter((entry) => entry.tag === "file")
        .map((entry): HeldDocument => {
          const parts = belowRoot(entry.pathDisplay);
          return {
            folder: parts.slice(0, -1),
            name: parts[parts.length - 1] ?? "",
            bytes: entry.bytes ?? Buffer.alloc(0),
            properties: Object.fromEntries((entry.propertyGroups ?? []).flatMap((group) => group.fields.map((field) => [field.name, field.value]))),
            link: team.linkFor(entry),
          };
        }),
    folders: () =>
      [...team.entries.values()]
        .filter((entry) => entry.tag === "folder")
        .map((entry) => belowRoot(entry.pathDisplay))
        .filter((parts) => parts.length > 0),
    failNext(status, { count = 1, retryAfterSeconds, path } = {}) {
      failures.push({ status, remaining: count, retryAfterSeconds, path });
    },
    contractViolations: () => [...violations],
    expireTokens() {
      for (const key of tokens.keys()) tokens.set(key, 0);
    },
    tokenGrants: () => grants,
    requests: () => [...log],
    putFile(path, bytes) {
      team.commit(path, bytes, undefined, pathError);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
