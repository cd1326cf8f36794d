import { OutboundGuard } from "../../../server/outbound/guard";
import type { StoredToken, TokenStore, VendorContext } from "../../../server/dms/vendor-target";
import type { BoxSettings } from "../../../server/dms/box/box-target";
import type { BoxTestServer } from "./box-server";

// What the Box tests give the client: the product's real outbound guard allowing the local Box's
// origin, a token store in memory that counts its writes, a sleep that records instead of waiting,
// and a clock the test can move.

export interface MemoryTokens extends TokenStore {
  token: StoredToken | null;
  writes: number;
}

export function memoryTokens(): MemoryTokens {
  const store: MemoryTokens = {
    token: null,
    writes: 0,
    read: async () => store.token,
    write: async (token) => {
      store.token = token;
      store.writes++;
    },
    clear: async () => {
      store.token = null;
    },
  };
  return store;
}

export interface TestContext extends Omit<VendorContext, "tokens"> {
  tokens: MemoryTokens;
  slept: number[];
  /** Moves the client's clock forward. */
  advance(ms: number): void;
  close(): Promise<void>;
}

export function testContext(server: BoxTestServer, overrides: Partial<Omit<VendorContext, "tokens">> = {}): TestContext {
  const guard = new OutboundGuard({ allowedOrigins: [server.origin] });
  let offset = 0;
  const slept: number[] = [];
  return {
    guard,
    baseUrl: server.origin,
    tokens: memoryTokens(),
    sleep: async (ms) => {
      slept.push(ms);
    },
    now: () => Date.now() + offset,
    timeoutMs: 5_000,
    ...overrides,
    slept,
    advance: (ms) => {
      offset += ms;
    },
    close: () => guard.close(),
  };
}

export const boxSettings = (server: BoxTestServer, overrides: Partial<BoxSettings> = {}): BoxSettings => ({
  ...(server.credentialSettings() as unknown as BoxSettings),
  ...overrides,
});
