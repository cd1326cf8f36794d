import type { OutboundGuard } from "../outbound/guard";

// What the court connector is given when a firm has an account with a court records provider:
// the cookies that sign its requests in. The connector asks only once the free look has failed
// (the court answered its sign-in page), and asks for a fresh sign-in at most once per document,
// when the court refused the kept session.

export type CourtSignIn =
  /** `fresh`: signed in just now, so a refusal is the court's last word, not an expired session. */
  | { kind: "signed-in"; cookie: string; fresh: boolean; notice?: string }
  /** The provider refused the account, or could not be asked: the document stays restricted. */
  | { kind: "refused"; reason: string };

export interface CourtSession {
  /** The provider's name as people know it ("PACER"), for messages. */
  readonly provider: string;
  /** The kept session's cookies (signing in when none is kept), or a new sign-in's when `renew`. */
  signIn(renew: boolean): Promise<CourtSignIn>;
  /** Asks the provider itself, whatever is kept (a connection test). */
  signInNow(): Promise<CourtSignIn>;
}

/** The HTTP a provider's sign-in client is given: the court connector's guarded fetch. */
export type ProviderFetch = (url: URL, init: { method: string; headers: Record<string, string>; body: string }) => ReturnType<OutboundGuard["fetch"]>;
