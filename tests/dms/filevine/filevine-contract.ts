import { z } from "zod";

// FileVine's API v2 as its published reference declares it, as the judge of every request the
// local FileVine receives. The reference is the gateway's Swagger 2.0 description ("Filevine Api
// Gateway" 2.0.0, FV.App.API.json, exported from FileVine's developer documentation at
// developer.filevine.io/docs/v2-us): each operation below names its operationId there, and its
// parameters and body are that operation's, written down here (the description is FileVine's and
// carries no licence to copy it). Bodies are read the way FileVine's .NET binder reads them:
// property names without regard to case; a property the definition does not have is refused.

/** `Identifier`: `{ Native, Partner }`. */
const identifier = z.object({ native: z.number().int(), partner: z.string().nullish() }).strict();
const paging = { limit: z.coerce.number().int().min(0).max(1000).optional(), offset: z.coerce.number().int().min(0).optional() };
const flag = z.enum(["true", "false"]);
const digits = z.string().regex(/^\d+$/);
/** Swagger's `format: date`: "2026-01-19". */
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD");

export interface Operation {
  /** The operation's summary in FileVine's reference (its operationId in the comment). */
  name: string;
  method: string;
  /** The path below the API root, lower-cased, with ":name" for path parameters. */
  path: string;
  query?: z.ZodTypeAny;
  /** The body's schema; absent: the operation takes no body. */
  body?: z.ZodTypeAny;
}

export const OPERATIONS: Operation[] = [
  // get-project-list
  {
    name: "Get Project List",
    method: "GET",
    path: "/projects",
    query: z
      .object({
        ...paging,
        latestActivityBefore: z.string().optional(),
        latestActivitySince: z.string().optional(),
        hashtags: z.string().optional(),
        phaseName: z.string().optional(),
        incidentDate: z.string().optional(),
        orderBy: z.string().optional(),
        sortBy: z.string().optional(),
        projectID: digits.optional(),
        excludeArchived: flag.optional(),
        searchTerm: z.string().optional(),
        createdSince: z.string().optional(),
        number: z.string().optional(),
        name: z.string().optional(),
        requestedFields: z.string().optional(),
      })
      .strict(),
  },
  // get-project
  { name: "Get Project", method: "GET", path: "/projects/:projectId", query: z.object({ requestedFields: z.string().optional() }).strict() },
  // get-entire-folder-structure
  {
    name: "Get Folder Structure",
    method: "GET",
    path: "/folders/list",
    query: z
      .object({
        ...paging,
        projectId: digits,
        ascendingOrder: flag.optional(),
        includeArchivedFolders: flag.optional(),
        includeArchivedProjects: flag.optional(),
        requestedFields: z.string().optional(),
      })
      .strict(),
  },
  // create-folder: a `Folder` (ParentId, Name and IsArchived required)
  {
    name: "Create Folder",
    method: "POST",
    path: "/folders",
    body: z
      .object({
        links: z.record(z.string()).optional(),
        folderid: identifier.optional(),
        parentid: identifier,
        projectid: identifier.optional(),
        name: z.string().trim().min(1),
        isarchived: z.boolean(),
        isprotected: z.boolean().optional(),
      })
      .strict(),
  },
  // get-document-list
  {
    name: "Get Document List",
    method: "GET",
    path: "/documents",
    query: z
      .object({
        ...paging,
        includeFullUserName: flag.optional(),
        filterEndDateByTime: flag.optional(),
        filterStartDateByTime: flag.optional(),
        endDate: z.string().optional(),
        startDate: z.string().optional(),
        requestedFields: z.string().optional(),
        searchTerm: z.string().optional(),
        noteId: digits.optional(),
        folderId: digits.optional(),
        projectId: digits.optional(),
      })
      .strict(),
  },
  // create-document-url-for-upload (Filename and Size required)
  {
    name: "Create Document URL for Upload",
    method: "POST",
    path: "/documents",
    body: z
      .object({
        filename: z.string().trim().min(1),
        size: z.number().int().min(0),
        projectid: identifier.optional(),
        folderid: identifier.optional(),
        uploaderid: identifier.optional(),
        documentid: identifier.optional(),
      })
      .strict(),
  },
  // add-document-to-project: the folder in the query, no body
  {
    name: "Add Document to Project",
    method: "POST",
    path: "/projects/:projectId/documents/:documentId",
    query: z.object({ folderId: digits.optional() }).strict(),
  },
  // update-document-metadata: a `DocumentUpdateRequest`, every field optional
  {
    name: "Update Document Metadata",
    method: "PATCH",
    path: "/documents/:documentId",
    body: z
      .object({
        filename: z.string().optional(),
        folderid: identifier.optional(),
        hashtags: z.array(z.string().regex(/^[A-Za-z0-9_-]+$/, "a hashtag is letters, digits, _ and -")).optional(),
      })
      .strict(),
  },
  // get-project-billing-items
  {
    name: "Get Project Billing Items",
    method: "GET",
    path: "/billingitem/projects/:projectId",
    query: z
      .object({
        ...paging,
        dateCreated: z.string().optional(),
        unsynced: flag.optional(),
        billingType: z.string().optional(),
        endDate: isoDate.optional(),
        startDate: isoDate.optional(),
      })
      .strict(),
  },
  // new-create-billing-item: a `BillingItemRequest`
  {
    name: "Create a Billing Item",
    method: "POST",
    path: "/projects/:projectId/billingitem",
    body: z
      .object({
        invoiceid: z.number().int().optional(),
        billingtype: z.enum(["Time", "Expenses", "FlatFee"]),
        isdraft: z.boolean().optional(),
        isbillable: z.boolean(),
        ischargeable: z.boolean(),
        userid: z.number().int().optional(),
        date: isoDate,
        description: z.string().max(4000),
        unit: z.string().optional(),
        rate: z.number().optional(),
        quantity: z.number(),
        billingcodeonekey: z.string().optional(),
        billingcodetwokey: z.string().optional(),
      })
      .strict()
      // "User ID of the timekeeper - required for Time entries"; "Unit … Required for Expenses"; a rate for Expenses and Flat Fees.
      .refine((item) => item.billingtype !== "Time" || item.userid !== undefined, { message: "a Time entry names its timekeeper (UserID)", path: ["userid"] })
      .refine((item) => item.billingtype !== "Expenses" || item.unit !== undefined, { message: "an Expenses entry names its Unit", path: ["unit"] })
      .refine((item) => item.billingtype === "Time" || item.rate !== undefined, { message: "Expenses and Flat Fees have a Rate", path: ["rate"] }),
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
