import type { FastifyRequest } from "fastify";
import { bearerToken } from "../auth/caller";
import type { ServerContext } from "../context";
import { findFirmForHost, implicitHostNames } from "../firm/firm-repository";
import { newId, newSecretToken, sha256 } from "../lib/ids";
import { message } from "../lib/messages";
import { logEvent } from "../queue/event-log";
import { ScimError } from "./protocol";

// A firm's provisioning tokens (decision 101): made and revoked by an administrator on the
// console, shown once, kept as a SHA-256 hash (a 256-bit random token needs no slow hash). A
// token opens its own firm's users and groups only, and only on the host that firm answers to.

export interface ScimTokenListing {
  id: string;
  label: string;
  createdBy: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export async function listScimTokens(ctx: ServerContext, firmId: number): Promise<ScimTokenListing[]> {
  const rows = await ctx.database.db
    .selectFrom("scim_token")
    .select(["id", "label", "created_by", "created_at", "last_used_at"])
    .where("firm_id", "=", firmId)
    .where("revoked_at", "is", null)
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    label: row.label,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  }));
}

/** A new token for the firm: the answer is the only time anyone sees it. */
export async function createScimToken(ctx: ServerContext, firmId: number, actor: string, label: string): Promise<{ id: string; token: string }> {
  const { token, hash } = newSecretToken();
  const id = newId();
  const now = ctx.clock.now();
  await ctx.database.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("scim_token")
      .values({ id, firm_id: firmId, token_hash: hash, label, created_by: actor, created_at: now, last_used_at: null, revoked_at: null })
      .execute();
    await logEvent(trx, { firmId, level: "AUDIT", event: "configuration changed", detail: message("audit:scimTokenCreated", { actor, label }), at: now });
  });
  return { id, token };
}

/** Revokes a token of the firm; false when the firm has no such token. */
export async function revokeScimToken(ctx: ServerContext, firmId: number, actor: string, id: string): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("scim_token")
      .select("label")
      .where("id", "=", id)
      .where("firm_id", "=", firmId)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (!row) return false;
    await trx.updateTable("scim_token").set({ revoked_at: now }).where("id", "=", id).where("firm_id", "=", firmId).execute();
    await logEvent(trx, {
      firmId,
      level: "AUDIT",
      event: "configuration changed",
      detail: message("audit:scimTokenRevoked", { actor, label: row.label }),
      at: now,
    });
    return true;
  });
}

// last_used_at is written at most once a minute per token: a bulk sync makes many calls.
const LAST_USED_EVERY_MS = 60_000;

/**
 * The firm a SCIM request acts for: its bearer token's firm, which must be the firm of the host
 * the request reached. Anything else is 401, whatever the path asks for.
 */
export async function scimFirmOf(ctx: ServerContext, request: FastifyRequest): Promise<number> {
  const token = bearerToken(request);
  const refused = () => new ScimError(401, message("errors:unauthorized"));
  if (!token) throw refused();
  const row = await ctx.database.db
    .selectFrom("scim_token")
    .select(["id", "firm_id", "last_used_at"])
    .where("token_hash", "=", sha256(token))
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (!row) throw refused();
  const firm = await findFirmForHost(ctx.database, request.host, implicitHostNames(ctx.config.publicUrl));
  if (!firm || firm.id !== row.firm_id) throw refused();
  const now = ctx.clock.now();
  if (row.last_used_at === null || now - Number(row.last_used_at) >= LAST_USED_EVERY_MS) {
    await ctx.database.db.updateTable("scim_token").set({ last_used_at: now }).where("id", "=", row.id).execute();
  }
  return row.firm_id;
}
