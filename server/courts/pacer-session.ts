import type { TokenStore } from "../dms/vendor-target";
import { message } from "../lib/messages";
import type { CourtSession, CourtSignIn, ProviderFetch } from "./court-session";
import { type PacerAccount, pacerCookie, pacerSignIn } from "./pacer-auth";

// A firm's PACER session: the NextGenCSO token kept sealed in the token store and reused for
// every court until a court refuses it (PACER asks integrators to sign in once and reuse the
// token, not to sign in per request). A refused sign-in is kept too, so that a wrong password
// costs one call to PACER and one WARNING, not one per document: it is forgotten when the
// credential changes (its token row is cleared) or when someone tests the connection.

/** The kept refusal's marker in the token store: no token, and PACER's words. */
const REFUSED = "refused";

export interface PacerSessionOptions {
  account: PacerAccount;
  authUrl: string;
  fetch: ProviderFetch;
  tokens: TokenStore;
  /** Called once per refusal PACER gives (the firm's event log); not for a kept one. */
  onRefused(reason: string): Promise<void>;
}

export class PacerSession implements CourtSession {
  readonly provider = "PACER";
  constructor(private readonly options: PacerSessionOptions) {}

  async signIn(renew: boolean): Promise<CourtSignIn> {
    const { tokens, account } = this.options;
    const kept = await tokens.read();
    if (kept?.extra?.[REFUSED]) return { kind: "refused", reason: kept.extra[REFUSED] };
    if (kept && kept.accessToken && !renew) return { kind: "signed-in", cookie: pacerCookie(kept.accessToken, account.clientCode), fresh: false };
    return this.signInNow();
  }

  async signInNow(): Promise<CourtSignIn> {
    const { tokens, account } = this.options;
    // Unreachable is not refused: it throws (retryable), nothing is kept, the next attempt asks again.
    const answer = await pacerSignIn(this.options.fetch, this.options.authUrl, account);
    if (answer.kind === "refused") {
      const reason = message("pipeline:providerSignInRefused", {
        provider: this.provider,
        username: account.loginId,
        result: answer.loginResult,
        description: answer.description,
      });
      await tokens.write({ accessToken: "", expiresAt: 0, extra: { [REFUSED]: reason } });
      await this.options.onRefused(reason);
      return { kind: "refused", reason };
    }
    // PACER states no lifetime: the token is good until a court refuses it.
    await tokens.write({ accessToken: answer.token, expiresAt: Number.MAX_SAFE_INTEGER, ...(answer.notice ? { extra: { notice: answer.notice } } : {}) });
    return { kind: "signed-in", cookie: pacerCookie(answer.token, account.clientCode), fresh: true, notice: answer.notice };
  }
}
