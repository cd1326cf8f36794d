import { OutboundGuard } from "../../../server/outbound/guard";
import type { StoredToken, TokenStore, VendorContext } from "../../../server/dms/vendor-target";

// A VendorContext for tests: a real outbound guard that allows the stand-in's origin, a token
// store in memory that remembers its writes, a sleep that records instead of waiting, and a
// clock the test moves.

export interface TestContext extends VendorContext {
  stored: StoredToken | null;
  writes: StoredToken[];
  sleeps: number[];
  advance(ms: number): void;
}

export function testContext(baseUrl: string, allowedOrigin = baseUrl): TestContext {
  let now = Date.UTC(2026, 10, 26, 8, 0, 0);
  const tokens: TokenStore = {
    read: async () => ctx.stored,
    write: async (token) => {
      ctx.stored = token;
      ctx.writes.push(token);
    },
    clear: async () => {
      ctx.stored = null;
    },
  };
  const ctx: TestContext = {
    guard: new OutboundGuard({ allowedOrigins: [allowedOrigin] }),
    baseUrl,
    tokens,
    stored: null,
    writes: [],
    sleeps: [],
    sleep: async (ms) => {
      ctx.sleeps.push(ms);
    },
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    timeoutMs: 20_000,
  };
  return ctx;
}
