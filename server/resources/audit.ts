import type { Kysely } from "kysely";
import type { ResourceDef } from "../../app/common/resources/types";
import type { Caller } from "../auth/caller";
import type { DB } from "../db/schema";
import { logEvent } from "../queue/event-log";
import { message } from "../lib/messages";

// Every change of the firm's configuration (spec: roles, users, firm settings, credentials,
// policies, rules, walls) writes an AUDIT entry in the same transaction as the change: who, what,
// which record, and each changed field before and after. Secret fields are never written out.

type Row = Record<string, unknown>;

export type AuditAction = "created" | "updated" | "deleted";

/** Field names that hold secrets whatever their declaration says. */
const SECRET_NAME = /(secret|password|token|api_key|private_key)/i;

const isSecret = (def: Pick<ResourceDef, "fields">, field: string) => SECRET_NAME.test(field) || def.fields.some((f) => f.name === field && f.secret);

function shown(value: unknown): string {
  if (value === null || value === undefined || value === "") return message("audit:empty");
  if (typeof value === "string") return JSON.stringify(value.length > 200 ? `${value.slice(0, 199)}…` : value);
  return JSON.stringify(value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** "name: "Old" → "New"; client_secret: (secret, not shown)", for the fields that changed. */
export function describeChanges(def: Pick<ResourceDef, "fields">, before: Row | null, after: Row): string {
  const parts: string[] = [];
  for (const [field, value] of Object.entries(after)) {
    if (field === "id" || field === "updated_at" || field === "created_at") continue;
    if (before && same(before[field], value)) continue;
    if (isSecret(def, field)) parts.push(`${field}: ${message("audit:masked")}`);
    else parts.push(before ? `${field}: ${shown(before[field])} → ${shown(value)}` : `${field}: ${shown(value)}`);
  }
  return parts.length ? parts.join("; ") : message("audit:noChange");
}

export interface AuditedChange {
  def: Pick<ResourceDef, "key" | "fields" | "titleField">;
  /** The entity's name in the sentence ("storage policy"). */
  entity: string;
  action: AuditAction;
  id: string;
  before: Row | null;
  after: Row | null;
}

/** Writes the AUDIT entry of one change; `db` is the change's own transaction. */
export async function auditChange(db: Kysely<DB>, caller: Caller, change: AuditedChange, at: number): Promise<void> {
  const record = change.after ?? change.before ?? {};
  const title = shown(record[change.def.titleField] ?? change.before?.[change.def.titleField]);
  const changes = change.action === "deleted" ? "" : describeChanges(change.def, change.before, change.after ?? {});
  const detail = message(`audit:${change.action}`, { actor: caller.email || "ECFX", entity: change.entity, title, id: change.id, changes });
  await logEvent(db, { firmId: caller.firmId, level: "AUDIT", event: "configuration changed", detail, at });
}

const FIRM = { key: "firm", fields: [], titleField: "name" };

/** The AUDIT entry of a change to the firm's own settings (settings page, walls switch, storage hierarchy). */
export function auditFirmChange(db: Kysely<DB>, caller: Caller, before: Row, after: Row, at: number): Promise<void> {
  return auditChange(
    db,
    caller,
    { def: FIRM, entity: message("audit:firmSettings"), action: "updated", id: String(caller.firmId), before, after: { name: before.name, ...after } },
    at,
  );
}
