import type { FastifyInstance } from "fastify";
import { providerCredentials } from "../../../app/common/resources/provider-credentials";
import { authenticate, requireAccess } from "../../auth/caller";
import type { ServerContext } from "../../context";
import { RetryableFetchError } from "../../courts/connector";
import type { ConnectionReport } from "../../dms/vendor-target";
import { runConnectionChecks } from "../../dms/vendor-target";
import { notFound } from "../../lib/errors";
import { message } from "../../lib/messages";
import { OutboundRefusedError } from "../../outbound/guard";
import { courtSessionOf } from "../../courts/firm-court-session";

// "Test connection" on a provider credential's page: signs in to the provider with the stored
// account, as the document fetch would, and says what came of it. Signing in is free; nothing is
// fetched, so the account is not charged. It uses the password, so it asks for full access.

/** The provider's own refusal, in its words. */
class SignInRefused extends Error {}

export function providerCredentialRoutes(app: FastifyInstance, ctx: ServerContext) {
  const def = providerCredentials;
  app.post<{ Params: { id: string } }>(`${def.apiPath}/:id/test-connection`, async (request): Promise<ConnectionReport> => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, def.resource, "write");
    const row = await ctx.database.db
      .selectFrom("provider_credential")
      .select(["id", "firm_id", "provider_type", "username", "password", "client_code", "redaction_agreed"])
      .where("id", "=", request.params.id)
      .where("firm_id", "=", caller.firmId)
      .executeTakeFirst();
    if (!row) throw notFound();
    const session = courtSessionOf(ctx, row, null, { quiet: true });
    const provider = session.provider;
    return runConnectionChecks([
      {
        step: message("pipeline:providerConnection.signIn", { provider }),
        // Asks the provider itself: a kept refusal is what the firm is testing whether it mended.
        run: async () => {
          const signedIn = await session.signInNow();
          if (signedIn.kind === "refused") throw new SignInRefused(signedIn.reason);
          return signedIn.notice
            ? message("pipeline:providerConnection.signedInNotice", { username: row.username, provider, notice: signedIn.notice })
            : message("pipeline:providerConnection.signedIn", { username: row.username });
        },
        describe: (error) => {
          if (error instanceof SignInRefused || error instanceof RetryableFetchError || error instanceof OutboundRefusedError) return error.message;
          request.log.warn({ err: error }, "provider connection test failed");
          return message("errors:somethingWrong");
        },
      },
      { step: message("pipeline:providerConnection.kept"), run: async () => message("pipeline:providerConnection.keptDetail") },
    ]);
  });
}
