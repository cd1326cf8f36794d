import type { ServerContext } from "../context";
import type { StoredToken, TokenStore } from "./vendor-target";

// A credential's OAuth token, kept sealed beside the credential so every process and machine
// reuses it until it expires, instead of signing in for each document. A token that no longer
// opens (its key was dropped) is as good as none: the client signs in again.

export function credentialTokenStore(ctx: ServerContext, firmId: number, credentialId: string): TokenStore {
  const rows = () => ctx.database.db.selectFrom("dms_credential_token").where("credential_id", "=", credentialId).where("firm_id", "=", firmId);
  return {
    async read() {
      const row = await rows().select("sealed").executeTakeFirst();
      if (!row) return null;
      try {
        return JSON.parse(ctx.secretBox.open(row.sealed)) as StoredToken;
      } catch {
        return null;
      }
    },
    async write(token) {
      const sealed = ctx.secretBox.seal(JSON.stringify(token));
      const now = ctx.clock.now();
      await ctx.database.db
        .insertInto("dms_credential_token")
        .values({ credential_id: credentialId, firm_id: firmId, sealed, updated_at: now })
        .onConflict((oc) => oc.column("credential_id").doUpdateSet({ sealed, updated_at: now }))
        .execute();
      // A vendor that answers a new refresh token with a renewal may have spent the old one: undone
      // by a power cut, the credential could no longer sign in (decision 139).
      await ctx.database.commitsOnDisk();
    },
    async clear() {
      await ctx.database.db.deleteFrom("dms_credential_token").where("credential_id", "=", credentialId).where("firm_id", "=", firmId).execute();
    },
  };
}
