import http from "node:http";
import type { AddressInfo } from "node:net";
import { OutboundGuard } from "../../../server/outbound/guard";
import type { StoredToken, VendorContext } from "../../../server/dms/vendor-target";
import type { DropboxSettings } from "../../../server/dms/dropbox/dropbox-target";
import type { DropboxTestServer } from "./dropbox-server";

// What a test hands the Dropbox target: a real guard that allows the local server's origin, a
// token store in memory, a clock the test moves and a sleep that records.

export interface TestContext {
  ctx: VendorContext;
  settings: DropboxSettings;
  /** Every token the target wrote, in order. */
  written: StoredToken[];
  sleeps: number[];
  clock: { now: number };
  stored(): StoredToken | null;
}

export function testContext(server: DropboxTestServer, overrides: Partial<DropboxSettings> = {}, context: Partial<VendorContext> = {}): TestContext {
  let token: StoredToken | null = null;
  const written: StoredToken[] = [];
  const sleeps: number[] = [];
  const clock = { now: Date.now() };
  const ctx: VendorContext = {
    guard: new OutboundGuard({ allowedOrigins: [server.origin] }),
    baseUrl: server.origin,
    tokens: {
      read: async () => token,
      write: async (next) => {
        token = next;
        written.push(next);
      },
      clear: async () => {
        token = null;
      },
    },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    now: () => clock.now,
    timeoutMs: 10_000,
    ...context,
  };
  const settings = { ...(server.credentialSettings() as unknown as DropboxSettings), ...overrides };
  return { ctx, settings, written, sleeps, clock, stored: () => token };
}

/** Runs `run` against a bare HTTP server on a loopback port that answers as `handler` does (or never). */
export async function withRawServer(handler: http.RequestListener, run: (origin: string) => Promise<void>): Promise<void> {
  const raw = http.createServer(handler);
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  try {
    await run(`http://127.0.0.1:${(raw.address() as AddressInfo).port}`);
  } finally {
    raw.closeAllConnections();
    await new Promise((resolve) => raw.close(resolve));
  }
}
