import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DmsTargetError, type DmsStoreRequest, intendAndWrite } from "../../../server/dms/dms-target";
import { type ClioSettings, createClioTarget } from "../../../server/dms/clio/clio-target";
import { CLIO_DEFAULT_BASE_URL, clioBase } from "../../../server/dms/clio/clio-hosts";
import { type TestContext, testContext } from "../box/box-context";
import { type ClioTestServer, startClioServer } from "./clio-server";

// The Clio client against the local Clio: connecting (code exchange), refresh before expiry and
// after a 401, a refused refresh, matters by display number and reference, folders, the
// three-step upload, names, an interrupted attempt, throttling and refusals, calendar entries and
// the connection test.

const REDIRECT = "https://ecfx.lawfirm.test/oauth/clio/callback";

const request = (overrides: Partial<DmsStoreRequest> = {}): DmsStoreRequest => ({
  folder: ["2_24-cv-501"],
  name: "0 Order",
  extension: "pdf",
  bytes: Buffer.from("%PDF-1.7 the order"),
  contentType: "application/pdf",
  properties: {},
  subject: {
    matter: { number: "M-501", name: "Peña v. Bluebonnet", reference: null },
    case: { number: "2:24-cv-501", name: "Peña Industries v. Bluebonnet" },
    docketText: "ORDER granting 12 Motion to Compel. Motion Hearing set for 3/15/2026 10:00 AM before Judge Rodney Gilstrap.",
    filedOn: "2026-02-01",
    timeZone: "America/Chicago",
  },
  ...overrides,
});

describe("the Clio target", () => {
  let server: ClioTestServer;
  let ctx: TestContext;
  let settings: ClioSettings;

  const target = () => createClioTarget(settings, ctx);
  const connect = async () => {
    const url = new URL(target().authorization.authorizeUrl("signed-state", REDIRECT));
    expect(url.origin).toBe(server.origin);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: settings.client_id,
      redirect_uri: REDIRECT,
      state: "signed-state",
    });
    await target().authorization.complete(server.issueCode(REDIRECT), REDIRECT);
  };

  beforeEach(async () => {
    server = await startClioServer({ tokenSeconds: 3600 });
    ctx = testContext(server as never);
    settings = { ...(server.credentialSettings() as unknown as ClioSettings), folder_creation_sync_delay: 250 };
  });

  afterEach(async () => {
    expect(server.contractViolations()).toEqual([]);
    await ctx.close();
    await server.close();
  });

  it("is not connected until a person approves it, and says so plainly", async () => {
    expect(await target().authorization.status()).toEqual({ connected: false, connectedAt: null });
    const report = await target().testConnection();
    expect(report.ok).toBe(false);
    expect(report.steps[0]!.detail).toMatch(/^Not connected to Clio yet/);
    await expect(intendAndWrite(target(), request(), "rec-0")).rejects.toMatchObject({
      retryable: false,
      message: expect.stringMatching(/Not connected to Clio yet/),
    });
    expect(server.requests()).toEqual([]);
  });

  it("exchanges the code for tokens it keeps, and tests the connection without writing", async () => {
    await connect();
    expect(ctx.tokens.token).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String) });
    const status = await target().authorization.status();
    expect(status.connected).toBe(true);
    expect(status.connectedAt).toBeGreaterThan(0);
    const report = await target().testConnection();
    expect(report).toEqual({
      ok: true,
      steps: [
        { step: "Sign in", ok: true, detail: "Signed in as Adaeze Okafor (aokafor@lawfirm.test)" },
        { step: "List matters", ok: true, detail: "Clio lists 2 matters" },
      ],
    });
    expect(server.requests().filter((r) => !r.startsWith("GET") && !r.endsWith("/oauth/token"))).toEqual([]);
  });

  it("refuses a code Clio did not issue for this redirect as Token generation failed", async () => {
    const code = server.issueCode("https://elsewhere.test/callback");
    await expect(target().authorization.complete(code, REDIRECT)).rejects.toMatchObject({
      retryable: false,
      message: expect.stringMatching(/^Token generation failed: The authorization code is invalid/),
    });
    expect(ctx.tokens.token).toBeNull();
  });

  it("files into the matter's folder with the three-step upload, waits after creating the folder, and links the document", async () => {
    await connect();
    const stored = await intendAndWrite(target(), request(), "rec-1");
    const [held] = server.held();
    expect(held).toMatchObject({ folder: ["2_24-cv-501"], name: "0 Order.pdf", fullyUploaded: true, properties: { ecfx_filing: "rec-1" } });
    expect(held!.bytes.toString()).toBe("%PDF-1.7 the order");
    expect(stored.link).toBe(held!.link);
    expect(stored.link).toMatch(/\/nc\/#\/documents\/\d+\/details$/);
    expect(ctx.slept).toEqual([250]);
    expect(server.requests()).toEqual(
      expect.arrayContaining([
        "POST /api/v4/documents.json",
        expect.stringMatching(/^PUT \/uploads\//),
        expect.stringMatching(/^PATCH \/api\/v4\/documents\/\d+\.json$/),
      ]),
    );

    // The folder is there now: no second wait, and a clash of names takes the next free one.
    await intendAndWrite(target(), request(), "rec-2");
    expect(ctx.slept).toEqual([250]);
    expect(
      server
        .documents()
        .map((d) => d.name)
        .sort(),
    ).toEqual(["0 Order (2).pdf", "0 Order.pdf"]);
  });

  it("takes the next free name past someone else's document, in any case", async () => {
    await connect();
    const [, matterId] = [0, 5001];
    server.seed(matterId, ["2_24-cv-501"], "0 ORDER.pdf");
    await intendAndWrite(target(), request(), "rec-3");
    expect(
      server
        .documents()
        .map((d) => d.name)
        .sort(),
    ).toEqual(["0 ORDER.pdf", "0 Order (2).pdf"]);
  });

  it("finds the folder someone made at the matter's top level, as Clio reports it (parent: the matter's folder)", async () => {
    await connect();
    // Clio answers the parent of a matter's top-level items as the matter's own Folder: a client
    // looking for a parent of type Matter would miss this folder, make a second one and miss the name.
    server.seed(5001, ["2_24-cv-501"], "0 Order.pdf");
    await intendAndWrite(target(), request(), "rec-30");
    expect(server.folders()).toEqual([["2_24-cv-501"]]);
    expect(server.documents().map((d) => [d.folder, d.name])).toEqual([
      [["2_24-cv-501"], "0 Order.pdf"],
      [["2_24-cv-501"], "0 Order (2).pdf"],
    ]);
    await intendAndWrite(target(), request({ folder: [], name: "0 Order" }), "rec-31");
    await intendAndWrite(target(), request({ folder: [], name: "0 Order" }), "rec-32");
    expect(
      server
        .documents()
        .filter((d) => d.folder.length === 0)
        .map((d) => d.name),
    ).toEqual(["0 Order.pdf", "0 Order (2).pdf"]);
  });

  it("finds the matter by reference (Clio's id or display number) when the number is not Clio's", async () => {
    await connect();
    const id = server.addMatter("2026-0042", "Okafor estate");
    const byId = request({ folder: [], subject: { ...request().subject!, matter: { number: "X-1", name: "Okafor", reference: String(id) } } });
    await intendAndWrite(target(), byId, "rec-4");
    const byNumber = request({ folder: [], subject: { ...request().subject!, matter: { number: "X-1", name: "Okafor", reference: "2026-0042" } } });
    await intendAndWrite(target(), byNumber, "rec-5");
    expect(server.held().filter((d) => d.matterId === id)).toHaveLength(2);
  });

  it("matches the display number exactly, never a wildcard neighbour, and names a missing matter", async () => {
    await connect();
    await intendAndWrite(target(), request({ folder: [] }), "rec-6");
    expect(server.held()[0]!.matterId).toBe(5001);
    const missing = request({ subject: { ...request().subject!, matter: { number: "M-50", name: "Nobody v. Nothing", reference: null } } });
    const error = await intendAndWrite(target(), missing, "rec-7").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DmsTargetError);
    expect(error).toMatchObject({ retryable: false, message: "Clio has no matter with number M-50 (Nobody v. Nothing)" });
  });

  it("adopts an interrupted attempt's finished copy and replaces a half-uploaded one", async () => {
    await connect();
    const t = target();
    const intended = await t.intend(request(), "rec-8");
    const stored = await t.write(request(), intended);
    expect(await t.findExisting(intended)).toEqual(stored);

    const half = server.seedHalfUploaded(5001, "0 Notice.pdf", "rec-9");
    const again = await t.intend(request({ name: "0 Notice" }), "rec-9");
    expect(await t.findExisting(again)).toBeNull();
    await t.write(request({ name: "0 Notice" }), again);
    const copies = server.held().filter((d) => d.properties.ecfx_filing === "rec-9");
    expect(copies).toHaveLength(1);
    expect(copies[0]!.fullyUploaded).toBe(true);
    expect(server.held().some((d) => d.link.includes(`/${half}/`))).toBe(false);
  });

  it("creates one calendar entry per filing in the firm's time zone, never twice", async () => {
    await connect();
    await intendAndWrite(target(), request(), "rec-10");
    await intendAndWrite(target(), request({ name: "1 Exhibit" }), "rec-11");
    const entries = server.calendarEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      summary: "Motion Hearing: 2:24-cv-501 Peña Industries v. Bluebonnet",
      start_at: "2026-03-15T10:00:00-05:00",
      end_at: "2026-03-15T11:00:00-05:00",
      matter: { id: 5001 },
      calendar_owner: { id: 344117 },
    });
    settings = { ...settings, create_calendar_entries: false };
    await intendAndWrite(target(), request({ subject: { ...request().subject!, docketText: "Status Conference set for 1/5/2026 at 09:30 AM" } }), "rec-12");
    expect(server.calendarEntries()).toHaveLength(1);
  });

  it("renews the token before it expires and after a 401, and forgets it when Clio refuses the refresh", async () => {
    await connect();
    ctx.advance(3600_000 - 60_000);
    await target().testConnection();
    expect(server.grants().refresh_token).toBe(1);
    server.revokeAccessTokens();
    expect((await target().testConnection()).ok).toBe(true);
    expect(server.grants().refresh_token).toBe(2);

    server.revokeAccessTokens();
    server.revokeRefreshTokens();
    const report = await target().testConnection();
    expect(report.ok).toBe(false);
    expect(report.steps[0]!.detail).toMatch(/^Token generation failed: The refresh token is invalid or was revoked; connect to Clio again/);
    expect(ctx.tokens.token).toBeNull();
  });

  it("waits as long as Clio's Retry-After asks, tries server errors again, and fails refusals with Clio's reason", async () => {
    await connect();
    server.failNext(429, { retryAfterSeconds: 30, path: /^\/api\/v4\/documents\.json$/ });
    await expect(intendAndWrite(target(), request(), "rec-13")).rejects.toMatchObject({ retryable: true, retryAfterMs: 30_000 });
    server.failNext(503, { path: /^\/uploads\// });
    await expect(intendAndWrite(target(), request(), "rec-13")).rejects.toMatchObject({ retryable: true });
    server.failNext(403, { path: /^\/api\/v4\/documents\.json$/ });
    await expect(intendAndWrite(target(), request(), "rec-13")).rejects.toMatchObject({
      retryable: false,
      message: "Clio refused the list of the matter's documents: You do not have permission to do that",
    });
    // The attempt that reached the bytes left a half-uploaded document: the next one replaces it.
    await intendAndWrite(target(), request(), "rec-13");
    expect(server.held().filter((d) => d.properties.ecfx_filing === "rec-13")).toEqual([expect.objectContaining({ name: "0 Order.pdf", fullyUploaded: true })]);
  });

  it("times out as a retryable failure", async () => {
    await connect();
    const slow = testContext(server as never, { timeoutMs: 300 });
    slow.tokens.token = ctx.tokens.token;
    server.hangNext(/^\/api\/v4\/matters\.json$/);
    await expect(intendAndWrite(createClioTarget(settings, slow), request(), "rec-14")).rejects.toMatchObject({
      retryable: true,
      message: "Clio did not answer within 1 s",
    });
    await slow.close();
  });

  it("goes to the credential's region unless the operator switched the base", () => {
    expect(clioBase("eu", CLIO_DEFAULT_BASE_URL).origin).toBe("https://eu.app.clio.com");
    expect(clioBase("au", CLIO_DEFAULT_BASE_URL).origin).toBe("https://au.app.clio.com");
    expect(clioBase("ca", CLIO_DEFAULT_BASE_URL).origin).toBe("https://ca.app.clio.com");
    expect(clioBase("us", CLIO_DEFAULT_BASE_URL).origin).toBe("https://app.clio.com");
    expect(clioBase("eu", "http://127.0.0.1:9999").origin).toBe("http://127.0.0.1:9999");
  });
});
