import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DmsLocationTaken, DmsTargetError, type DmsStoreRequest, intendAndWrite } from "../../../server/dms/dms-target";
import {
  type IManageCloudSettings,
  type IManageOnPremSettings,
  createIManageCloudTarget,
  createIManageOnPremTarget,
} from "../../../server/dms/imanage/imanage-target";
import { filingComment } from "../../../server/dms/imanage/imanage-profile";
import type { StoredToken, VendorContext } from "../../../server/dms/vendor-target";
import { OutboundGuard } from "../../../server/outbound/guard";
import { IMANAGE_TEST_MATTER, type IManageTestServer, startIManageServer } from "./imanage-server";

let server: IManageTestServer;
let guard: OutboundGuard;

beforeAll(async () => {
  server = await startIManageServer();
  guard = new OutboundGuard({ allowedOrigins: [server.origin] });
});
afterAll(async () => {
  await guard.close();
  await server.close();
});
afterEach(() => {
  expect(server.contractViolations()).toEqual([]);
});

/** A context as the storage step gives one, with a clock the test moves and sleeps it records. */
function context(overrides: Partial<VendorContext> = {}) {
  let token: StoredToken | null = null;
  const written: StoredToken[] = [];
  const sleeps: number[] = [];
  const clock = { now: Date.now() };
  const ctx: VendorContext = {
    guard,
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
    timeoutMs: 5_000,
    ...overrides,
  };
  return { ctx, written, sleeps, clock };
}

const settings = (changes: Partial<IManageCloudSettings> = {}) => ({ ...(server.credentialSettings() as unknown as IManageCloudSettings), ...changes });

let filings = 0;
/** A request into its own folder, so tests do not meet each other's documents. */
function request(changes: Partial<DmsStoreRequest> = {}): DmsStoreRequest {
  filings += 1;
  return {
    folder: [`Case ${filings}`],
    name: "Order",
    extension: "pdf",
    bytes: Buffer.from(`order ${filings}`),
    contentType: "application/pdf",
    properties: {},
    ...changes,
  };
}

async function failure(run: () => Promise<unknown>): Promise<DmsTargetError> {
  const error = await run().then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DmsTargetError);
  return error as DmsTargetError;
}

describe("iManage sign-in", () => {
  it("signs in once, keeps the token in the store and renews it with the refresh token before it expires", async () => {
    const { ctx, written, clock } = context();
    const target = createIManageCloudTarget(settings(), ctx);
    const before = server.grants().length;
    await target.intend(request(), "sign-in-1");
    await target.intend(request(), "sign-in-2");
    expect(server.grants().slice(before)).toEqual(["password"]);
    expect(written).toHaveLength(1);
    expect(written[0]!.extra).toEqual({ user_id: "ECFXSVC", customer_id: "1" });

    clock.now += 1750 * 1000; // 50 s before the 30 minutes are up: inside the renewal margin
    await target.intend(request(), "sign-in-3");
    expect(server.grants().slice(before)).toEqual(["password", "refresh_token"]);
    expect(written).toHaveLength(2);
    expect(written[1]!.accessToken).not.toBe(written[0]!.accessToken);
    expect(written[1]!.expiresAt).toBe(clock.now + 1800 * 1000);
    expect(written[1]!.extra).toEqual(written[0]!.extra);
  });

  it("signs an SSO tenant in with a person's approval (authorization code), never a password, and asks for it again when it lapses", async () => {
    const { ctx, clock } = context();
    const sso = settings({ sign_in: "authorization_code", username: "", password: "" });
    const target = createIManageCloudTarget(sso, ctx);
    expect(await target.authorization.status()).toEqual({ connected: false, connectedAt: null, required: true });
    const refused = await failure(() => target.intend(request(), "sso-0"));
    expect(refused.message).toBe('Not connected to iManage yet: open the credential\'s page and use "Connect to iManage"');
    expect(refused.retryable).toBe(false);

    const redirect = "https://ecfx.firm.example/oauth/imanage-cloud/callback";
    const consent = new URL(target.authorization.authorizeUrl("signed-state", redirect));
    expect(consent.origin + consent.pathname).toBe(`${server.origin}/auth/oauth2/authorize`);
    expect(Object.fromEntries(consent.searchParams)).toEqual({
      response_type: "code",
      client_id: sso.client_id,
      redirect_uri: redirect,
      scope: "user",
      state: "signed-state",
    });
    const before = server.grants().length;
    await target.authorization.complete(server.issueCode(redirect), redirect);
    expect((await target.authorization.status()).connected).toBe(true);
    const stored = await intendAndWrite(target, request(), "sso-1");
    expect(server.documents().some((document) => document.link === stored.link)).toBe(true);

    // Past its lifetime the token is refreshed; once the refresh is refused, only a person can mend it.
    clock.now += 3 * 3600_000;
    server.revokeTokens();
    await intendAndWrite(target, request(), "sso-2");
    expect(server.grants().slice(before)).toEqual(["authorization_code", "refresh_token"]);
    server.revokeRefreshTokens();
    clock.now += 3 * 3600_000;
    const lapsed = await failure(() => target.intend(request(), "sso-3"));
    expect(lapsed.message).toBe("Token generation failed: iManage no longer takes the approval; connect to iManage again");
    expect(server.grants().slice(before)).not.toContain("password");
  });

  it("needs no approval when the credential signs in with a password", async () => {
    const { ctx } = context();
    expect(await createIManageCloudTarget(settings(), ctx).authorization.status()).toMatchObject({ required: false });
  });

  it("signs in again when iManage no longer takes the token", async () => {
    const { ctx, written } = context();
    const target = createIManageCloudTarget(settings(), ctx);
    await target.intend(request(), "revoked-1");
    server.revokeTokens();
    await target.intend(request(), "revoked-2");
    expect(written).toHaveLength(2);
  });

  it("says 'Token generation failed' with iManage's reason when the secret is refused", async () => {
    const { ctx } = context();
    const error = await failure(() => createIManageCloudTarget(settings({ client_secret: "wrong" }), ctx).intend(request(), "secret"));
    expect(error.message).toBe("Token generation failed: Client authentication failed");
    expect(error.retryable).toBe(false);
  });
});

describe("iManage filing", () => {
  it("creates missing folders, waits the sync delay only then, and files with the profile mapped", async () => {
    const { ctx, sleeps } = context();
    const target = createIManageCloudTarget(settings({ folder_creation_sync_delay: 1500, custom_properties: { custom1: "ACME" } }), ctx);
    const first = request({ folder: ["Acme", "Pleadings"], properties: { author: "JDOE", custom3: "Motion", court: "not a profile field" } });
    const intended = await target.intend(first, "filing-1");
    expect(intended.location).toBe("Acme/Pleadings/Order.pdf");
    expect(sleeps).toEqual([]);
    expect(server.folders()).not.toContainEqual(["Acme"]);

    const stored = await target.write(first, intended);
    expect(sleeps).toEqual([1500]);
    expect(server.folders()).toEqual(expect.arrayContaining([["Acme"], ["Acme", "Pleadings"]]));
    expect(stored.location).toMatch(/^ACTIVE!\d+\.1$/);
    expect(stored.link).toBe(`${server.origin}/work/link/d/${encodeURIComponent(stored.location)}`);
    const held = server.documents().find((document) => document.link === stored.link);
    expect(held).toMatchObject({ folder: ["Acme", "Pleadings"], name: "Order.pdf", bytes: first.bytes });
    expect(held!.properties).toEqual({
      comment: filingComment("filing-1"),
      author: "JDOE",
      class: "PLEADING",
      subclass: "MOTION",
      default_security: "inherit",
      custom1: "ACME",
      custom3: "Motion",
    });

    const second = request({ folder: ["Acme", "Pleadings"], name: "Notice" });
    await target.write(second, await target.intend(second, "filing-2"));
    expect(sleeps).toEqual([1500]);
  });

  it("gives a taken name the next free number instead of filing over another document", async () => {
    const { ctx } = context();
    const target = createIManageCloudTarget(settings(), ctx);
    server.addDocument(["Taken"], "Order", "pdf");
    const filing = request({ folder: ["Taken"] });
    const intended = await target.intend(filing, "taken-1");
    expect(intended.location).toBe("Taken/Order (2).pdf");
    await target.write(filing, intended);
    expect(
      server
        .documents()
        .filter((document) => document.folder[0] === "Taken")
        .map((document) => document.name),
    ).toEqual(["Order.pdf", "Order (2).pdf"]);
  });

  it("refuses a location another document took after it was chosen, and intendAndWrite chooses again", async () => {
    const { ctx } = context();
    const target = createIManageCloudTarget(settings(), ctx);
    const filing = request({ folder: ["Race"] });
    const intended = await target.intend(filing, "race-1");
    server.addDocument(["Race"], "Order", "pdf");
    await expect(target.write(filing, intended)).rejects.toBeInstanceOf(DmsLocationTaken);
    const stored = await intendAndWrite(target, filing, "race-1");
    expect(server.documents().find((document) => document.link === stored.link)?.name).toBe("Order (2).pdf");
  });

  it("lets a retry of the same filing adopt the copy its earlier attempt filed", async () => {
    const { ctx } = context();
    const target = createIManageCloudTarget(settings(), ctx);
    const filing = request();
    const intended = await target.intend(filing, "retry-1");
    expect(await target.findExisting(intended)).toBeNull();
    const stored = await target.write(filing, intended);
    expect(await target.findExisting(intended)).toEqual(stored);
    expect(await target.findExisting({ ...intended, idempotencyKey: "retry-10" })).toBeNull();
    // A write repeated after a lost answer finds its own document under the name instead of a second copy.
    expect(await target.write(filing, intended)).toEqual(stored);
    expect(server.documents().filter((document) => document.folder[0] === filing.folder[0])).toHaveLength(1);
  });

  it("finds the earlier copy in its folder while iManage's search has not indexed it yet", async () => {
    const { ctx } = context();
    const target = createIManageCloudTarget(settings({ matter_workspace_search: true }), ctx);
    const filing = request({ folder: [IMANAGE_TEST_MATTER, "Unindexed"] });
    const intended = await target.intend(filing, "unindexed-1");
    const stored = await target.write(filing, intended);
    server.searchLags(true);
    try {
      expect(await target.findExisting(intended)).toEqual(stored);
      expect(await target.findExisting({ ...intended, idempotencyKey: "unindexed-2" })).toBeNull();
    } finally {
      server.searchLags(false);
    }
  });

  it("files into the matter's workspace when matter workspace search is on", async () => {
    const { ctx } = context();
    const target = createIManageCloudTarget(settings({ matter_workspace_search: true }), ctx);
    const filing = request({ folder: [IMANAGE_TEST_MATTER, "Court Notices"] });
    const intended = await target.intend(filing, "matter-1");
    expect(intended.location).toBe(`${IMANAGE_TEST_MATTER}/Court Notices/Order.pdf`);
    const stored = await target.write(filing, intended);
    expect(server.documents().find((document) => document.link === stored.link)?.folder).toEqual(["Acme v. Widget", "Court Notices"]);

    const unknown = await failure(() => target.intend(request({ folder: ["1999-9999", "Court Notices"] }), "matter-2"));
    expect(unknown.message).toBe("iManage has no workspace in ACTIVE whose custom2 is 1999-9999");
    expect(unknown.retryable).toBe(false);
  });

  it("files only into a workspace whose matter field is the matter, never one that lacks the field", async () => {
    const { ctx } = context();
    const target = createIManageCloudTarget(settings({ matter_workspace_search: true }), ctx);
    server.addWorkspace("Firm templates", { custom1: "ADMIN" });
    server.searchIgnoresCustomFields(true);
    try {
      const lacking = await failure(() => target.intend(request({ folder: ["1999-0001", "Court Notices"] }), "matter-3"));
      expect(lacking.message).toBe("iManage has no workspace in ACTIVE whose custom2 is 1999-0001");
      expect(lacking.retryable).toBe(false);
      // The right workspace is still found among the others the search answered.
      const intended = await target.intend(request({ folder: [IMANAGE_TEST_MATTER, "Court Notices"] }), "matter-4");
      expect(intended.location).toMatch(new RegExp(`^${IMANAGE_TEST_MATTER}/Court Notices/Order`));
      server.addWorkspace("Acme v. Widget (copy)", { custom2: IMANAGE_TEST_MATTER });
      const twice = await failure(() => target.intend(request({ folder: [IMANAGE_TEST_MATTER, "Court Notices"] }), "matter-5"));
      expect(twice.message).toBe(`iManage has 2 workspaces in ACTIVE whose custom2 is ${IMANAGE_TEST_MATTER}: the matter's documents have no single place`);
    } finally {
      server.searchIgnoresCustomFields(false);
    }
  });

  it("works the same against an on-premises server named by base_url", async () => {
    const { ctx } = context({ baseUrl: "https://cloudimanage.com" });
    const target = createIManageOnPremTarget(server.onPremCredentialSettings() as unknown as IManageOnPremSettings, ctx);
    const filing = request();
    const stored = await target.write(filing, await target.intend(filing, "on-prem-1"));
    expect(stored.link).toBe(`${server.origin}/work/link/d/${encodeURIComponent(stored.location)}`);
  });
});

describe("iManage failures", () => {
  it("passes on a 429 as retryable with the wait iManage asked for", async () => {
    const { ctx } = context();
    const target = createIManageCloudTarget(settings(), ctx);
    const filing = request();
    const intended = await target.intend(filing, "throttled");
    server.failNext(429, { retryAfterSeconds: 7, method: "POST", path: /\/documents$/ });
    const error = await failure(() => target.write(filing, intended));
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 7000 });
    expect(error.message).toBe("iManage is throttling the upload: Too many requests");
  });

  it("counts a server error as retryable and leaves no half document", async () => {
    const { ctx } = context();
    const target = createIManageCloudTarget(settings(), ctx);
    const filing = request();
    const intended = await target.intend(filing, "server-error");
    server.failNext(503, { method: "POST", path: /\/documents$/ });
    const error = await failure(() => target.write(filing, intended));
    expect(error.retryable).toBe(true);
    expect(server.documents().filter((document) => document.folder[0] === filing.folder[0])).toEqual([]);
    expect(await target.findExisting(intended)).toBeNull();
  });

  it("counts a refusal as permanent, in plain words with iManage's reason", async () => {
    const { ctx } = context();
    const target = createIManageCloudTarget(settings(), ctx);
    server.failNext(403, { path: /\/children$/ });
    const forbidden = await failure(() => target.intend(request(), "forbidden"));
    expect(forbidden).toMatchObject({ retryable: false, message: "iManage refused the folder lookup: The user has no access to this folder" });

    const badClass = createIManageCloudTarget(settings({ document_class: "NOPE" }), ctx);
    const filing = request();
    const refused = await failure(async () => badClass.write(filing, await badClass.intend(filing, "bad-class")));
    expect(refused).toMatchObject({ retryable: false, message: "iManage refused the upload: Class 'NOPE' is not valid in library ACTIVE" });
  });

  it("does not try a refused token more than once more after renewing it", async () => {
    const { ctx, written } = context();
    const target = createIManageCloudTarget(settings(), ctx);
    await target.intend(request(), "unauthorised-1");
    server.failNext(401, { count: 2, path: /\/children$/ });
    const error = await failure(() => target.intend(request(), "unauthorised-2"));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/^iManage refused the folder lookup: /);
    expect(written).toHaveLength(2);
  });

  it("counts a call that does not answer in time as retryable, and refuses an absurdly large answer", async () => {
    // A server that takes sign-in requests and answers the first never and the second with far too much.
    let calls = 0;
    const odd = http.createServer((req, res) => {
      calls += 1;
      if (calls === 1) return;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ access_token: "x".repeat(2 * 1024 * 1024) }));
    });
    await new Promise<void>((resolve) => odd.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
    const oddGuard = new OutboundGuard({ allowedOrigins: [origin] });
    try {
      const { ctx } = context({ guard: oddGuard, baseUrl: origin, timeoutMs: 300 });
      const target = createIManageCloudTarget(settings(), ctx);
      const slow = await failure(() => target.intend(request(), "slow"));
      expect(slow).toMatchObject({ retryable: true, message: "iManage did not answer within 1 s" });
      const large = await failure(() => target.intend(request(), "large"));
      expect(large).toMatchObject({ retryable: false, message: "iManage sent an answer larger than 1048576 bytes" });
    } finally {
      await oddGuard.close();
      odd.closeAllConnections();
      await new Promise((resolve) => odd.close(resolve));
    }
  });

  it("fails clearly, not with a folder made twice, when a folder listing lacks an item's name", async () => {
    // Sign-in and discovery as iManage answers them, then a folder's children without a name.
    const offShape = http.createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      if (req.url?.startsWith("/auth/oauth2/token")) return res.end('{"access_token":"t","expires_in":1800,"token_type":"bearer"}');
      if (req.url === "/api") return res.end(JSON.stringify({ data: { user: { id: "ECFX", customer_id: 1 } } }));
      if (req.url?.includes("/children")) return res.end('{"data":[{"id":"ACTIVE!9","wstype":"folder"}]}');
      res.end('{"data":[]}');
    });
    await new Promise<void>((resolve) => offShape.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(offShape.address() as AddressInfo).port}`;
    const offGuard = new OutboundGuard({ allowedOrigins: [origin] });
    try {
      const { ctx } = context({ guard: offGuard, baseUrl: origin });
      const error = await failure(() => createIManageCloudTarget(settings(), ctx).intend(request(), "off-shape"));
      expect(error).toMatchObject({ retryable: false, message: "iManage answered the folder lookup in an unexpected shape: data.0.name: Required" });
    } finally {
      await offGuard.close();
      offShape.closeAllConnections();
      await new Promise((resolve) => offShape.close(resolve));
    }
  });

  it("reaches no host but the allowed ones: a base URL the guard does not allow is refused", async () => {
    const { ctx } = context({ baseUrl: "http://127.0.0.2:9" });
    const error = await failure(() => createIManageCloudTarget(settings(), ctx).intend(request(), "elsewhere"));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/^iManage may not be reached at 127\.0\.0\.2:9/);
  });
});

describe("iManage connection test", () => {
  it("signs in and lists the credential's folder without writing", async () => {
    const { ctx } = context();
    const before = server.documents().length;
    const requestsBefore = server.requests().length;
    const report = await createIManageCloudTarget(settings(), ctx).testConnection();
    expect(report.ok).toBe(true);
    expect(report.steps[0]).toEqual({ step: "Sign in", ok: true, detail: "Signed in as ECFXSVC (customer 1)" });
    expect(report.steps[1]!.ok).toBe(true);
    expect(report.steps[1]!.detail).toMatch(/^Listed \d+ folders in ACTIVE!100 of library ACTIVE$/);
    expect(server.documents()).toHaveLength(before);
    expect(
      server
        .requests()
        .slice(requestsBefore)
        .filter((line) => line.startsWith("POST /work")),
    ).toEqual([]);
  });

  it("reports the failing step with iManage's reason", async () => {
    const refused = await createIManageCloudTarget(settings({ password: "wrong" }), context().ctx).testConnection();
    expect(refused.ok).toBe(false);
    expect(refused.steps).toEqual([{ step: "Sign in", ok: false, detail: "Token generation failed: The user name or password is incorrect" }]);

    const missing = await createIManageCloudTarget(settings({ folder_id: "ACTIVE!9" }), context().ctx).testConnection();
    expect(missing.ok).toBe(false);
    expect(missing.steps[1]).toEqual({ step: "List the root folder", ok: false, detail: "iManage refused the folder lookup: The folder was not found" });
  });
});
