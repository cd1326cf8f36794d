import type { Kysely } from "kysely";
import { type Caller, productCaller } from "../auth/caller";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { logEvent } from "../queue/event-log";
import { message } from "../lib/messages";

/**
 * The identity provider acting on a firm's users through the user entity's own writes (its rules,
 * audit and last-administrator check): the firm's full rights, named as provisioning in the audit.
 * What it may grant is what the firm mapped its groups to (group-roles.ts), never more.
 */
export function provisioningCaller(firmId: number): Caller {
  const name = message("audit:scimActor");
  return { ...productCaller(firmId), email: name, fullName: name };
}

/** Every change provisioning makes is in the firm's event log. */
export async function logProvisioning(ctx: ServerContext, firmId: number, detail: string, db: Kysely<DB> = ctx.database.db): Promise<void> {
  await logEvent(db, { firmId, level: "AUDIT", event: "user provisioned", detail, at: ctx.clock.now() });
}
