import fs from "node:fs";
import { OpenAPIBackend } from "openapi-backend";
import YAML from "yaml";

// The ProLaw REST contract ECFX implements (tests/fixtures/openapi/prolaw/prolaw-rest.yaml) as
// the judge of every request the local ProLaw receives: the operation must exist, and its path,
// query and body (the multipart profile included) must match the description.

const DESCRIPTION = new URL("../../fixtures/openapi/prolaw/prolaw-rest.yaml", import.meta.url);

let loaded: Promise<OpenAPIBackend> | undefined;

function contract(): Promise<OpenAPIBackend> {
  loaded ??= (async () => {
    const api = new OpenAPIBackend({ definition: YAML.parse(fs.readFileSync(DESCRIPTION, "utf8")), quick: true, validate: true, ajvOpts: { strict: false } });
    await api.init();
    api.validator.preCompileRequestValidators();
    return api;
  })();
  return loaded;
}

export interface ContractRequest {
  method: string;
  /** Below the API's base path. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
}

/** Why the request is not one of the contract, or null when it is; the operation's id. */
export async function checkRequest(request: ContractRequest): Promise<{ operationId?: string; problem: string | null }> {
  const api = await contract();
  const operation = api.matchOperation(request);
  if (!operation) return { problem: `${request.method} ${request.path} is not an operation of the ProLaw contract` };
  const result = api.validateRequest(request, operation);
  const problem = result.valid
    ? null
    : (result.errors ?? []).map((error) => `${operation.operationId}: ${error.instancePath || "/"} ${error.message ?? error.keyword}`).join("; ");
  return { operationId: operation.operationId, problem };
}
