import { z } from "zod";

// NetDocuments' answers as the client reads them, one schema per shape (NetDocuments REST API
// v1 reference): an item is its standard attributes (alone, or under `standardAttributes`); a
// listing is an array or `standardList`/`list` with a `next` page token. An answer of another
// shape is a clear error, never an item passed over (which would create a folder twice).

/** Standard attributes: an id (or envId) and a name; a folder's extension is "ndfld". */
const attributes = z
  .object({
    id: z.string().min(1).optional(),
    envId: z.string().min(1).optional(),
    name: z.string(),
    extension: z.string().optional(),
    size: z.number().optional(),
  })
  .refine((value) => value.id ?? value.envId, { message: "Required", path: ["id"] })
  .transform(({ id, envId, name, extension, size }) => ({ id: (id ?? envId)!, name, extension: extension ?? "", ...(size === undefined ? {} : { size }) }));

const attributesOf = (value: unknown) =>
  typeof value === "object" && value !== null && typeof (value as { standardAttributes?: unknown }).standardAttributes === "object"
    ? (value as { standardAttributes: unknown }).standardAttributes
    : value;

/** A document, folder, workspace or cabinet entry. */
export const item = z.preprocess(attributesOf, attributes);
export type NetDocumentsItem = z.infer<typeof item>;

/** A folder's content or a cabinet's folders, one page. */
export const listing = z.preprocess(
  (answer) => (Array.isArray(answer) ? { list: answer } : answer),
  z
    .object({ standardList: z.array(item).optional(), list: z.array(item).optional(), next: z.string().nullish() })
    .transform(({ standardList, list, next }) => ({ items: standardList ?? list ?? [], next: next || undefined })),
);

/** The uploaded document: its id, alone or under standardAttributes. */
export const uploaded = z.preprocess(attributesOf, z.object({ id: z.string().min(1) }));

/** GET /v1/User/info: who the token signs in as. */
export const userInfo = z.object({ displayName: z.string().optional(), email: z.string().optional(), id: z.string().optional() });

/** GET /v1/Cabinet/{id}/info. */
export const cabinetInfo = z.object({ name: z.string().optional() });

/** POST /v1/OAuth: a token, perhaps a rotated refresh token. */
export const token = z.object({
  access_token: z.string().min(1),
  expires_in: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
  refresh_token: z.string().optional(),
});
