import { z } from "zod";

// FileVine's answers, as its API v2 reference (the gateway's Swagger description, "Filevine Api
// Gateway" 2.0.0) declares them: property names in PascalCase, identifiers as
// `{ Native, Partner }`, lists as `{ Items, HasMore, … }`. Declared once here; every call parses its
// answer through one of them, so an answer FileVine changed fails loudly instead of filing wrongly.
// Names are matched without regard to case, as FileVine's own .NET serializer reads them; only
// the fields ECFX reads are declared, the rest pass.

/** Renames an object's keys to the declared ones when they differ only in case. */
const byDeclaredName = (names: string[]) => (value: unknown) => {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const declared = new Map(names.map((name) => [name.toLowerCase(), name]));
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [declared.get(key.toLowerCase()) ?? key, inner]));
};

function fvObject<T extends z.ZodRawShape>(shape: T) {
  return z.preprocess(byDeclaredName(Object.keys(shape)), z.object(shape).passthrough());
}

/** FileVine's `Identifier`: `{ Native: 123, Partner: "…" }`, its number as text. */
const identifier = fvObject({ Native: z.number().int() }).transform((id) => String(id.Native));
const optionalId = identifier.nullish().transform((id) => id ?? null);
const text = z
  .string()
  .nullish()
  .transform((value) => value ?? "");

const itemList = <T extends z.ZodTypeAny>(item: T) =>
  fvObject({
    Items: z
      .array(item)
      .nullish()
      .transform((items) => items ?? []),
    HasMore: z
      .boolean()
      .nullish()
      .transform((more) => more === true),
  });

/** `Project` (Get Project, and the items of Get Project List). */
export const projectAnswer = fvObject({
  ProjectId: identifier,
  ProjectName: text,
  ProjectOrClientName: text,
  Number: text,
  RootDocFolderId: optionalId,
  ProjectUrl: text,
  IsArchived: z.boolean().nullish(),
});
export const projectList = itemList(projectAnswer);

/** `Folder` (Create Folder, and the items of Get Folder Structure). */
export const folderAnswer = fvObject({ FolderId: identifier, ParentId: optionalId, Name: text, IsArchived: z.boolean().nullish() });
export const folderList = itemList(folderAnswer);

/** `Document` (Add Document to Project, Update Document Metadata, and the items of Get Document List). */
export const documentAnswer = fvObject({
  DocumentId: identifier,
  Filename: text,
  FolderId: optionalId,
  Size: z.number().nullish(),
  UploaderId: optionalId,
  Hashtags: z
    .array(z.string())
    .nullish()
    .transform((tags) => (tags ?? []).map((tag) => tag.replace(/^#+/, "").toLowerCase())),
});
export const documentList = itemList(documentAnswer);

/** `DocumentUploadLocator` (Create Document URL for Upload). */
export const uploadLocator = fvObject({ DocumentId: identifier, Url: z.string().url(), ContentType: z.string().nullish() });

/** `BillingItemListResponse`, the items of Get Project Billing Items. */
export const billingItemList = itemList(fvObject({ Description: text }));
/** `BillingItemResponse` (Create a Billing Item). */
export const billingItemCreated = fvObject({ BillingItemId: z.string().min(1) });

/** `UserOrgs` (Get User Orgs With Token): the token's user and the orgs it belongs to. */
export const userOrgs = fvObject({
  User: fvObject({ UserId: identifier, FirstName: text, LastName: text, Username: text, Email: text }),
  Orgs: z.array(fvObject({ OrgId: z.number().int().transform(String) })).min(1),
});

/** The identity server's token answer (OAuth 2.0). */
export const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.number().nullish() }).passthrough();

/** The older API's `/session` answer. */
export const keySessionAnswer = fvObject({
  AccessToken: z.string().min(1),
  RefreshToken: z.string().min(1),
  UserId: z.union([z.number().int(), z.string().min(1), identifier]).transform(String),
  OrgId: z.union([z.number().int(), z.string().min(1), identifier]).transform(String),
  AccessTokenExpiry: z.string().nullish(),
});
