import { OutboundGuard } from "../../../server/outbound/guard";
import type { FileVineSettings } from "../../../server/dms/filevine/filevine-target";
import type { FilingSubject } from "../../../server/dms/dms-target";
import { type TestContext, memoryTokens } from "../box/box-context";
import { FILEVINE_MATTER_PROJECT, type FileVineTestServer } from "./filevine-server";

// What the FileVine tests give the client: the product's real outbound guard allowing the local
// FileVine's origin, the in-memory token store of the Box tests, a sleep that records, a clock
// the test can move; and the filing's matter as the storage step describes it.

export function fileVineContext(server: FileVineTestServer, timeoutMs = 5_000): TestContext {
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
    timeoutMs,
    slept,
    advance: (ms) => {
      offset += ms;
    },
    close: () => guard.close(),
  };
}

export const patSettings = (server: FileVineTestServer, overrides: Partial<FileVineSettings> = {}): FileVineSettings => ({
  ...(server.credentialSettings() as unknown as FileVineSettings),
  ...overrides,
});

export const keySettings = (server: FileVineTestServer, overrides: Partial<FileVineSettings> = {}): FileVineSettings => ({
  ...(server.keySettings() as unknown as FileVineSettings),
  ...overrides,
});

export const subject = (matter: Partial<NonNullable<FilingSubject["matter"]>> = {}): FilingSubject => ({
  matter: { number: FILEVINE_MATTER_PROJECT.number, name: FILEVINE_MATTER_PROJECT.name, reference: null, ...matter },
  case: { number: "2:24-cv-00501", name: "Peña Industries v. Bluebonnet" },
  docketText: "ORDER granting 12 Motion to Extend Time.",
  filedOn: "2026-11-20",
  timeZone: "America/Chicago",
});
