import { z } from "zod";
import type { Schema } from "../vendor-http";
import { clioHttp } from "./clio-http";
import type { ClioSession } from "./clio-session";

// Clio's list answers: `{ data: [...], meta: { paging: { next: <url> } } }`, at most 200 records
// a page. A list is followed page by page up to a bound, so a huge account cannot keep a filing
// busy for ever. Each record is read through the caller's zod schema, so an answer of another
// shape is a clear failure rather than a silent miss.

const MAX_PAGES = 10;

const page = z.object({
  data: z.array(z.unknown()).optional(),
  meta: z
    .object({ paging: z.object({ next: z.string().optional() }).passthrough().optional() })
    .passthrough()
    .optional(),
});

/** A Clio answer read through `schema`; a permanent error naming `action` when it does not fit. */
export const parseAnswer = <T>(schema: Schema<T>, answer: unknown, action: string): T => clioHttp.parse(schema, answer, action);

/** Every record of the list at `path` with `query` (limit 200), up to MAX_PAGES pages. */
export async function listAll<T>(
  session: ClioSession,
  path: string,
  query: Record<string, string | number | boolean>,
  action: string,
  record: z.ZodType<T>,
): Promise<T[]> {
  const records: T[] = [];
  let next: string | undefined;
  for (let index = 0; index < MAX_PAGES; index++) {
    const raw = await (next ? session.call(next, {}, action) : session.call(path, { query: { ...query, limit: 200 } }, action));
    const answer = parseAnswer(page, raw ?? {}, action);
    for (const item of answer.data ?? []) records.push(parseAnswer(record, item, action));
    next = answer.meta?.paging?.next;
    if (!next) break;
  }
  return records;
}

/**
 * Where an item sits, as Clio reports it: `parent` is a LinkedFolderBase, always a Folder. Items
 * at a matter's top level report the matter's own folder (`matter.folder`), never the matter.
 */
export const parentSchema = z
  .object({ id: z.number(), type: z.literal("Folder") })
  .passthrough()
  .nullish();

/** True when `parent` is the folder `folderId`. */
export const inFolder = (parent: z.infer<typeof parentSchema>, folderId: number) => parent?.id === folderId;
