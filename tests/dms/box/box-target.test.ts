import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DmsLocationTaken, DmsTargetError, type DmsStoreRequest, intendAndWrite } from "../../../server/dms/dms-target";
import { BOX_KIND, createBoxTarget } from "../../../server/dms/box/box-target";
import { MAX_BOX_ANSWER_BYTES } from "../../../server/dms/box/box-session";
import { CHUNKED_UPLOAD_BYTES, temporaryTag } from "../../../server/dms/box/box-upload";
import { OutboundGuard } from "../../../server/outbound/guard";
import { BOX_APP_USER_ID, type BoxTestServer, startBoxServer } from "./box-server";
import { type TestContext, boxSettings, testContext } from "./box-context";

let server: BoxTestServer;
const contexts: TestContext[] = [];

beforeAll(async () => {
  server = await startBoxServer();
});
afterEach(() => {
  expect(server.contractViolations()).toEqual([]);
});
afterAll(async () => {
  await Promise.all(contexts.map((ctx) => ctx.close()));
  await server.close();
});

function target(overrides: Parameters<typeof boxSettings>[1] = {}, ctxOverrides: Parameters<typeof testContext>[1] = {}) {
  const ctx = testContext(server, ctxOverrides);
  contexts.push(ctx);
  return { ctx, box: createBoxTarget(boxSettings(server, overrides), ctx) };
}

let unique = 0;
function request(overrides: Partial<DmsStoreRequest> = {}): DmsStoreRequest {
  unique++;
  return {
    folder: [`Matter ${unique}`, "Notices"],
    name: "Order granting motion",
    extension: "pdf",
    bytes: Buffer.from(`%PDF-1.7 notice ${unique}`),
    contentType: "application/pdf",
    properties: { "Case Number": "1:26-cv-00042", Court: "D. Del." },
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<DmsTargetError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DmsTargetError);
  return error as DmsTargetError;
}

describe("Box target", () => {
  it("files a document into new folders, waits the sync delay once, and hands back its id and web link", async () => {
    const { ctx, box } = target({ folder_creation_sync_delay: 1500 });
    const filing = request();
    const intended = await box.intend(filing, "filing-1");
    expect(intended.location).toBe(`/${filing.folder.join("/")}/Order granting motion.pdf`);
    expect(intended.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(ctx.slept).toEqual([]);

    const stored = await box.write(filing, intended);
    expect(ctx.slept).toEqual([1500]);
    expect(stored.link).toBe(`https://app.box.com/file/${stored.location}`);
    const held = server.documents().find((doc) => doc.link === stored.link);
    expect(held).toMatchObject({ folder: filing.folder, name: "Order granting motion.pdf", properties: { Case_Number: "1:26-cv-00042", Court: "D. Del." } });
    expect(held?.bytes.equals(filing.bytes)).toBe(true);
    expect(server.folders()).toContainEqual(filing.folder);

    // The folders exist now: the next document waits for nothing.
    await intendAndWrite(box, { ...filing, name: "Second" }, "filing-2");
    expect(ctx.slept).toEqual([1500]);
  });

  it("signs in once, keeps the token in the store and renews it a minute before it expires", async () => {
    const { ctx, box } = target();
    const grants = server.tokenGrants();
    await box.intend(request(), "k");
    await box.intend(request(), "k");
    expect(server.tokenGrants()).toBe(grants + 1);
    expect(ctx.tokens.writes).toBe(1);
    const first = ctx.tokens.token!;
    expect(first.expiresAt).toBeGreaterThan(ctx.now() + 3_000_000);

    ctx.advance(first.expiresAt - ctx.now() - 30_000);
    await box.intend(request(), "k");
    expect(server.tokenGrants()).toBe(grants + 2);
    expect(ctx.tokens.token!.accessToken).not.toBe(first.accessToken);
  });

  it("asks for a new token once when Box no longer takes the kept one", async () => {
    const { ctx, box } = target();
    await box.intend(request(), "k");
    const kept = ctx.tokens.token!.accessToken;
    server.revokeTokens();
    await box.intend(request(), "k");
    expect(ctx.tokens.token!.accessToken).not.toBe(kept);
  });

  it("sends the whole document again after a new token when Box refused the upload's token", async () => {
    const { box } = target();
    const filing = request();
    const grants = server.tokenGrants();
    server.failNext(401, { path: /^\/api\/2\.0\/files\/content$/ });
    const stored = await intendAndWrite(box, filing, "k");
    expect(server.tokenGrants()).toBe(grants + 2);
    expect(
      server
        .documents()
        .find((doc) => doc.link === stored.link)
        ?.bytes.equals(filing.bytes),
    ).toBe(true);
  });

  it("gives up with a permanent error when Box refuses the new token too", async () => {
    const { box } = target();
    const grants = server.tokenGrants();
    server.failNext(401, { count: 2, path: /\/folders\/0\/items$/ });
    const error = await failure(box.intend(request(), "k"));
    expect(error.retryable).toBe(false);
    expect(server.tokenGrants()).toBe(grants + 2);
  });

  it("says 'Token generation failed' with Box's reason when the secret is refused", async () => {
    const { box } = target({ client_secret: "wrong" });
    const error = await failure(box.intend(request(), "k"));
    expect(error.message).toBe("Token generation failed: The client credentials are invalid");
    expect(error.retryable).toBe(false);
    expect(error.kind).toBe(BOX_KIND);
  });

  it("picks the next free name when the name is taken, and never overwrites", async () => {
    const { box } = target();
    const filing = request();
    server.seed(filing.folder, "order granting MOTION.pdf", Buffer.from("someone else's"));
    const intended = await box.intend(filing, "k");
    expect(intended.location.endsWith("/Order granting motion (2).pdf")).toBe(true);
    await box.write(filing, intended);
    const names = server
      .documents()
      .filter((doc) => doc.folder.join("/") === filing.folder.join("/"))
      .map((doc) => doc.name);
    expect(names.sort()).toEqual(["Order granting motion (2).pdf", "order granting MOTION.pdf"]);
  });

  it("throws DmsLocationTaken when another document takes the intended name before the write", async () => {
    const { box } = target();
    const filing = request();
    const intended = await box.intend(filing, "k");
    server.seed(filing.folder, "Order granting motion.pdf", Buffer.from("raced"));
    const error = await failure(box.write(filing, intended));
    expect(error).toBeInstanceOf(DmsLocationTaken);
    expect(server.documents().filter((doc) => doc.folder.join("/") === filing.folder.join("/"))).toHaveLength(1);

    const stored = await intendAndWrite(box, filing, "k");
    expect(server.documents().find((doc) => doc.link === stored.link)?.name).toBe("Order granting motion (2).pdf");
  });

  it("lets a retry adopt the copy its earlier attempt stored, and only that one", async () => {
    const { box } = target();
    const filing = request();
    const intended = await box.intend(filing, "filing-77");
    expect(await box.findExisting(intended)).toBeNull();
    const stored = await box.write(filing, intended);

    expect(await box.findExisting(intended)).toEqual(stored);
    expect(await box.findExisting({ ...intended, idempotencyKey: "filing-78" })).toBeNull();
    expect(await box.findExisting({ ...intended, contentHash: "0".repeat(64) })).toBeNull();
    expect(await box.findExisting({ ...intended, location: "/Nowhere/Order granting motion.pdf" })).toBeNull();
  });

  it("does not adopt a temporary upload a crash left behind, and the next write removes it", async () => {
    const { box } = target();
    const filing = request();
    const intended = await box.intend(filing, "filing-crashed");
    const leftover = `.ecfx-${temporaryTag("filing-crashed")}-0a0b0c.upload`;
    server.seed(filing.folder, leftover, filing.bytes, { ecfxFilingKey: "filing-crashed", ecfxContentSha256: intended.contentHash });
    expect(await box.findExisting(intended)).toBeNull();

    const stored = await box.write(filing, intended);
    const names = server
      .documents()
      .filter((doc) => doc.folder.join("/") === filing.folder.join("/"))
      .map((doc) => doc.name);
    expect(names).toEqual(["Order granting motion.pdf"]);
    expect(await box.findExisting(intended)).toEqual(stored);
  });

  it("refuses, permanently, to file below a folder name a file already has", async () => {
    const { box } = target();
    const filing = request();
    server.seed(filing.folder.slice(0, 1), filing.folder[1]!, Buffer.from("a file, not a folder"));
    const error = await failure(intendAndWrite(box, filing, "k"));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(`Box refused to create folder /${filing.folder.join("/")}: a file of that name is in the way`);
  });

  it("answers 429 as retryable with Box's Retry-After", async () => {
    const { box } = target();
    server.failNext(429, { retryAfterSeconds: 7, path: /\/folders\/0\/items$/ });
    const error = await failure(box.intend(request(), "k"));
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(7000);
  });

  it("answers 5xx as retryable and 403 as permanent with Box's reason", async () => {
    const { box } = target();
    server.failNext(503, { path: /\/files\/content$/ });
    const busy = await failure(box.write(request(), await box.intend(request(), "k")));
    expect(busy.retryable).toBe(true);

    server.failNext(403, { path: /\/files\/content$/ });
    const refused = await failure(intendAndWrite(box, request(), "k"));
    expect(refused.retryable).toBe(false);
    expect(refused.message).toMatch(/^Box refused the upload: Box failed with 403$/);
  });

  it("leaves nothing behind when the upload fails after the bytes went up", async () => {
    const { box } = target();
    const filing = request();
    const before = server.documents().length;
    server.failNext(500, { path: /^\/2\.0\/files\/\d+$/ });
    const error = await failure(intendAndWrite(box, filing, "k"));
    expect(error.retryable).toBe(true);
    expect(server.documents()).toHaveLength(before);
  });

  it("refuses a base URL the guard does not allow, without a retry", async () => {
    const { box } = target({}, { baseUrl: "http://127.0.0.1:9" });
    const error = await failure(box.intend(request(), "k"));
    expect(error.retryable).toBe(false);
    expect(server.requests().some((line) => line.includes(":9"))).toBe(false);
  });

  it("tests the connection: signs in and lists All Files, writing nothing", async () => {
    const { box } = target();
    const before = server.documents().length;
    const report = await box.testConnection();
    expect(report.ok).toBe(true);
    expect(report.steps[0]).toMatchObject({ ok: true, detail: "Signed in as ECFX Filing (AutomationUser_818181_x1@boxdevedition.com)" });
    expect(report.steps[1]?.detail).toMatch(/^Listed \d+ items? in All Files$/);
    expect(server.documents()).toHaveLength(before);

    const failing = await target({ client_secret: "wrong" }).box.testConnection();
    expect(failing.ok).toBe(false);
    expect(failing.steps).toEqual([{ step: "Sign in", ok: false, detail: "Token generation failed: The client credentials are invalid" }]);
  });
});

const large = (fill: number): DmsStoreRequest => ({
  folder: ["Large", String(fill)],
  name: "Exhibit bundle",
  extension: "pdf",
  bytes: Buffer.alloc(CHUNKED_UPLOAD_BYTES + 123_457, fill),
  contentType: "application/pdf",
  properties: { Exhibit: "A" },
});

/** The error the client meets signing in at a server that answers as `handle` does (or not at all). */
async function againstRawServer(handle: http.RequestListener, ctx: { timeoutMs?: number } = {}): Promise<DmsTargetError> {
  const raw = http.createServer(handle);
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
  const guard = new OutboundGuard({ allowedOrigins: [origin] });
  try {
    return await failure(target({}, { baseUrl: origin, guard, ...ctx }).box.intend(large(2), "k"));
  } finally {
    raw.closeAllConnections();
    raw.close();
    await guard.close();
  }
}

describe("Box target, large files and edges", () => {
  it("uploads a large file in parts and commits it whole", async () => {
    const { box } = target();
    const filing = large(7);
    const stored = await intendAndWrite(box, filing, "large-1");
    const held = server.documents().find((doc) => doc.link === stored.link);
    expect(held?.name).toBe("Exhibit bundle.pdf");
    expect(held?.bytes.equals(filing.bytes)).toBe(true);
    expect(held?.properties).toEqual({ Exhibit: "A" });
    expect(server.requests().filter((line) => /^PUT \/api\/2\.0\/files\/upload_sessions\/\w+$/.test(line))).toHaveLength(3);
    expect(server.openUploadSessions()).toBe(0);
    expect(server.contractViolations()).toEqual([]);
  });

  it("waits as long as Box's Retry-After asks while it assembles the parts, and commits the same session again", async () => {
    const { box, ctx } = target();
    server.assembleSlowly(2, 7);
    const filing = large(11);
    const before = server.requests().length;
    const stored = await intendAndWrite(box, filing, "large-3");
    expect(
      server
        .documents()
        .find((doc) => doc.link === stored.link)
        ?.bytes.equals(filing.bytes),
    ).toBe(true);
    const lines = server.requests().slice(before);
    expect(lines.filter((line) => /^POST \/api\/2\.0\/files\/upload_sessions$/.test(line))).toHaveLength(1);
    expect(lines.filter((line) => /^POST \/api\/2\.0\/files\/upload_sessions\/\w+\/commit$/.test(line))).toHaveLength(3);
    expect(lines.some((line) => /^DELETE \/api\/2\.0\/files\/upload_sessions\/\w+$/.test(line))).toBe(false);
    // The folder sync delay (0 here), then Box's two waits.
    expect(ctx.slept).toEqual([0, 7000, 7000]);
    expect(server.openUploadSessions()).toBe(0);
    expect(server.contractViolations()).toEqual([]);
  });

  it("aborts the upload session when a part fails, leaving no document and no open session", async () => {
    const { box } = target();
    const before = server.documents().length;
    server.failNext(500, { path: /^\/api\/2\.0\/files\/upload_sessions\/\w+$/ });
    const error = await failure(intendAndWrite(box, large(9), "large-2"));
    expect(error.retryable).toBe(true);
    expect(server.documents()).toHaveLength(before);
    expect(server.openUploadSessions()).toBe(0);
    expect(server.requests().some((line) => /^DELETE \/api\/2\.0\/files\/upload_sessions\/\w+$/.test(line))).toBe(true);
    expect(server.contractViolations()).toEqual([]);
  });

  it("signs in as a user when the subject is a user", async () => {
    const report = await target({ box_subject_type: "user", box_subject_id: BOX_APP_USER_ID }).box.testConnection();
    expect(report.steps[0]?.detail).toBe("Signed in as Pat Records (pat.records@firm.example)");
  });

  it("reports the step that fails with Box's reason", async () => {
    server.failNext(403, { path: /^\/2\.0\/folders\/0\/items$/ });
    const report = await target().box.testConnection();
    expect(report.ok).toBe(false);
    expect(report.steps.map((step) => step.ok)).toEqual([true, false]);
    expect(report.steps[1]?.detail).toBe("Box refused to list the root folder: Box failed with 403");
  });

  it("lets a busy token endpoint pass as retryable", async () => {
    server.failNext(503, { path: /^\/oauth2\/token$/ });
    const error = await failure(target().box.intend(large(1), "k"));
    expect(error.retryable).toBe(true);
    expect(error.message).not.toMatch(/^Token generation failed/);
  });

  it("gives up on a Box that does not answer within the time-out, as retryable", async () => {
    const error = await againstRawServer(() => undefined, { timeoutMs: 200 });
    expect(error.retryable).toBe(true);
    expect(error.message).toBe("Box did not answer within 1 s");
  });

  it("fails clearly, not with a wrong filing, when a folder listing lacks a field Box's description requires", async () => {
    // A token, then the root's listing with a folder whose name is missing.
    const error = await againstRawServer((request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      if (request.url?.startsWith("/oauth2/token")) return response.end('{"access_token":"T","expires_in":3600,"token_type":"bearer"}');
      response.end('{"entries":[{"type":"folder","id":"11"}],"next_marker":null}');
    });
    expect(error).toMatchObject({ retryable: false, message: "Box answered listing folder 0 in an unexpected shape: entries.0.name: Required" });
  });

  it("refuses an answer larger than any Box answer, unread", async () => {
    const error = await againstRawServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": String(MAX_BOX_ANSWER_BYTES + 1) });
      response.write("{");
    });
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(`Box sent an answer larger than ${MAX_BOX_ANSWER_BYTES} bytes`);
  });

  it("answers a request Box's description does not allow with 400 and records it", async () => {
    const strict = await startBoxServer();
    try {
      const response = await fetch(`${strict.origin}/2.0/folders`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer none" },
        body: JSON.stringify({ name: 3 }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ type: "error", status: 400, code: "bad_request" });
      expect(strict.contractViolations()).toHaveLength(1);
      expect(strict.contractViolations()[0]).toMatch(/^POST \/2\.0\/folders: post_folders: /);
    } finally {
      await strict.close();
    }
  });
});
