import dns from "node:dns";
import type { LookupAddress } from "node:dns";
import ipaddr from "ipaddr.js";
import { Agent, Client, type Dispatcher, Headers, type RequestInit, type Response, fetch } from "undici";
import product from "../../package.json" with { type: "json" };
import { message } from "../lib/messages";

// Every URL the product calls on its own (court documents; later DMS endpoints, webhooks and
// extraction providers) goes through one guard, because the URL often comes from outside: a
// court notice is an e-mail anyone can send. The guard allows only the hosts of the purpose,
// https, and public addresses; it checks the address the connection really uses (so a name that
// resolves to an outside address once and to an inside one the next time cannot slip through),
// and follows redirects itself, on the same host only, checking every hop. See decision 023.

/** How every outbound call names its sender (a receiver's logs then say who called, not "undici"). */
export const USER_AGENT = `ECFX/${product.version}`;

/** Which hosts one kind of outbound call may reach. */
export interface OutboundPurpose {
  name: string;
  hostAllowed(host: string): boolean;
}

/** The call is not made: the URL or the address it leads to is not allowed. Never worth a retry. */
export class OutboundRefusedError extends Error {}

export type Resolve = (host: string) => Promise<LookupAddress[]>;

export interface OutboundGuardOptions {
  /** Origins the operator named (the court simulator of tests and the demo): reached as they are. */
  allowedOrigins?: string[];
  /** Address ranges (CIDR or single addresses) that may be reached although private: on-premises systems. */
  allowedRanges?: string[];
  /** Name resolution; the system resolver unless a test names another. */
  resolve?: Resolve;
  maxRedirects?: number;
}

const systemResolve: Resolve = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

const refused = (key: string, values: Record<string, unknown>) => new OutboundRefusedError(message(`errors:outbound.${key}`, values));

/** Host names compare without brackets, case or a trailing dot. */
const bareHost = (url: URL) =>
  url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();

/** Parses an ECFX_OUTBOUND_ALLOW entry ("10.0.0.0/8", "192.0.2.7", "fd00::/8"); throws when it is not one. */
export function parseRange(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (entry.includes("/")) return ipaddr.parseCIDR(entry);
  const address = ipaddr.parse(entry);
  return [address, address.kind() === "ipv4" ? 32 : 128];
}

export class OutboundGuard {
  private readonly origins: Set<string>;
  private readonly operatorHosts: Set<string>;
  private readonly ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][];
  private readonly resolve: Resolve;
  private readonly maxRedirects: number;
  private readonly dispatcher: Dispatcher;

  constructor(options: OutboundGuardOptions = {}) {
    const operator = (options.allowedOrigins ?? []).map((o) => new URL(o));
    this.origins = new Set(operator.map((o) => o.origin));
    this.operatorHosts = new Set(operator.map(bareHost));
    this.ranges = (options.allowedRanges ?? []).map(parseRange);
    this.resolve = options.resolve ?? systemResolve;
    this.maxRedirects = options.maxRedirects ?? 5;
    // The connection resolves names through the guard: the address checked is the one used.
    this.dispatcher = new Agent({ connect: { lookup: (host, opts, callback) => this.lookup(host, opts, callback) } });
  }

  /** Whether the operator named this URL's origin explicitly. */
  isOperatorOrigin(url: URL): boolean {
    return this.origins.has(url.origin);
  }

  /** Why an address may not be reached, or null when it may. */
  addressRefusal(address: string): string | null {
    if (!ipaddr.isValid(address)) return "invalid";
    const parsed = ipaddr.process(address);
    if (this.ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits))) return null;
    const range = parsed.range();
    return range === "unicast" ? null : range;
  }

  /** Throws OutboundRefusedError unless the URL may be called for the purpose. */
  check(url: URL, purpose: OutboundPurpose): void {
    if (this.isOperatorOrigin(url)) return;
    const host = bareHost(url);
    if (url.protocol !== "https:") throw refused("notHttps", { url: url.origin });
    if (ipaddr.isValid(host)) {
      const why = this.addressRefusal(host);
      if (why) throw refused("address", { host, address: host, range: why });
    }
    if (!purpose.hostAllowed(host)) throw refused("host", { host, purpose: purpose.name });
  }

  /**
   * Fetches a URL the purpose allows. Redirects are followed here, on the same host only, each
   * hop checked again; the response of the last hop is returned.
   */
  async fetch(url: URL, purpose: OutboundPurpose, init: Omit<RequestInit, "redirect" | "dispatcher"> = {}): Promise<Response> {
    let current = url;
    const headers = new Headers(init.headers);
    if (!headers.has("user-agent")) headers.set("user-agent", USER_AGENT);
    for (let hop = 0; ; hop++) {
      this.check(current, purpose);
      let response: Response;
      try {
        response = await fetch(current, { ...init, headers, redirect: "manual", dispatcher: this.dispatcher });
      } catch (error) {
        const cause = error instanceof Error ? error.cause : undefined;
        if (cause instanceof OutboundRefusedError) throw cause;
        throw error;
      }
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location) return response;
      await response.body?.cancel();
      const next = new URL(location, current);
      if (next.host !== current.host) throw refused("redirectHost", { from: current.host, to: next.host });
      if (hop >= this.maxRedirects) throw refused("redirects", { max: this.maxRedirects });
      current = next;
    }
  }

  // Node's lookup contract: one address, or every address when `all` is asked for.
  private lookup(host: string, options: { all?: boolean }, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void): void {
    this.resolve(host).then(
      (addresses) => {
        const operator = this.operatorHosts.has(host.toLowerCase());
        for (const { address } of operator ? [] : addresses) {
          const why = this.addressRefusal(address);
          if (why) return callback(refused("address", { host, address, range: why }), "");
        }
        const first = addresses[0];
        if (!first) return callback(refused("unresolved", { host }), "");
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, ""),
    );
  }

  /**
   * One kept-alive connection to the origin of `url`, for sign-ins that authenticate the
   * connection rather than each request (Windows sign-in, NTLM): every request is checked as
   * fetch checks it, the address is vetted when the connection opens, and redirects are not
   * followed (the caller sees them). Close it when done.
   */
  connection(url: URL, purpose: OutboundPurpose): GuardedConnection {
    this.check(url, purpose);
    const origin = url.origin;
    const client = new Client(origin, { pipelining: 1, connect: { lookup: (host, opts, callback) => this.lookup(host, opts, callback) } });
    return {
      fetch: async (target, init = {}) => {
        if (target.origin !== origin) throw refused("redirectHost", { from: url.host, to: target.host });
        this.check(target, purpose);
        const headers = new Headers(init.headers);
        if (!headers.has("user-agent")) headers.set("user-agent", USER_AGENT);
        try {
          return await fetch(target, { ...init, headers, redirect: "manual", dispatcher: client });
        } catch (error) {
          const cause = error instanceof Error ? error.cause : undefined;
          if (cause instanceof OutboundRefusedError) throw cause;
          throw error;
        }
      },
      close: () => client.close(),
    };
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

/** A single connection the guard opened (see OutboundGuard.connection). */
export interface GuardedConnection {
  fetch(url: URL, init?: Omit<RequestInit, "redirect" | "dispatcher">): Promise<Response>;
  close(): Promise<void>;
}
