import { type OutboundGuard, OutboundRefusedError } from "../outbound/guard";
import { COURT_HOSTS } from "./court-hosts";
import { courtIdFromHost } from "../jurisdictions/federal-courts";
import { message } from "../lib/messages";
import type { CourtSession, ProviderFetch } from "./court-session";

/** `charged`: fetched signed in, outside the free look, so the provider's account paid for it. */
export type FetchOutcome =
  { kind: "document"; bytes: Buffer; contentType: string; stamped: boolean; charged?: boolean } | { kind: "restricted"; reason: string };

/** The header line CM/ECF stamps on every page of a filed document: "Document 12 Filed 01/02/26". */
const COURT_STAMP = /Document\s+\S+\s+Filed\s+\d{2}\/\d{2}\/\d{2,4}/;

/** A failure worth another try later (time-out, 5xx, connection refused). */
export class RetryableFetchError extends Error {}

export interface CourtConnectorOptions {
  /** Points every court link at this server instead (the court simulator of tests and demo). */
  baseUrl?: string;
  timeoutMs: number;
  perCourtConcurrency: number;
  maxBytes: number;
  /** Checks every court URL and the address it leads to, and the court records providers' sign-in hosts. */
  guard: OutboundGuard;
}

/** A court's answer before it is put in the product's words: the document, or which page came instead. */
type CourtAnswer = FetchOutcome | { kind: "sign-in" } | { kind: "page"; contentType: string };

/** At most N requests at once per court: courts throttle and ban busy clients. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** Where CM/ECF publishes a court's recent docket entries. */
export const DOCKET_FEED_PATH = "/cgi-bin/rss_outside.pl";

const LOGIN_PAGE = /<input[^>]+type\s*=\s*["']?password|PACER\s+Login|login\.(?:jsf|pl)/i;

/**
 * Fetches court documents through the notice's free-look link, once. A login page means the free
 * look is used up or the document is restricted: without a session of the firm's court records
 * provider that is recorded as restricted; with one, the document is asked for again signed in
 * (the provider's account is charged), the kept session renewed once if the court refuses it.
 */
export class CourtConnector {
  private readonly gates = new Map<string, Gate>();
  constructor(private readonly options: CourtConnectorOptions) {}

  /**
   * The absolute URL to request: relative links are the court's; the base URL replaces the host.
   * The link itself must name a court over https even when the base URL replaces it, so that a
   * notice naming another host is refused the same way in tests as in production.
   */
  resolve(url: string, courtId: string | null): URL {
    const courtOrigin = `https://ecf.${courtId ?? "unknown"}.uscourts.gov`;
    const absolute = new URL(url, courtOrigin);
    this.options.guard.check(absolute, COURT_HOSTS);
    if (!this.options.baseUrl) return absolute;
    const base = new URL(this.options.baseUrl);
    return new URL(`${absolute.pathname}${absolute.search}`, base);
  }

  /**
   * Throws OutboundRefusedError when the link or its address may not be called: never retried.
   * `sessionOf` gives the firm's provider session, asked for only once the free look has failed.
   */
  async fetchDocument(url: string, courtId: string | null, sessionOf?: () => Promise<CourtSession | undefined>): Promise<FetchOutcome> {
    const target = this.resolve(url, courtId);
    const court = courtId ?? courtIdFromHost(new URL(url, "https://unknown.invalid").hostname) ?? "unknown";
    return this.gateOf(court).run(() => this.request(target, sessionOf));
  }

  /**
   * A call to a court records provider's sign-in service (PACER's cso-auth), through the same
   * guard as the courts: its hosts are the judiciary's. Lost connections and time-outs are
   * retryable, a refused address is not.
   */
  readonly providerFetch: ProviderFetch = async (url, init) => {
    try {
      return await this.options.guard.fetch(url, COURT_HOSTS, { ...init, signal: AbortSignal.timeout(this.options.timeoutMs) });
    } catch (error) {
      if (error instanceof OutboundRefusedError) throw error;
      throw new RetryableFetchError(`${url.host}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  /**
   * A court's "recent entries" RSS feed (rss_outside.pl), read through the same guard and gate as
   * its documents. When the court simulator stands in for the courts, it is told which court was
   * meant, as a proxy is, in X-Forwarded-Host.
   */
  async fetchDocketFeed(courtId: string): Promise<string> {
    const court = `ecf.${courtId}.uscourts.gov`;
    const target = this.resolve(`https://${court}${DOCKET_FEED_PATH}`, courtId);
    const headers = this.options.baseUrl ? { "x-forwarded-host": court } : undefined;
    return this.gateOf(courtId).run(async () => {
      let response: Awaited<ReturnType<OutboundGuard["fetch"]>>;
      try {
        response = await this.options.guard.fetch(target, COURT_HOSTS, { headers, signal: AbortSignal.timeout(this.options.timeoutMs) });
      } catch (error) {
        if (error instanceof OutboundRefusedError) throw error;
        throw new RetryableFetchError(`${target.host}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const body = Buffer.from(await response.arrayBuffer());
      if (!response.ok || !/<rss\b/i.test(body.subarray(0, 4096).toString("latin1"))) {
        throw new RetryableFetchError(message("pipeline:courtFeedUnreadable", { court: courtId, status: response.status }));
      }
      // CM/ECF declares its feeds ISO-8859-1.
      return body.toString(/encoding=["']utf-8["']/i.test(body.subarray(0, 200).toString("latin1")) ? "utf8" : "latin1");
    });
  }

  private gateOf(court: string): Gate {
    let gate = this.gates.get(court);
    if (!gate) this.gates.set(court, (gate = new Gate(this.options.perCourtConcurrency)));
    return gate;
  }

  private async request(target: URL, sessionOf?: () => Promise<CourtSession | undefined>): Promise<FetchOutcome> {
    const free = await this.ask(target);
    if (free.kind === "page") throw new RetryableFetchError(`${target.host} sent ${free.contentType} instead of a document`);
    if (free.kind !== "sign-in") return free;
    const session = await sessionOf?.();
    if (!session) return { kind: "restricted", reason: message("pipeline:courtSignIn") };
    // Signed in, CM/ECF shows a receipt page with the cost before the document unless told it was seen.
    const signedTarget = new URL(target);
    signedTarget.searchParams.set("got_receipt", "1");
    let signIn = await session.signIn(false);
    for (;;) {
      if (signIn.kind === "refused") return { kind: "restricted", reason: signIn.reason };
      const answer = await this.ask(signedTarget, signIn.cookie);
      // A kept session the court no longer takes: one new sign-in, never a loop.
      if (answer.kind === "sign-in" && !signIn.fresh) {
        signIn = await session.signIn(true);
        continue;
      }
      if (answer.kind === "sign-in" || answer.kind === "page") {
        return { kind: "restricted", reason: message("pipeline:providerSignedInRestricted", { provider: session.provider }) };
      }
      return answer.kind === "document" ? { ...answer, charged: true } : answer;
    }
  }

  private async ask(target: URL, cookie?: string): Promise<CourtAnswer> {
    let response: Awaited<ReturnType<OutboundGuard["fetch"]>>;
    try {
      response = await this.options.guard.fetch(target, COURT_HOSTS, {
        ...(cookie ? { headers: { cookie } } : {}),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      if (error instanceof OutboundRefusedError) throw error;
      throw new RetryableFetchError(`${target.host}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (response.status === 401 || response.status === 403)
      return { kind: "restricted", reason: message("pipeline:courtRefused", { status: response.status }) };
    if (response.status >= 500 || response.status === 429) throw new RetryableFetchError(`${target.host} answered ${response.status}`);
    if (!response.ok) return { kind: "restricted", reason: message("pipeline:courtAnswered", { status: response.status }) };
    const contentType = response.headers.get("content-type") ?? "application/octet-stream";
    const declared = Number(response.headers.get("content-length") ?? 0);
    if (declared > this.options.maxBytes) return { kind: "restricted", reason: message("pipeline:documentTooLarge", { bytes: this.options.maxBytes }) };
    const bytes = Buffer.from(await response.arrayBuffer());
    if (contentType.includes("pdf") || bytes.subarray(0, 5).toString("latin1") === "%PDF-") {
      return { kind: "document", bytes, contentType: "application/pdf", stamped: COURT_STAMP.test(bytes.subarray(0, 200_000).toString("latin1")) };
    }
    const text = bytes.subarray(0, 200_000).toString("utf8");
    if (LOGIN_PAGE.test(text)) return { kind: "sign-in" };
    return { kind: "page", contentType };
  }
}
