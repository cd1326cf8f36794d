import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { message } from "../../lib/messages";
import { authenticate, requireAccess } from "../../auth/caller";
import { invalid } from "../../lib/errors";

// Per-user preferences (a table's column layout, ...) and the firm's web preferences (table
// striping, ...). A user's preferences are theirs alone: every query carries the caller's
// user and firm.

export const MAX_PREFERENCE_CHARS = 10_000;
const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const preferenceBody = z.object({ value: z.unknown() });
const webPreferencesBody = z.object({ web_preferences: z.string() });

/** A JSON object written in at most 10 000 characters, or null when it is not one. */
function jsonObject(text: string): Record<string, unknown> | null {
  if (text.length > MAX_PREFERENCE_CHARS) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function checkKey(key: string): void {
  if (!KEY.test(key)) throw invalid({ key: [message("table:preferenceKeyInvalid")] });
}

export function preferenceRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.database.db;

  app.get<{ Params: { key: string } }>("/api/v1/preferences/:key", async (request) => {
    const caller = await authenticate(ctx, request);
    checkKey(request.params.key);
    const found = await sql<{ value: string; updated_at: number }>`
      select value, updated_at from user_preference
      where user_id = ${caller.userId} and firm_id = ${caller.firmId} and key = ${request.params.key}`.execute(db);
    const row = found.rows[0];
    return { key: request.params.key, value: row ? (JSON.parse(row.value) as unknown) : null, updated_at: row ? Number(row.updated_at) : null };
  });

  app.put<{ Params: { key: string } }>("/api/v1/preferences/:key", async (request) => {
    const caller = await authenticate(ctx, request);
    checkKey(request.params.key);
    const { value } = preferenceBody.parse(request.body ?? {});
    const text = JSON.stringify(value ?? null);
    if (text.length > MAX_PREFERENCE_CHARS) {
      throw invalid({ value: [message("errors:fieldLength", { chars: MAX_PREFERENCE_CHARS })] });
    }
    const now = ctx.clock.now();
    await sql`
      insert into user_preference (user_id, firm_id, key, value, updated_at)
      values (${caller.userId}, ${caller.firmId}, ${request.params.key}, ${text}, ${now})
      on conflict (user_id, key) do update set value = excluded.value, updated_at = excluded.updated_at`.execute(db);
    return { key: request.params.key, value: JSON.parse(text) as unknown, updated_at: now };
  });

  app.delete<{ Params: { key: string } }>("/api/v1/preferences/:key", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    checkKey(request.params.key);
    await sql`delete from user_preference where user_id = ${caller.userId} and firm_id = ${caller.firmId} and key = ${request.params.key}`.execute(db);
    return reply.status(204).send();
  });

  // The firm's web preferences, saved on their own so a toggle never rewrites the firm settings.
  app.put("/api/v1/firm/web-preferences", async (request) => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", "write");
    const { web_preferences } = webPreferencesBody.parse(request.body ?? {});
    const parsed = jsonObject(web_preferences);
    if (!parsed) throw invalid({ web_preferences: [message("table:webPreferencesInvalid", { chars: MAX_PREFERENCE_CHARS })] });
    const text = JSON.stringify(parsed);
    await db.updateTable("firm").set({ web_preferences: text, updated_at: ctx.clock.now() }).where("id", "=", caller.firmId).execute();
    return { web_preferences: text };
  });
}
