import { z } from "zod";
import type { Schema } from "../vendor-http";
import { boxHttp } from "./box-session";

// Box's answers as the client reads them, one schema per shape, after Box's OpenAPI description
// (box/box-openapi): the SDK's typed results are read from the JSON Box sent (`rawData`), through
// these, so an answer of another shape is a clear error rather than an item without a name or a
// file without an id further on.

/** An item of a folder listing, with the fields asked for (metadata above all). */
export const folderItem = z.object({
  type: z.enum(["file", "folder", "web_link"]),
  id: z.string().min(1),
  name: z.string(),
  size: z.number().optional(),
  metadata: z.record(z.record(z.record(z.unknown()))).optional(),
});
export type BoxItem = z.infer<typeof folderItem>;

/** GET /folders/{id}/items with usemarker. */
export const folderItems = z.object({ entries: z.array(folderItem), next_marker: z.string().nullish() });

/** GET /folders/{id}/items, the connection test's count. */
export const folderCount = z.object({ total_count: z.number().optional(), entries: z.array(z.unknown()).optional() });

/** A folder or file Box created or renamed: its id is what is read. */
export const created = z.object({ id: z.string().min(1) });

/** POST /files/content and an upload session's commit: the file in `entries`. */
export const uploadedFiles = z.object({ entries: z.array(created).min(1) });

/** POST /files/upload_sessions: where to send the parts, and their size. */
export const uploadSession = z.object({
  part_size: z.number().int().positive(),
  session_endpoints: z.object({ upload_part: z.string().url(), commit: z.string().url(), abort: z.string().url() }),
});

/** GET /users/me. */
export const user = z.object({ id: z.string().min(1), name: z.string().optional(), login: z.string().optional() });

/** An SDK result read as the JSON Box sent, through `schema`. */
export function boxAnswer<T>(schema: Schema<T>, result: { rawData?: unknown } | undefined, action: string): T {
  return boxHttp.parse(schema, result?.rawData, action);
}
