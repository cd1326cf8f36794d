// The words of SCIM 2.0 (RFC 7643, RFC 7644) this service speaks: schema URNs, the content type,
// error answers and list answers.

export const SCIM_CONTENT_TYPE = "application/scim+json";
export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const ENTERPRISE_USER_SCHEMA = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
export const LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
export const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

/** RFC 7644 §3.12's detail error keywords. */
export type ScimType = "invalidFilter" | "tooMany" | "uniqueness" | "mutability" | "invalidSyntax" | "invalidPath" | "noTarget" | "invalidValue";

/** An answer in RFC 7644 §3.12's error form: status, human detail and, for a 400 or 409, what kind. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }

  body(): Record<string, unknown> {
    return { schemas: [ERROR_SCHEMA], status: String(this.status), ...(this.scimType ? { scimType: this.scimType } : {}), detail: this.detail };
  }
}

export interface Page {
  startIndex: number;
  count: number;
}

/** startIndex is 1-based (below 1 reads as 1); count below 0 reads as 0 (RFC 7644 §3.4.2.4). */
export function pageOf(query: { startIndex?: unknown; count?: unknown }, maxResults: number): Page {
  const number = (value: unknown, fallback: number) => {
    if (value === undefined || value === "") return fallback;
    const n = Number(value);
    if (!Number.isInteger(n)) throw new ScimError(400, `Not a whole number: ${String(value).slice(0, 40)}.`, "invalidValue");
    return n;
  };
  return { startIndex: Math.max(1, number(query.startIndex, 1)), count: Math.min(maxResults, Math.max(0, number(query.count, maxResults))) };
}

export function listResponse<T>(all: T[], page: Page): Record<string, unknown> {
  const resources = all.slice(page.startIndex - 1, page.startIndex - 1 + page.count);
  return { schemas: [LIST_SCHEMA], totalResults: all.length, startIndex: page.startIndex, itemsPerPage: resources.length, Resources: resources };
}

/** `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5) on top-level attributes; id and schemas always stay. */
export function selectAttributes(resource: Record<string, unknown>, query: { attributes?: unknown; excludedAttributes?: unknown }): Record<string, unknown> {
  const names = (value: unknown) =>
    typeof value === "string" && value !== ""
      ? value.split(",").map((name) => (name.includes(":") ? name.slice(name.lastIndexOf(":") + 1) : name).split(".")[0]!.trim().toLowerCase())
      : undefined;
  const keep = names(query.attributes);
  const drop = names(query.excludedAttributes);
  return Object.fromEntries(
    Object.entries(resource).filter(([key]) => {
      const name = key.toLowerCase();
      if (name === "id" || name === "schemas") return true;
      if (keep) return keep.includes(name);
      return !drop?.includes(name);
    }),
  );
}
