import { z } from "zod";

// FileVine's API v2 as its developer pages describe it (developer.filevine.io: "Get Project
// List", "Get Folder Structure", "Create Document URL for Upload", "Add Document to Project",
// billing items; the identity server's personal-access-token exchange; the older /session), as
// the judge of every request the local FileVine receives. FileVine publishes no machine-readable
// description, so each operation's parameters and body are written down here from those pages.
// Bodies are read the way FileVine's .NET binder reads them: property names without regard to case.

const native = z.object({ native: z.number().int().positive() }).strict();
const paging = { limit: z.coerce.number().int().min(0).max(1000).optional(), offset: z.coerce.number().int().min(0).optional() };
const flag = z.enum(["true", "false"]);

export interface Operation {
  name: string;
  method: string;
  /** The path below the API root, lower-cased, with ":name" for path parameters. */
  path: string;
  query?: z.ZodTypeAny;
  body?: z.ZodTypeAny;
}

export const OPERATIONS: Operation[] = [
  {
    name: "Get Project List",
    method: "GET",
    path: "/projects",
    query: z
      .object({
        ...paging,
        number: z.string().optional(),
        name: z.string().optional(),
        excludeArchived: flag.optional(),
        searchTerm: z.string().optional(),
        requestedFields: z.string().optional(),
        orderBy: z.enum(["asc", "desc"]).optional(),
      })
      .strict(),
  },
  { name: "Get Project", method: "GET", path: "/projects/:projectId", query: z.object({ requestedFields: z.string().optional() }).strict() },
  {
    name: "Get Folder Structure",
    method: "GET",
    path: "/folders/list",
    query: z
      .object({ ...paging, projectId: z.string().regex(/^\d+$/), includeArchivedFolders: flag.optional(), requestedFields: z.string().optional() })
      .strict(),
  },
  {
    name: "Create Folder",
    method: "POST",
    path: "/folders",
    body: z.object({ projectid: native, parentid: native, name: z.string().trim().min(1).max(255) }).strict(),
  },
  {
    name: "Get Document List",
    method: "GET",
    path: "/documents",
    query: z.object({ ...paging, projectId: z.string().regex(/^\d+$/), folderId: z.string().regex(/^\d+$/).optional() }).strict(),
  },
  {
    name: "Create Document URL for Upload",
    method: "POST",
    path: "/documents",
    body: z.object({ filename: z.string().trim().min(1).max(255), size: z.number().int().min(0) }).strict(),
  },
  {
    name: "Add Document to Project",
    method: "POST",
    path: "/projects/:projectId/documents/:documentId",
    body: z
      .object({
        documentid: native,
        projectid: native,
        folderid: native.optional(),
        filename: z.string().trim().min(1).max(255),
        size: z.number().int().min(0),
        uploaddate: z.string().datetime().optional(),
        hashtags: z.array(z.string().regex(/^[A-Za-z0-9_-]+$/, "a hashtag is letters, digits, _ and -")).optional(),
      })
      .strict(),
  },
  { name: "Get Project Billing Items", method: "GET", path: "/billingitem/projects/:projectId", query: z.object(paging).strict() },
  {
    name: "Create Billing Item",
    method: "POST",
    path: "/projects/:projectId/billingitem",
    body: z
      .object({
        billingtype: z.enum(["Time", "Expense", "FlatFee"]),
        date: z.string().datetime(),
        description: z.string().min(1).max(1000),
        quantity: z.number().min(0),
        rate: z.number().min(0),
        isbillable: z.boolean(),
      })
      .strict(),
  },
];

export const PAT_TOKEN_REQUEST = z
  .object({
    grant_type: z.literal("personal_access_token"),
    token: z.string().min(1),
    client_id: z.string().min(1),
    client_secret: z.string().min(1),
    scope: z.string().refine((scope) => ["fv.api.gateway.access", "filevine.v2.api.*"].every((s) => scope.split(" ").includes(s)), "lacks the gateway scopes"),
  })
  .strict();

export const KEY_SESSION_REQUEST = z
  .object({
    mode: z.literal("key"),
    apikey: z.string().min(1),
    apihash: z.string().regex(/^[0-9a-f]{32}$/),
    apitimestamp: z.string().datetime(),
  })
  .strict();

/** Property names as FileVine's binder compares them. */
export function lowerKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(lowerKeys);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key.toLowerCase(), lowerKeys(inner)]));
}

/** The operation a method and path (below the API root) name, with its path parameters. */
export function matchOperation(method: string, path: string): { operation: Operation; params: Record<string, string> } | null {
  const parts = path.toLowerCase().split("/").filter(Boolean);
  for (const operation of OPERATIONS) {
    if (operation.method !== method) continue;
    const pattern = operation.path.split("/").filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    if (pattern.every((segment, i) => (segment.startsWith(":") ? ((params[segment.slice(1)] = parts[i]!), /^\d+$/.test(parts[i]!)) : segment === parts[i])))
      return { operation, params };
  }
  return null;
}

export const problemsOf = (result: z.SafeParseReturnType<unknown, unknown>): string[] =>
  result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".") || "/"} ${issue.message}`);
