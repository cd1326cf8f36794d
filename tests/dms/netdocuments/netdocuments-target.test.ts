import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DmsLocationTaken, DmsTargetError, type DmsStoreRequest, intendAndWrite } from "../../../server/dms/dms-target";
import {
  type NetDocumentsClientSettings,
  type NetDocumentsCloudSettings,
  createNetDocumentsClientTarget,
  createNetDocumentsCloudTarget,
} from "../../../server/dms/netdocuments/netdocuments-target";
import type { StoredToken, TokenStore, VendorContext } from "../../../server/dms/vendor-target";
import { OutboundGuard } from "../../../server/outbound/guard";
import { type NetDocumentsTestServer, startNetDocumentsServer } from "./netdocuments-server";

interface TestContext extends VendorContext {
  slept: number[];
  stored: () => StoredToken | null;
  advance: (ms: number) => void;
}

function memoryTokens(): TokenStore & { value: StoredToken | null } {
  return {
    value: null,
    async read() {
      return this.value;
    },
    async write(token) {
      this.value = token;
    },
    async clear() {
      this.value = null;
    },
  };
}

let server: NetDocumentsTestServer;
let guard: OutboundGuard;
/** Violations a test provoked on purpose; any beyond them fail the test. */
let provoked = 0;

function context(overrides: Partial<VendorContext> = {}): TestContext {
  const tokens = memoryTokens();
  const slept: number[] = [];
  let clock = Date.now();
  return {
    guard,
    baseUrl: server.origin,
    tokens,
    sleep: async (ms) => {
      slept.push(ms);
    },
    now: () => clock,
    timeoutMs: 5_000,
    ...overrides,
    slept,
    stored: () => tokens.value,
    advance: (ms) => {
      clock += ms;
    },
  };
}

const cloudSettings = (changes: Partial<NetDocumentsCloudSettings> = {}) => ({
  ...(server.credentialSettings() as unknown as NetDocumentsCloudSettings),
  ...changes,
});
const clientSettings = (changes: Partial<NetDocumentsClientSettings> = {}) => ({
  ...(server.credentialSettingsFor("client") as unknown as NetDocumentsClientSettings),
  ...changes,
});
const cloud = (ctx: VendorContext, changes: Partial<NetDocumentsCloudSettings> = {}) => createNetDocumentsCloudTarget(cloudSettings(changes), ctx);

function request(changes: Partial<DmsStoreRequest> = {}): DmsStoreRequest {
  return {
    folder: ["Smith v. Jones", "Notices"],
    name: "Notice of Electronic Filing",
    extension: "pdf",
    bytes: Buffer.from("%PDF-1.7 notice"),
    contentType: "application/pdf",
    properties: {},
    ...changes,
  };
}

async function failure(promise: Promise<unknown>): Promise<DmsTargetError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DmsTargetError);
  return error as DmsTargetError;
}

beforeEach(async () => {
  provoked = 0;
  server = await startNetDocumentsServer();
  guard = new OutboundGuard({ allowedOrigins: [server.origin] });
});

afterEach(async () => {
  expect(server.contractViolations().slice(provoked)).toEqual([]);
  await guard.close();
  await server.close();
});

describe("NetDocuments sign-in", () => {
  it("signs in with the refresh token, keeps the rotated one and renews before expiry", async () => {
    const ctx = context();
    const target = cloud(ctx);
    await intendAndWrite(target, request(), "filing-1");
    const first = ctx.stored();
    expect(first?.extra?.refresh_token).toBe(server.currentRefreshToken());
    expect(first!.expiresAt).toBe(ctx.now() + 3600 * 1000);
    expect(server.grants()).toEqual(["refresh_token"]);

    await intendAndWrite(target, request({ name: "Second" }), "filing-2");
    expect(server.grants()).toHaveLength(1);

    // Inside the last minute the token is renewed, with the refresh token NetDocuments rotated.
    ctx.advance(3600 * 1000 - 30_000);
    await intendAndWrite(target, request({ name: "Third" }), "filing-3");
    expect(server.grants()).toEqual(["refresh_token", "refresh_token"]);
    expect(ctx.stored()!.accessToken).not.toBe(first!.accessToken);
    expect(ctx.stored()!.extra?.refresh_token).toBe(server.currentRefreshToken());
    expect(server.documents()).toHaveLength(3);
  });

  it("takes the token a concurrent filing just got when its own rotated refresh token is used up", async () => {
    const first = context();
    await intendAndWrite(cloud(first), request(), "filing-1");
    const shared = first.tokens;
    // The second filing read the store before the first renewed: its refresh token is spent.
    let stale: StoredToken | null = { accessToken: "at-expired", expiresAt: 0, refreshToken: "rt-spent", extra: { refresh_token: "rt-spent" } };
    const second = context({
      tokens: {
        read: async () => {
          const value = stale ?? (await shared.read());
          stale = null;
          return value;
        },
        write: (token) => shared.write(token),
        clear: () => shared.clear(),
      },
    });
    await intendAndWrite(cloud(second), request({ name: "Second" }), "filing-2");
    expect(server.grants()).toEqual(["refresh_token"]);
    expect(server.documents()).toHaveLength(2);
    expect(await shared.read()).not.toBeNull();
  });

  it("signs a service account in with client credentials for its repository", async () => {
    const ctx = context();
    const target = createNetDocumentsClientTarget(clientSettings(), ctx);
    await intendAndWrite(target, request(), "filing-1");
    expect(server.grants()).toEqual(["client_credentials"]);
    expect(ctx.stored()?.accessToken).toMatch(/^at-/);
    expect(server.documents().map((d) => d.name)).toEqual(["Notice of Electronic Filing.pdf"]);
  });

  it("says 'Token generation failed' with NetDocuments' reason when the secret is refused", async () => {
    const wrong = Buffer.from("AP-ECFX0001:wrong-secret").toString("base64");
    const error = await failure(cloud(context(), { basic_auth: wrong }).intend(request(), "filing-1"));
    expect(error.message).toBe("Token generation failed: Client authentication failed");
    expect(error.retryable).toBe(false);

    const client = createNetDocumentsClientTarget(clientSettings({ client_secret: "nope" }), context());
    expect((await failure(client.intend(request(), "filing-1"))).message).toBe("Token generation failed: Client authentication failed");
    const otherRepository = createNetDocumentsClientTarget(clientSettings({ repository: "CA-OTHER" }), context());
    expect((await failure(otherRepository.intend(request(), "filing-1"))).message).toMatch(/^Token generation failed: The repository is not mapped/);
  });

  it("tries the credential's recent access token first and replaces it when refused", async () => {
    const ctx = context();
    await intendAndWrite(cloud(ctx, { recent_access_token: "at-stale" }), request(), "filing-1");
    expect(server.grants()).toEqual(["refresh_token"]);
    expect(server.requests().slice(0, 3)).toEqual(["GET /v1/Cabinet/NG-ECFX0001/folders", "POST /v1/OAuth", "GET /v1/Cabinet/NG-ECFX0001/folders"]);
    expect(ctx.stored()?.accessToken).not.toBe("at-stale");
  });

  it("gets a new token once when NetDocuments refuses the kept one", async () => {
    const ctx = context();
    const target = cloud(ctx);
    await intendAndWrite(target, request(), "filing-1");
    server.revokeAccessTokens();
    await intendAndWrite(target, request({ name: "After revocation" }), "filing-2");
    expect(server.grants()).toHaveLength(2);
    expect(server.documents()).toHaveLength(2);
  });
});

describe("NetDocuments connected again by a person", () => {
  it("says how to mend a refused refresh token, and files again once a person approved ECFX at NetDocuments", async () => {
    const ctx = context();
    const target = cloud(ctx);
    expect(await target.authorization.status()).toEqual({ connected: true, connectedAt: null, required: true });
    server.revokeRefreshToken();
    const refused = await failure(intendAndWrite(target, request(), "again-1"));
    expect(refused.message).toBe(
      "Token generation failed: The refresh token is invalid or has expired; connect to NetDocuments again from the credential's page",
    );

    const redirect = "https://ecfx.firm.example/oauth/netdocuments/callback";
    const consent = new URL(target.authorization.authorizeUrl("signed-state", redirect));
    expect(consent.origin + consent.pathname).toBe(`${server.origin}/neWeb2/OAuth.aspx`);
    expect(Object.fromEntries(consent.searchParams)).toMatchObject({
      client_id: "AP-ECFX0001",
      response_type: "code",
      redirect_uri: redirect,
      state: "signed-state",
    });
    const approved = await fetch(consent, { redirect: "manual" });
    const code = new URL(approved.headers.get("location")!).searchParams.get("code")!;
    await target.authorization.complete(code, redirect);
    expect((await target.authorization.status()).connectedAt).toBe(ctx.now());
    await intendAndWrite(target, request(), "again-2");
    expect(server.grants().slice(-1)).toEqual(["authorization_code"]);
    expect(server.documents()).toHaveLength(1);
  });
});

describe("NetDocuments refusals after a new token", () => {
  it("takes a second 401 as final", async () => {
    server.failNext(401, { count: 2, path: /^\/v1\/Cabinet\// });
    const error = await failure(cloud(context()).intend(request(), "filing-1"));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe("NetDocuments refused listing the folders of cabinet NG-ECFX0001: The access token is not valid");
    expect(server.grants()).toEqual(["refresh_token", "refresh_token"]);
  });
});

describe("NetDocuments filing", () => {
  it("creates missing folders, waits the sync delay only then, and files with profile and link", async () => {
    const ctx = context();
    const target = cloud(ctx, { folder_creation_sync_delay: 1500 });
    const result = await intendAndWrite(target, request({ properties: { author: "Jane Roe", "1001": "Motion" } }), "filing-1");
    expect(server.folders()).toEqual([["Smith v. Jones"], ["Smith v. Jones", "Notices"]]);
    expect(ctx.slept).toEqual([1500]);

    const [doc] = server.documents();
    expect(doc).toMatchObject({
      folder: ["Smith v. Jones", "Notices"],
      name: "Notice of Electronic Filing.pdf",
      properties: { "3": "Jane Roe", "1001": "Motion" },
    });
    expect(doc!.bytes.toString()).toBe("%PDF-1.7 notice");
    expect(result.link).toBe(doc!.link);
    expect(result.link).toBe(`${server.origin}/neWeb2/goID.aspx?id=${result.location}`);

    await intendAndWrite(target, request({ name: "Another" }), "filing-2");
    expect(ctx.slept).toEqual([1500]);
  });

  it("files into the matter workspace of the policy's client and matter, below it, and never into the cabinet's folders", async () => {
    server.addWorkspace("1234", "0007", "Smith v. Jones (1234-0007)");
    const target = cloud(context(), { matter_workspaces: true });
    const filing = request({ folder: ["Notices"], properties: { client: "1234", matter: "0007", "1001": "Motion" } });
    const intended = await target.intend(filing, "ws-1");
    expect(intended.location).toBe("1234/0007/Notices/Notice of Electronic Filing.pdf");
    const stored = await target.write(filing, intended);
    expect(server.documents()).toEqual([
      expect.objectContaining({ folder: ["Smith v. Jones (1234-0007)", "Notices"], name: "Notice of Electronic Filing.pdf", properties: { "1001": "Motion" } }),
    ]);
    expect(await target.findExisting(intended)).toEqual(stored);
    // Directly in the workspace, and the next free name there.
    await intendAndWrite(target, request({ folder: [], properties: { client: "1234", matter: "0007" } }), "ws-2");
    await intendAndWrite(target, request({ folder: [], properties: { client: "1234", matter: "0007" } }), "ws-3");
    expect(
      server
        .documents()
        .filter((doc) => doc.folder.length === 1)
        .map((doc) => doc.name),
    ).toEqual(["Notice of Electronic Filing.pdf", "Notice of Electronic Filing (2).pdf"]);
    expect(server.folders()).toEqual([["Smith v. Jones (1234-0007)"], ["Smith v. Jones (1234-0007)", "Notices"]]);

    const none = await failure(target.intend(request({ properties: { client: "1234", matter: "0999" } }), "ws-4"));
    expect(none).toMatchObject({ retryable: false, message: "NetDocuments has no workspace for client 1234 and matter 0999 in cabinet NG-ECFX0001" });
    const unnamed = await failure(target.intend(request(), "ws-5"));
    expect(unnamed.message).toBe("Filing into NetDocuments matter workspaces needs the storage policy's document properties client and matter");
  });

  it("picks the next free name when the name is taken, across pages of the folder", async () => {
    await server.close();
    server = await startNetDocumentsServer({ pageSize: 2 });
    guard = new OutboundGuard({ allowedOrigins: [server.origin] });
    for (const name of ["Notice", "notice (2)", "Notice (3)"]) server.addDocument(["Case 1"], name, "pdf", Buffer.from(name));
    const target = cloud(context());
    const intended = await target.intend(request({ folder: ["Case 1"], name: "Notice" }), "filing-1");
    expect(intended.location).toBe("Case 1/Notice (4).pdf");
    await target.write(request({ folder: ["Case 1"], name: "Notice" }), intended);
    expect(server.documents().map((d) => d.name)).toContain("Notice (4).pdf");
  });

  it("adopts the copy an earlier attempt of the same filing stored", async () => {
    const target = cloud(context());
    const intended = await target.intend(request(), "filing-1");
    expect(intended).toMatchObject({ location: "Smith v. Jones/Notices/Notice of Electronic Filing.pdf", idempotencyKey: "filing-1" });
    expect(await target.findExisting(intended)).toBeNull();
    const written = await target.write(request(), intended);
    expect(await target.findExisting(intended)).toEqual(written);
    // Another document under that name is not this filing's copy.
    expect(await target.findExisting({ ...intended, contentHash: "0".repeat(64) })).toBeNull();
    expect(server.documents()).toHaveLength(1);
  });

  it("never files over a document that took the intended name", async () => {
    const target = cloud(context());
    const intended = await target.intend(request(), "filing-1");
    server.addDocument(["Smith v. Jones", "Notices"], "Notice of Electronic Filing", "pdf", Buffer.from("someone else's"));
    await expect(target.write(request(), intended)).rejects.toBeInstanceOf(DmsLocationTaken);
    expect(server.documents()).toHaveLength(1);
  });

  it("refuses a property that names no profile attribute before creating anything", async () => {
    const target = cloud(context());
    const intended = await target.intend(request({ properties: { Matter: "A-1" } }), "filing-1");
    const error = await failure(target.write(request({ properties: { Matter: "A-1" } }), intended));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('"Matter" names no NetDocuments profile attribute');
    expect(server.folders()).toEqual([]);
  });

  it("says which folder is missing when folder creation is off", async () => {
    const target = createNetDocumentsClientTarget(clientSettings({ create_folders: false }), context());
    const error = await failure(target.intend(request(), "filing-1"));
    expect(error.message).toBe("The NetDocuments folder Smith v. Jones is missing in cabinet NG-ECFX0001 and folder creation is off");
    expect(error.retryable).toBe(false);
    expect(server.folders()).toEqual([]);
  });
});

describe("NetDocuments failures", () => {
  it("passes on a 429's Retry-After as a retryable error", async () => {
    server.failNext(429, { retryAfterSeconds: 7, path: /^\/v1\/Document$/ });
    const target = cloud(context());
    const intended = await target.intend(request(), "filing-1");
    const error = await failure(target.write(request(), intended));
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 7000 });
    expect(error.message).toContain("Too many requests");
  });

  it("takes a 5xx as retryable and a 403 as final, with NetDocuments' reason", async () => {
    const target = cloud(context());
    server.failNext(503, { path: /^\/v1\/Cabinet\// });
    expect((await failure(target.intend(request(), "filing-1"))).retryable).toBe(true);

    const intended = await target.intend(request(), "filing-1");
    server.failNext(403, { path: /^\/v1\/Document$/ });
    const error = await failure(target.write(request(), intended));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe("NetDocuments refused the upload of Smith v. Jones/Notices/Notice of Electronic Filing.pdf: Access to this cabinet is denied");
  });

  it("leaves no document behind when an upload fails or times out, and files on the next attempt", async () => {
    const ctx = context({ timeoutMs: 400 });
    const target = cloud(ctx);
    const intended = await target.intend(request(), "filing-1");
    server.failNext(500, { path: /^\/v1\/Document$/ });
    expect((await failure(target.write(request(), intended))).retryable).toBe(true);
    server.hangNext(/^\/v1\/Document$/);
    const timedOut = await failure(target.write(request(), intended));
    expect(timedOut.retryable).toBe(true);
    expect(timedOut.message).toContain("did not answer");
    expect(server.documents()).toEqual([]);
    expect(await target.findExisting(intended)).toBeNull();
    await target.write(request(), intended);
    expect(server.documents()).toHaveLength(1);
  });

  it("calls no base URL the guard does not allow", async () => {
    const target = cloud(context({ baseUrl: "http://127.0.0.1:9" }));
    const error = await failure(target.intend(request(), "filing-1"));
    expect(error.retryable).toBe(false);
    expect(server.requests()).toEqual([]);
  });
});

describe("the local NetDocuments", () => {
  it("answers 400 to a request off the contract and records it", async () => {
    const response = await fetch(`${server.origin}/v1/OAuth`, { method: "POST", body: "grant_type=password" });
    expect(response.status).toBe(400);
    expect(server.contractViolations()).toEqual(["/v1/OAuth: body must be application/x-www-form-urlencoded"]);
    provoked = 1;
  });
});

describe("NetDocuments connection test", () => {
  it("signs in and lists the cabinet without writing", async () => {
    server.addDocument(["Existing matter"], "Old", "pdf", Buffer.from("x"));
    const report = await cloud(context()).testConnection();
    expect(report).toEqual({
      ok: true,
      steps: [
        { step: "Sign in", ok: true, detail: "Signed in as ECFX Filing" },
        { step: "List the cabinet", ok: true, detail: "Listed 1 folder in cabinet Matters" },
      ],
    });
    expect(server.requests().filter((r) => r.startsWith("POST") && r !== "POST /v1/OAuth")).toEqual([]);
  });

  it("reports the step that failed with NetDocuments' reason", async () => {
    const refused = await cloud(context(), { refresh_token: "rt-revoked" }).testConnection();
    expect(refused.ok).toBe(false);
    expect(refused.steps).toEqual([
      {
        step: "Sign in",
        ok: false,
        detail: "Token generation failed: The refresh token is invalid or has expired; connect to NetDocuments again from the credential's page",
      },
    ]);

    server.failNext(403, { path: /^\/v1\/Cabinet\// });
    const denied = await cloud(context()).testConnection();
    expect(denied.ok).toBe(false);
    expect(denied.steps[1]).toEqual({
      step: "List the cabinet",
      ok: false,
      detail: "NetDocuments refused reading cabinet NG-ECFX0001: Access to this cabinet is denied",
    });
  });
});
