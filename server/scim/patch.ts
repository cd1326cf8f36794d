import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, PATCH_SCHEMA, ScimError, USER_SCHEMA } from "./protocol";

// PATCH (RFC 7644 §3.5.2) read into operations on one attribute each. Identity providers differ in
// how they write the same change: Entra ID capitalises the operation ("Replace") and sends booleans
// as the strings "True"/"False"; Okta sends a value object without a path ({"active": false}). Both
// come out of here as the same operations.

export type PatchOp = "add" | "replace" | "remove";

export interface PatchPath {
  /** The attribute, lower case (attribute names are not case-sensitive). */
  attribute: string;
  /** The value filter of a multi-valued attribute: `members[value eq "…"]`. */
  filter?: string;
  /** The sub-attribute, lower case: `name.givenName`. */
  sub?: string;
  /** An attribute of a schema extension (enterprise user): kept by nobody here. */
  extension: boolean;
}

export interface PatchOperation {
  op: PatchOp;
  path?: PatchPath;
  value?: unknown;
}

const ATTRIBUTE = /^([A-Za-z$][\w$-]*)(?:\[(.+)\])?(?:\.([A-Za-z$][\w$-]*))?$/;

export function parsePath(text: string): PatchPath {
  let rest = text.trim();
  let extension = false;
  if (rest.toLowerCase().startsWith("urn:")) {
    const core = [USER_SCHEMA, GROUP_SCHEMA].find((urn) => rest.toLowerCase().startsWith(`${urn.toLowerCase()}:`));
    if (core) rest = rest.slice(core.length + 1);
    else {
      // An extension's attribute: urn:…:enterprise:2.0:User:department (its last segment).
      extension = true;
      rest = rest.slice(rest.lastIndexOf(":") + 1);
    }
  }
  const match = ATTRIBUTE.exec(rest);
  if (!match) throw new ScimError(400, `The path cannot be read: ${text.slice(0, 200)}`, "invalidPath");
  return { attribute: match[1]!.toLowerCase(), filter: match[2], sub: match[3]?.toLowerCase(), extension };
}

function opOf(value: unknown): PatchOp {
  const op = typeof value === "string" ? value.toLowerCase() : "";
  if (op === "add" || op === "replace" || op === "remove") return op;
  throw new ScimError(400, `Unknown PATCH operation: ${String(value).slice(0, 40)}.`, "invalidSyntax");
}

/**
 * The operations of a PATCH body, each on one attribute. An operation without a path carries an
 * object whose keys are paths (`"name.givenName"`, `"urn:…:enterprise:2.0:User:department"`) or
 * whole attributes; it becomes one operation per key.
 */
export function patchOperations(body: unknown): PatchOperation[] {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new ScimError(400, "A PATCH request carries a PatchOp object.", "invalidSyntax");
  const request = body as Record<string, unknown>;
  if (Array.isArray(request.schemas) && !request.schemas.includes(PATCH_SCHEMA))
    throw new ScimError(400, `A PATCH request names the schema ${PATCH_SCHEMA}.`, "invalidSyntax");
  const operations = request.Operations ?? request.operations;
  if (!Array.isArray(operations) || operations.length === 0) throw new ScimError(400, "A PATCH request lists its Operations.", "invalidSyntax");
  return operations.flatMap((raw): PatchOperation[] => {
    if (!raw || typeof raw !== "object") throw new ScimError(400, "Each operation is an object.", "invalidSyntax");
    const { op: rawOp, path, value } = raw as Record<string, unknown>;
    const op = opOf(rawOp);
    if (typeof path === "string" && path.trim() !== "") return [{ op, path: parsePath(path), value }];
    if (path !== undefined && path !== null && path !== "") throw new ScimError(400, "The path must be a string.", "invalidPath");
    if (op === "remove") throw new ScimError(400, "A remove operation names its path.", "noTarget");
    if (!value || typeof value !== "object" || Array.isArray(value)) throw new ScimError(400, "An operation without a path carries an object.", "invalidValue");
    return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]): PatchOperation[] => {
      // An extension's attributes may come as one object under the extension's URN.
      if (key.toLowerCase() === ENTERPRISE_USER_SCHEMA.toLowerCase()) return [];
      return [{ op, path: parsePath(key), value: inner }];
    });
  });
}

/** A boolean as providers send it: true, or the strings "True"/"true" (Entra ID). */
export function booleanOf(value: unknown, attribute: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && ["true", "false"].includes(value.trim().toLowerCase())) return value.trim().toLowerCase() === "true";
  throw new ScimError(400, `${attribute} must be true or false.`, "invalidValue");
}

/** A string attribute's value; null and "" clear it where `clearable`. */
export function textOf(value: unknown, attribute: string, clearable = true): string | null {
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (clearable && (value === null || value === "")) return null;
  throw new ScimError(400, `${attribute} must be ${clearable ? "a string" : "a non-empty string"}.`, "invalidValue");
}
