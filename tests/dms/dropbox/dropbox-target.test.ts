import type http from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DmsLocationTaken, DmsTargetError, type DmsStoreRequest, intendAndWrite } from "../../../server/dms/dms-target";
import { DROPBOX_KIND, createDropboxTarget, type DropboxStoreResult } from "../../../server/dms/dropbox/dropbox-target";
import { SESSION_THRESHOLD } from "../../../server/dms/dropbox/dropbox-upload";
import { OutboundGuard } from "../../../server/outbound/guard";
import { type TestContext, testContext as newContext, withRawServer } from "./dropbox-context";
import type { VendorContext } from "../../../server/dms/vendor-target";
import { type DropboxTestServer, startDropboxServer } from "./dropbox-server";

let server: DropboxTestServer;
const contexts: TestContext[] = [];

beforeEach(async () => {
  server = await startDropboxServer();
});

afterEach(async () => {
  const violations = server.contractViolations();
  await Promise.all(contexts.splice(0).map((test) => test.ctx.guard.close()));
  await server.close();
  expect(violations).toEqual([]);
});

/** A context whose base URL and guard lead to another local server. */
async function contextFor(origin: string, context: Partial<VendorContext> = {}): Promise<TestContext> {
  const test = testContext(server, {}, { baseUrl: origin, ...context });
  await test.ctx.guard.close();
  test.ctx.guard = new OutboundGuard({ allowedOrigins: [origin] });
  return test;
}

/** A context for the target, its guard closed after the test. */
function testContext(...args: Parameters<typeof newContext>): TestContext {
  const test = newContext(...args);
  contexts.push(test);
  return test;
}

const request = (overrides: Partial<DmsStoreRequest> = {}): DmsStoreRequest => ({
  folder: ["Smith v Jones", "2026"],
  name: "Order granting motion",
  extension: "pdf",
  bytes: Buffer.from("%PDF-1.7 order"),
  contentType: "application/pdf",
  properties: { case_number: "1:26-cv-00042", court: "S.D.N.Y." },
  ...overrides,
});

async function rejection(promise: Promise<unknown>): Promise<DmsTargetError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DmsTargetError);
  return error as DmsTargetError;
}

describe("signing in", () => {
  it("gets a token with the refresh token, keeps it in the token store and reuses it", async () => {
    const test = testContext(server);
    const target = createDropboxTarget(test.settings, test.ctx);
    await intendAndWrite(target, request(), "filing-1");
    expect(test.written).toHaveLength(1);
    expect(test.written[0]).toMatchObject({ refreshToken: test.settings.refresh_token, expiresAt: test.clock.now + 4 * 3600 * 1000 });
    await createDropboxTarget(test.settings, test.ctx).intend(request(), "filing-2");
    expect(server.tokenGrants()).toBe(1);
  });

  it("renews the token a minute before it expires and writes the new one back", async () => {
    const test = testContext(server);
    const target = createDropboxTarget(test.settings, test.ctx);
    await target.intend(request(), "filing-1");
    const first = test.stored();
    test.clock.now = first!.expiresAt - 59_000;
    await target.intend(request(), "filing-1");
    expect(server.tokenGrants()).toBe(2);
    expect(test.stored()!.accessToken).not.toBe(first!.accessToken);
    expect(test.stored()!.expiresAt).toBe(test.clock.now + 4 * 3600 * 1000);
  });

  it("asks for a new token once when Dropbox says the kept one expired", async () => {
    const test = testContext(server);
    const target = createDropboxTarget(test.settings, test.ctx);
    await target.intend(request(), "filing-1");
    server.expireTokens();
    await expect(target.intend(request(), "filing-1")).resolves.toMatchObject({ idempotencyKey: "filing-1" });
    expect(server.tokenGrants()).toBe(2);
  });

  it("says 'Token generation failed' with Dropbox's reason when the secret is refused, and forgets the token", async () => {
    const test = testContext(server, { app_secret: "wrong" });
    await test.ctx.tokens.write({ accessToken: "old", refreshToken: "another", expiresAt: 0 });
    const error = await rejection(createDropboxTarget(test.settings, test.ctx).intend(request(), "filing-1"));
    expect(error.message).toBe("Token generation failed: Invalid client_id or client_secret");
    expect(error.retryable).toBe(false);
    expect(error.kind).toBe(DROPBOX_KIND);
    expect(test.stored()).toBeNull();
  });
});

describe("filing", () => {
  it("creates the folders, waits the sync delay once, and stores the document with its properties and a link", async () => {
    const test = testContext(server, { folder_creation_sync_delay: 250 });
    const target = createDropboxTarget(test.settings, test.ctx);
    const intended = await target.intend(request(), "filing-1");
    expect(intended.location).toBe("/ECFX/Smith v Jones/2026/Order granting motion.pdf");
    expect(server.folders()).toEqual([]);
    const result = (await target.write(request(), intended)) as DropboxStoreResult;
    expect(test.sleeps).toEqual([250]);
    expect(server.folders()).toContainEqual(["Smith v Jones", "2026"]);
    const [document] = server.documents();
    expect(document).toMatchObject({ folder: ["Smith v Jones", "2026"], name: "Order granting motion.pdf", bytes: request().bytes });
    expect(document?.properties).toMatchObject({ case_number: "1:26-cv-00042", court: "S.D.N.Y.", ecfx_idempotency_key: "filing-1" });
    expect(result).toEqual({ location: intended.location, link: document?.link });

    await intendAndWrite(target, request({ name: "Notice", properties: { judge: "Hon. A. Smith" } }), "filing-2");
    expect(test.sleeps).toEqual([250]);
    expect(server.documents().find((held) => held.name === "Notice.pdf")?.properties).toMatchObject({ judge: "Hon. A. Smith" });
  });

  it("files into the team space (the account's root namespace) when the account is a team member's", async () => {
    await server.close();
    server = await startDropboxServer({ teamSpace: true });
    const test = testContext(server);
    const target = createDropboxTarget(test.settings, test.ctx);
    await intendAndWrite(target, request(), "team-1");
    // The local Dropbox shows the team space: without Dropbox-API-Path-Root the document would sit in the member's home folder.
    expect(server.documents()).toEqual([expect.objectContaining({ folder: ["Smith v Jones", "2026"], name: "Order granting motion.pdf" })]);
    await intendAndWrite(target, request(), "team-2");
    expect(server.documents().map((held) => held.name)).toEqual(["Order granting motion.pdf", "Order granting motion (2).pdf"]);
  });

  it("picks the next free name when another document has the name, in any case", async () => {
    server.putFile("/ECFX/Smith v Jones/2026/ORDER GRANTING MOTION.PDF", Buffer.from("someone else's"));
    const test = testContext(server);
    const target = createDropboxTarget(test.settings, test.ctx);
    const result = await intendAndWrite(target, request(), "filing-1");
    expect(result.location).toBe("/ECFX/Smith v Jones/2026/Order granting motion (2).pdf");
    expect(
      server
        .documents()
        .find((held) => held.name === "ORDER GRANTING MOTION.PDF")
        ?.bytes.toString(),
    ).toBe("someone else's");
  });

  it("refuses to write over a document that took the intended name since", async () => {
    const test = testContext(server);
    const target = createDropboxTarget(test.settings, test.ctx);
    const intended = await target.intend(request(), "filing-1");
    server.putFile(intended.location, Buffer.from("arrived first"));
    const error = await rejection(target.write(request(), intended));
    expect(error).toBeInstanceOf(DmsLocationTaken);
    expect(server.documents().map((held) => held.bytes.toString())).toEqual(["arrived first"]);
  });

  it("lets a retry adopt the copy its earlier attempt stored, and only that one", async () => {
    const test = testContext(server);
    const target = createDropboxTarget(test.settings, test.ctx);
    const intended = await target.intend(request(), "filing-1");
    await expect(target.findExisting(intended)).resolves.toBeNull();
    const written = await target.write(request(), intended);

    const retry = createDropboxTarget(test.settings, test.ctx);
    await expect(retry.findExisting(intended)).resolves.toEqual(written);
    await expect(retry.findExisting({ ...intended, idempotencyKey: "filing-2" })).resolves.toBeNull();
    await expect(retry.findExisting({ ...intended, contentHash: "0".repeat(64) })).resolves.toBeNull();
    expect(server.documents()).toHaveLength(1);
  });

  it("files without a link, and says why, when Dropbox will not share the document", async () => {
    server.failNext(403, { path: /create_shared_link/ });
    const test = testContext(server);
    const result = (await intendAndWrite(createDropboxTarget(test.settings, test.ctx), request(), "filing-1")) as DropboxStoreResult;
    expect(result.link).toBeUndefined();
    expect(result.linkRefused).toContain("no_permission");
    expect(server.documents()).toHaveLength(1);
  });

  it("uses the link a document already has", async () => {
    const test = testContext(server);
    const target = createDropboxTarget(test.settings, test.ctx);
    const intended = await target.intend(request(), "filing-1");
    const first = await target.write(request(), intended);
    expect((await target.findExisting(intended))?.link).toBe(first.link);
    expect(server.requests()).toContain("POST /2/sharing/list_shared_links");
  });
});

describe("large documents", () => {
  const large = () => request({ bytes: Buffer.alloc(SESSION_THRESHOLD + 1024 * 1024, 1) });

  it("go through an upload session whose commit is the only write; a failed commit leaves nothing", async () => {
    const test = testContext(server);
    const target = createDropboxTarget(test.settings, test.ctx);
    const intended = await target.intend(large(), "filing-1");
    server.failNext(500, { path: /upload_session\/finish/ });
    const error = await rejection(target.write(large(), intended));
    expect(error.retryable).toBe(true);
    expect(server.documents()).toEqual([]);

    await target.write(large(), intended);
    expect(server.documents()[0]?.bytes.equals(large().bytes)).toBe(true);
    expect(server.requests().filter((line) => line.includes("upload_session"))).toEqual([
      "POST /2/files/upload_session/start",
      "POST /2/files/upload_session/append_v2",
      "POST /2/files/upload_session/finish",
      "POST /2/files/upload_session/start",
      "POST /2/files/upload_session/append_v2",
      "POST /2/files/upload_session/finish",
    ]);
  });
});

describe("failures", () => {
  it("passes on Dropbox's Retry-After when throttled", async () => {
    const test = testContext(server);
    const target = createDropboxTarget(test.settings, test.ctx);
    const intended = await target.intend(request(), "filing-1");
    server.failNext(429, { path: /files\/upload$/, retryAfterSeconds: 7 });
    const error = await rejection(target.write(request(), intended));
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 7000 });
    expect(error.message).toContain("too_many_requests");
  });

  it("counts a server error as worth another try", async () => {
    const test = testContext(server);
    server.failNext(503, { path: /get_metadata/ });
    const error = await rejection(createDropboxTarget(test.settings, test.ctx).intend(request(), "filing-1"));
    expect(error.retryable).toBe(true);
  });

  it("counts a refusal as final and repeats Dropbox's reason", async () => {
    const test = testContext(server);
    const target = createDropboxTarget(test.settings, test.ctx);
    const intended = await target.intend(request(), "filing-1");
    server.failNext(403, { path: /files\/upload$/ });
    const error = await rejection(target.write(request(), intended));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(`Dropbox refused the upload of ${intended.location}: no_permission/..`);
  });

  it("fails clearly, not with a wrong filing, when Dropbox answers in another shape than its specification", async () => {
    // A token, then an account without root_info: the client must not guess the namespace.
    const offShape: http.RequestListener = (incoming, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      if (incoming.url?.startsWith("/oauth2/token")) return response.end('{"access_token":"sl.token","expires_in":14400,"token_type":"bearer"}');
      response.end('{"account_id":"dbid:1","name":{"display_name":"Franz"},"email":"f@example.com"}');
    };
    await withRawServer(offShape, async (origin) => {
      const test = await contextFor(origin);
      const error = await rejection(createDropboxTarget(test.settings, test.ctx).intend(request(), "filing-1"));
      expect(error).toMatchObject({
        retryable: false,
        message: "Dropbox answered reading the account's root in an unexpected shape: root_info: Required",
      });
    });
  });

  it("counts a call Dropbox does not answer in time as worth another try", async () => {
    await withRawServer(
      () => undefined,
      async (origin) => {
        const test = await contextFor(origin, { timeoutMs: 200 });
        const error = await rejection(createDropboxTarget(test.settings, test.ctx).intend(request(), "filing-1"));
        expect(error.retryable).toBe(true);
        expect(error.message).toContain("did not answer");
      },
    );
  });

  it("refuses an absurdly large answer unread, and a busy token endpoint is worth another try", async () => {
    const huge: http.RequestListener = (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(`{"access_token":"${"x".repeat(3 * 1024 * 1024)}"}`);
    };
    await withRawServer(huge, async (origin) => {
      const test = await contextFor(origin);
      const error = await rejection(createDropboxTarget(test.settings, test.ctx).intend(request(), "filing-1"));
      expect(error).toMatchObject({ retryable: false, message: "Dropbox sent an answer larger than 2097152 bytes" });
    });
    server.failNext(503, { path: /oauth2\/token/, retryAfterSeconds: 4 });
    const test = testContext(server);
    const busy = await rejection(createDropboxTarget(test.settings, test.ctx).intend(request(), "filing-1"));
    expect(busy).toMatchObject({ retryable: true, retryAfterMs: 4000, message: "Token generation failed: Internal Server Error" });
  });

  it("reaches nothing but the base URL the guard allows", async () => {
    const test = testContext(server, {}, { baseUrl: "http://127.0.0.2:9" });
    const error = await rejection(createDropboxTarget(test.settings, test.ctx).intend(request(), "filing-1"));
    expect(error.retryable).toBe(false);
    expect(server.requests()).toEqual([]);
  });
});

describe("connection test", () => {
  it("signs in and lists the root folder without writing", async () => {
    const test = testContext(server);
    const target = createDropboxTarget(test.settings, test.ctx);
    expect(await target.testConnection()).toEqual({
      ok: true,
      steps: [
        { step: "Sign in", ok: true, detail: "Signed in as Franz Ferdinand (Personal) (franz@example.com)" },
        { step: "List the root folder", ok: true, detail: "/ECFX does not exist yet: it is created with the first document" },
      ],
    });
    expect(server.requests().filter((line) => /upload|create|add_for_user/.test(line))).toEqual([]);
    await intendAndWrite(target, request({ folder: [] }), "filing-1");
    expect((await target.testConnection()).steps[1]?.detail).toBe("Listed 1 items in /ECFX");
  });

  it("reports the step that failed with Dropbox's reason", async () => {
    const refused = testContext(server, { app_secret: "wrong" });
    expect(await createDropboxTarget(refused.settings, refused.ctx).testConnection()).toEqual({
      ok: false,
      steps: [{ step: "Sign in", ok: false, detail: "Token generation failed: Invalid client_id or client_secret" }],
    });
    const test = testContext(server);
    server.failNext(403, { path: /list_folder/ });
    const report = await createDropboxTarget(test.settings, test.ctx).testConnection();
    expect(report.ok).toBe(false);
    expect(report.steps[1]).toEqual({ step: "List the root folder", ok: false, detail: "Dropbox refused listing /ECFX: no_permission/.." });
  });
});
