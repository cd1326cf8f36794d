import type { ProviderType } from "../../app/common/resources/provider-credentials";
import type { ServerContext } from "../context";
import { logEvent } from "../queue/event-log";
import { message } from "../lib/messages";
import { credentialTokenStore } from "../dms/credential-tokens";
import type { CourtSession } from "./court-session";
import { PACER_AUTH_URL } from "./pacer-auth";
import { PacerSession } from "./pacer-session";

// The court session of a firm's provider credential, for the document fetch of one inbox item
// and for the credential's connection test. Its token is kept sealed beside the DMS credentials'
// (dms_credential_token, keyed by the credential's id), so secret rotation reseals it too.

export interface ProviderCredentialRow {
  id: string;
  firm_id: number;
  provider_type: string;
  username: string;
  password: string | null;
  client_code: string | null;
  redaction_agreed: number | boolean;
}

/** A session that refuses at once, in these words: a password no key opens. */
function refusing(provider: string, reason: string): CourtSession {
  const refused = async () => ({ kind: "refused", reason }) as const;
  return { provider, signIn: refused, signInNow: refused };
}

/**
 * The session of one credential; `inboxItemId` is where a refusal's WARNING is filed. `quiet`: the
 * person testing the connection reads the refusal on the page; the event log is for the pipeline.
 */
export function courtSessionOf(ctx: ServerContext, row: ProviderCredentialRow, inboxItemId: string | null, options: { quiet?: boolean } = {}): CourtSession {
  const type = row.provider_type as ProviderType;
  let password: string;
  try {
    password = row.password ? ctx.secretBox.reveal(row.password) : "";
  } catch {
    return refusing(type, message("pipeline:providerSecretUnreadable", { provider: type }));
  }
  return new PacerSession({
    account: { loginId: row.username, password, clientCode: row.client_code, redactFlag: Boolean(row.redaction_agreed) },
    authUrl: ctx.config.ECFX_PACER_AUTH_URL ?? PACER_AUTH_URL,
    fetch: ctx.courts.providerFetch,
    tokens: credentialTokenStore(ctx, row.firm_id, row.id),
    onRefused: async (reason) => {
      if (options.quiet) return;
      await logEvent(ctx.database.db, {
        firmId: row.firm_id,
        inboxItemId,
        level: "WARNING",
        event: "provider sign-in refused",
        detail: reason,
        at: ctx.clock.now(),
      });
    },
  });
}

/** The firm's session for the courts' documents, when it has a PACER credential. */
export async function firmCourtSession(ctx: ServerContext, firmId: number, inboxItemId: string | null): Promise<CourtSession | undefined> {
  const row = await ctx.database.db
    .selectFrom("provider_credential")
    .select(["id", "firm_id", "provider_type", "username", "password", "client_code", "redaction_agreed"])
    .where("firm_id", "=", firmId)
    .where("provider_type", "=", "PACER")
    .executeTakeFirst();
  return row ? courtSessionOf(ctx, row, inboxItemId) : undefined;
}
