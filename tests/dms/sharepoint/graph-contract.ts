import fs from "node:fs";
import { OpenAPIBackend } from "openapi-backend";
import YAML from "yaml";
import type { Exchange } from "./stand-in";

// Checks a Graph request against the subset of Microsoft's published OpenAPI description in
// tests/fixtures/openapi/msgraph. Graph's path-based addressing ("/sites/{host}:/{path}",
// "/drives/{id}/items/{id}:/{path}:/content") is folded into the id parameter first, as Graph
// resolves it before the operation runs.

const DESCRIPTION = new URL("../../fixtures/openapi/msgraph/graph-files-subset.yaml", import.meta.url);

export interface Addressed {
  /** "/sites" or "/drives/{id}/items". */
  collection: string;
  /** The id before the colon ("root", an item id, a host name). */
  base: string;
  /** Decoded segments after the colon. */
  relative: string[];
  /** What follows the addressed part: "", "/content", "/children", … */
  tail: string;
}

/** Splits a path-addressed Graph path, or null when it addresses by id only. */
export function addressed(path: string): Addressed | null {
  const match = /^(\/sites|\/drives\/[^/]+\/items)\/([^/:]+):(\/[^:]*)(?::(\/[^:]*)?)?$/.exec(path);
  if (!match) return null;
  const relative = (match[3] ?? "").split("/").filter(Boolean).map(decodeURIComponent);
  return { collection: match[1] ?? "", base: decodeURIComponent(match[2] ?? ""), relative, tail: match[4] ?? "" };
}

export class GraphContract {
  private readonly api = new OpenAPIBackend({ definition: YAML.parse(fs.readFileSync(DESCRIPTION, "utf8")), quick: true, validate: true, strict: false });
  private ready?: Promise<unknown>;

  /** Compiles the description's validators; the stand-in waits for it before it listens. */
  async load(): Promise<void> {
    await (this.ready ??= this.api.init());
  }

  /** Why `exchange` (its path below /v1.0) is not a request of the description, or null when it is. */
  async refusal(exchange: Exchange, graphPath: string): Promise<string | null> {
    await this.load();
    const parts = addressed(graphPath);
    const path = parts ? `${parts.collection}/${encodeURIComponent(`${parts.base}:/${parts.relative.join("/")}`)}${parts.tail}` : graphPath;
    const json = String(exchange.headers["content-type"] ?? "").startsWith("application/json");
    const request = {
      method: exchange.method,
      path,
      headers: exchange.headers as Record<string, string>,
      query: Object.fromEntries(exchange.query),
      body: json ? (JSON.parse(exchange.body.toString("utf8") || "null") as unknown) : exchange.body.toString("latin1"),
    };
    const operation = this.api.matchOperation(request);
    if (!operation) return `no operation ${exchange.method} ${path} in the description`;
    const result = this.api.validateRequest(request, operation);
    return result.valid ? null : (result.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ""}`).join("; ");
  }
}
