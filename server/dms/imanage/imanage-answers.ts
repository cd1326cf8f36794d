import { z } from "zod";

// iManage Work's answers as the client reads them, one schema per shape (iManage Work REST API
// v2 as documented for integrators): lists and single items come under `data`; iManage leaves
// empty profile fields out, so only what every item carries is required. An answer of another
// shape is a clear error, never an item passed over (a folder created twice, a copy missed).

const id = z.string().min(1);
/** A profile field: text, or a number iManage sends as one (custom fields). */
const field = z.union([z.string(), z.number()]).nullish();

/** GET …/workspaces: the matter field is read by name, so every field is kept. */
export const workspaces = z.object({ data: z.array(z.object({ id }).catchall(z.unknown())) });

/** GET …/{folders|workspaces}/{id}/children. */
export const children = z.object({ data: z.array(z.object({ id, name: z.string(), wstype: z.string().optional() })) });

/** GET …/folders/{id}/documents and GET …/documents (search). */
export const documents = z.object({ data: z.array(z.object({ id, name: field, extension: field, comment: field })) });

/** POST …/subfolders, …/folders and …/documents: the new item. */
export const created = z.object({ data: z.object({ id }) });

/** POST /auth/oauth2/token. */
export const token = z.object({
  access_token: z.string().min(1),
  expires_in: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
  refresh_token: z.string().optional(),
});

/** GET /api (discovery): who the token belongs to and the customer the API paths need. */
export const discovery = z.object({
  data: z.object({ user: z.object({ id: z.string().optional(), customer_id: z.union([z.number(), z.string()]).optional() }).optional() }),
});
