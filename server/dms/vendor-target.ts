import type { OutboundGuard } from "../outbound/guard";
import type { DmsTarget } from "./dms-target";

// What a vendor DMS client (Box, Dropbox, SharePoint, iManage, NetDocuments, …) is given and
// what it offers beyond DmsTarget. The storage step builds one per filing from a firm's
// credential: the credential's settings with its secrets decrypted, the product's outbound
// guard (every HTTP call goes through it, SDKs included), and a token store that keeps the
// credential's OAuth tokens encrypted in the database.

/** An OAuth token as a client keeps it between calls and between processes. */
export interface StoredToken {
  accessToken: string;
  refreshToken?: string;
  /** Epoch milliseconds; the client renews before it. */
  expiresAt: number;
  /** Anything else the vendor returned that the next call needs (an iManage customer id, a Salesforce instance URL). */
  extra?: Record<string, string>;
}

/** The credential's token, encrypted at rest by the store; one per credential. */
export interface TokenStore {
  read(): Promise<StoredToken | null>;
  write(token: StoredToken): Promise<void>;
  /** Forgets the token (refused refresh token, changed secret). */
  clear(): Promise<void>;
}

export interface VendorContext {
  /** The outbound guard: every request reaches it through the one HTTP layer (vendor-http.ts), with a purpose that allows the vendor's hosts only. */
  guard: OutboundGuard;
  /** The vendor's API base URL: the vendor's own unless the operator switched it (ECFX_<TARGET>_BASE_URL). */
  baseUrl: string;
  /** The vendor's sign-in (OAuth) base URL, where it differs from the API's. */
  authUrl?: string;
  tokens: TokenStore;
  /** Waits; folder_creation_sync_delay uses it (tests pass one that records instead of sleeping). */
  sleep(ms: number): Promise<void>;
  now(): number;
  /** Longest wait for one HTTP call before it counts as a time-out (retryable). */
  timeoutMs: number;
}

/** One line of a connection test: what was tried and what came of it, in plain words. */
export interface ConnectionStep {
  step: string;
  ok: boolean;
  detail: string;
}

export interface ConnectionReport {
  ok: boolean;
  steps: ConnectionStep[];
}

export interface VendorTarget extends DmsTarget {
  /** Signs in and lists the root folder (or cabinet, library, drive); never writes. */
  testConnection(): Promise<ConnectionReport>;
}

/** One step of a connection test: what is tried, and how a failure is put in words (its message by default). */
export interface ConnectionCheck {
  step: string;
  run: () => Promise<string>;
  describe?: (error: unknown) => string;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs the checks in order and stops at the first that fails: listing means nothing once signing in failed. */
export async function runConnectionChecks(checks: ConnectionCheck[]): Promise<ConnectionReport> {
  const steps: ConnectionStep[] = [];
  for (const { step, run, describe = messageOf } of checks) {
    try {
      steps.push({ step, ok: true, detail: await run() });
    } catch (error) {
      steps.push({ step, ok: false, detail: describe(error) });
      return { ok: false, steps };
    }
  }
  return { ok: true, steps };
}
