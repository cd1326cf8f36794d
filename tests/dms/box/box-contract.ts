import fs from "node:fs";
import { OpenAPIBackend, type Operation, type Request as OpenApiRequest } from "openapi-backend";

// Box's published OpenAPI description, reduced to the operations the client uses
// (tests/fixtures/openapi/box/README.md), as the judge of every request the local Box receives.
// Two adaptations at load time, none to the file: examples are dropped (some hold "$id" keys
// that the validator would take for schema ids) and "nullable" is dropped where no "type" stands
// beside it (Box's description puts it next to allOf, which the validator refuses to compile).

const DESCRIPTION = new URL("../../fixtures/openapi/box/openapi.json", import.meta.url);

function adapt(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(adapt);
  if (!node || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  if ("nullable" in schema && !schema.type) delete schema.nullable;
  delete schema.example;
  if (schema.examples && typeof schema.examples === "object" && !("type" in schema.examples)) delete schema.examples;
  Object.values(schema).forEach(adapt);
}

let loaded: Promise<OpenAPIBackend> | undefined;

/** One validator per process: compiling Box's schemas is the slow part, and it never changes. */
export function contract(): Promise<OpenAPIBackend> {
  loaded ??= (async () => {
    const definition = JSON.parse(fs.readFileSync(DESCRIPTION, "utf8")) as Record<string, unknown>;
    adapt(definition);
    // Quick: no response validators, and no check of the description itself.
    const api = new OpenAPIBackend({ definition: definition as never, quick: true, validate: true, ajvOpts: { strict: false, validateFormats: false } });
    await api.init();
    // Request validators only (answers are not checked), all compiled now, so that the first
    // request of each kind is not slowed past a client's time-out.
    api.validator.preCompileRequestValidators();
    return api;
  })();
  return loaded;
}

/**
 * The description's path for a request path of the local Box: "/2.0/…" (api.box.com/2.0) and
 * "/api/2.0/…" (upload.box.com/api/2.0) lose their server prefix; "/oauth2/token" is its own.
 */
export function describedPath(path: string): string {
  if (path.startsWith("/api/2.0/")) return path.slice("/api/2.0".length);
  if (path.startsWith("/2.0/")) return path.slice("/2.0".length);
  return path;
}

export interface ContractCheck {
  operation?: Operation;
  /** Why the request does not match the description; empty when it does. */
  problems: string[];
}

/** Matches a request to its operation and validates parameters and body against the description. */
export async function checkRequest(request: OpenApiRequest): Promise<ContractCheck> {
  const api = await contract();
  const described = { ...request, path: describedPath(request.path) };
  const operation = api.router.matchOperation(described);
  if (!operation) return { problems: [`${request.method.toUpperCase()} ${request.path} is not an operation of Box's API`] };
  const result = api.validator.validateRequest(described, operation);
  const problems = (result.errors ?? []).map((error) => `${operation.operationId}: ${error.instancePath || "/"} ${error.message ?? error.keyword}`);
  return { operation, problems };
}

/** Validates a successful JSON answer of the local Box against the operation's response schema. */
export async function checkAnswer(method: string, path: string, status: number, body: unknown): Promise<string[]> {
  const api = await contract();
  const operation = api.router.matchOperation({ method: method.toLowerCase(), path: describedPath(path), headers: {}, query: {} });
  if (!operation || status < 200 || status >= 300 || body === undefined) return [];
  const result = api.validator.validateResponse(body, operation, status);
  return (result.errors ?? []).map((error) => `${operation.operationId} answer ${status}: ${error.instancePath || "/"} ${error.message ?? error.keyword}`);
}
