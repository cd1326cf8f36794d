import type { Kysely } from "kysely";
import type { DB } from "../db/schema";
import { withoutControlCharacters } from "../lib/control-characters";
import { type MessageBody, PARSER_VERSION, type ParsedEmail, type ParsedMessage, parseNoticeMessage } from "../notices/index";

// The parse result of a received message is written once, when the message is processed, and
// read from here by everything after (notification, storage, the console): the raw e-mail is
// parsed again only when the parser has changed since.

interface StoredColumns {
  parsed: string | null;
  parser_version: number | null;
  message_body: string | null;
}

function fromJson<T>(value: string | null): T | null {
  if (!value) return null;
  try {
    return JSON.parse(value) as T;
  } catch {
    return null;
  }
}

/** The kept parse of a message when the current parser wrote it, else null (parse again). */
export function currentParse(item: StoredColumns): ParsedMessage | null {
  if (item.parser_version !== PARSER_VERSION) return null;
  const parsed = fromJson<ParsedEmail>(item.parsed);
  const body = fromJson<MessageBody>(item.message_body);
  return parsed && body ? { parsed, body } : null;
}

/** The columns that keep a parse; a linked item split from the message copies them. */
export function storedColumns(result: ParsedMessage): StoredColumns {
  return { parsed: JSON.stringify(result.parsed), parser_version: PARSER_VERSION, message_body: JSON.stringify(result.body) };
}

/**
 * The readable body of one of the firm's messages, as kept when it was processed. A message
 * processed before bodies were kept is read once here and its body kept; null when there is no such item.
 * `read`: the item's kept body when the caller read the item of that firm already.
 */
export async function loadMessageBody(db: Kysely<DB>, firmId: number, itemId: string, read?: { message_body: string | null }): Promise<MessageBody | null> {
  const item = read ?? (await db.selectFrom("inbox_item").select(["message_body"]).where("id", "=", itemId).where("firm_id", "=", firmId).executeTakeFirst());
  if (!item) return null;
  const kept = fromJson<MessageBody>(item.message_body);
  if (kept) return kept;
  const raw = await db.selectFrom("inbox_item").select("raw_content").where("id", "=", itemId).executeTakeFirstOrThrow();
  const body = withoutControlCharacters((await parseNoticeMessage(raw.raw_content)).body);
  await db
    .updateTable("inbox_item")
    .set({ message_body: JSON.stringify(body) })
    .where("id", "=", itemId)
    .execute();
  return body;
}
