import { generateKeyPairSync } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DmsTargetError, type DmsStoreRequest, type FilingSubject, intendAndWrite } from "../../../server/dms/dms-target";
import { LITIFY_KIND, type LitifySettings, createLitifyTarget } from "../../../server/dms/litify/litify-target";
import { type TestContext, testContext } from "../sharepoint/vendor-context";
import { LITIFY_USERNAME, type LitifyTestServer, MATTER_COLUMN, startLitifyServer } from "./litify-server";

let server: LitifyTestServer;
let matterId: string;
let referenceMatterId: string;

beforeAll(async () => {
  server = await startLitifyServer();
  matterId = server.addMatter({ Name: "Peña v. Bluebonnet", [MATTER_COLUMN]: "M-501" });
  referenceMatterId = server.addMatter({ Name: "Okafor Estate", [MATTER_COLUMN]: "REF-77" });
  server.addMatter({ Name: "O'Brien \\ Sons", [MATTER_COLUMN]: "M-'7' \\ x" });
  server.addMatter({ Name: "Twin one", [MATTER_COLUMN]: "M-900" });
  server.addMatter({ Name: "Twin two", [MATTER_COLUMN]: "M-900" });
});
afterEach(() => {
  expect(server.contractViolations()).toEqual([]);
});
afterAll(async () => {
  await server.close();
});

const settings = (overrides: Partial<LitifySettings> = {}): LitifySettings => ({
  ...(server.credentialSettings() as Omit<LitifySettings, "folder_creation_sync_delay">),
  folder_creation_sync_delay: 0,
  ...overrides,
});

function target(overrides: Partial<LitifySettings> = {}, options: { ctx?: TestContext; jsonLimitBytes?: number } = {}) {
  const ctx = options.ctx ?? testContext(server.origin);
  return { ctx, litify: createLitifyTarget(settings(overrides), ctx, { jsonLimitBytes: options.jsonLimitBytes }) };
}

const subject = (number: string, reference: string | null = null): FilingSubject => ({
  matter: { number, name: `Matter ${number}`, reference },
  case: { number: "2:24-cv-00501", name: "Peña Industries v. Bluebonnet" },
  docketText: "ORDER granting motion",
  filedOn: "2026-11-25",
  timeZone: "America/Chicago",
});

let unique = 0;
function request(overrides: Partial<DmsStoreRequest> = {}): DmsStoreRequest {
  unique++;
  return {
    folder: ["2_24-cv-00501", "Orders"],
    name: `${unique} Order granting motion`,
    extension: "pdf",
    bytes: Buffer.from(`%PDF-1.7 order ${unique}`),
    contentType: "application/pdf",
    properties: { Court: "E.D. Tex.", Matter: "M-501" },
    subject: subject("M-501"),
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

const versionsNow = () => server.versions().length;

describe("Litify target", () => {
  it("signs in with the username-password flow and files the document on the matter, with its link", async () => {
    const { ctx, litify } = target();
    const filing = request();
    const grantsBefore = server.tokenGrants().length;
    const intended = await litify.intend(filing, "record-1");
    expect(intended.location).toBe(`${matterId}/${filing.name}.pdf`);
    expect(await litify.findExisting(intended)).toBeNull();
    const stored = await litify.write(filing, intended);

    const version = server.versions().at(-1)!;
    expect(version).toMatchObject({
      FirstPublishLocationId: matterId,
      Title: `2_24-cv-00501 / Orders / ${filing.name}`,
      PathOnClient: `${filing.name}.pdf`,
      Description: "Court: E.D. Tex.\nMatter: M-501",
      multipart: false,
    });
    expect(version.ReasonForChange).toBe(`ECFX filing record-1 sha256:${intended.contentHash}`);
    expect(version.bytes.equals(filing.bytes)).toBe(true);
    expect(stored).toEqual({
      location: version.ContentDocumentId,
      link: `${server.origin}/lightning/r/ContentDocument/${version.ContentDocumentId}/view`,
    });
    expect(
      server
        .tokenGrants()
        .slice(grantsBefore)
        .map((g) => g.grant),
    ).toEqual(["password"]);
    expect(ctx.stored).toMatchObject({ extra: { instanceUrl: server.origin } });
    expect(ctx.stored!.expiresAt).toBe(ctx.now() + 15 * 60_000);
  });

  it("makes every request, jsforce's included, through the outbound guard", async () => {
    const ctx = testContext(server.origin);
    const guarded: string[] = [];
    const fetch = ctx.guard.fetch.bind(ctx.guard);
    ctx.guard.fetch = async (url, purpose, init) => {
      guarded.push(`${init?.method ?? "GET"} ${url.pathname}`);
      return fetch(url, purpose, init);
    };
    const requestsBefore = server.requests().length;
    const litify = createLitifyTarget(settings(), ctx, { jsonLimitBytes: 8 });
    const filing = request();
    const intended = await litify.intend(filing, "record-guarded");
    await litify.findExisting(intended);
    await litify.write(filing, intended);
    await litify.testConnection();
    const seen = server.requests().slice(requestsBefore);
    expect(seen.map((line) => line.split(" ").slice(0, 2).join(" "))).toEqual(guarded);
    expect(guarded).toContain("POST /services/data/v62.0/sobjects/ContentVersion");
  });

  it("signs in with the client-credentials flow at the instance when the credential has no username", async () => {
    const { ctx, litify } = target({ username: "", password: "" });
    const grantsBefore = server.tokenGrants().length;
    await intendAndWrite(litify, request(), "record-cc");
    expect(
      server
        .tokenGrants()
        .slice(grantsBefore)
        .map((g) => g.grant),
    ).toEqual(["client_credentials"]);
    expect(ctx.writes).toHaveLength(1);
  });

  it("signs in with the JWT bearer flow when the consumer secret field holds the app's private key: no password, no secret sent", async () => {
    const { ctx, litify } = target({ client_secret: server.jwtPrivateKey, password: "" });
    const grantsBefore = server.tokenGrants().length;
    const result = await intendAndWrite(litify, request(), "record-jwt");
    expect(
      server
        .tokenGrants()
        .slice(grantsBefore)
        .map((g) => g.grant),
    ).toEqual(["urn:ietf:params:oauth:grant-type:jwt-bearer"]);
    expect(ctx.writes).toHaveLength(1);
    expect(server.documents().some((doc) => doc.link === result.link)).toBe(true);
    const report = await target({ client_secret: server.jwtPrivateKey, password: "" }).litify.testConnection();
    expect(report.steps[0]).toEqual({ step: "Sign in", ok: true, detail: `Signed in to ${new URL(server.origin).host} as ${LITIFY_USERNAME} (JWT bearer)` });
  });

  it("refuses a JWT bearer sign-in for another user or with another key, permanently and in Salesforce's words", async () => {
    const other = await failure(target({ client_secret: server.jwtPrivateKey, username: "someone@firm.example" }).litify.intend(request(), "record-jwt-2"));
    expect(other.retryable).toBe(false);
    expect(other.message).toBe("Token generation failed: invalid_grant: user hasn't approved this consumer");
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const wrongKey = await failure(
      target({ client_secret: privateKey.export({ type: "pkcs8", format: "pem" }).toString() }).litify.intend(request(), "record-jwt-3"),
    );
    expect(wrongKey.message).toBe("Token generation failed: invalid_grant: invalid assertion");
    const unreadable = await failure(
      target({ client_secret: "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----" }).litify.intend(request(), "record-jwt-4"),
    );
    expect(unreadable.message).toMatch(/^Token generation failed: the private key .* cannot be read/);
    const nobody = await failure(target({ client_secret: server.jwtPrivateKey, username: "" }).litify.intend(request(), "record-jwt-5"));
    expect(nobody.message).toMatch(/^Token generation failed: the JWT bearer sign-in needs the username/);
  });

  it("asks the login URL for a password sign-in and calls the API where Salesforce's answer says, never the typed instance", async () => {
    // The typed instance URL is no address the guard lets through: only the login URL and the token's instance are reached.
    const unreachable = "http://127.0.0.1:9";
    const ctx = testContext(server.origin);
    const litify = createLitifyTarget(settings({ instance_url: unreachable }), ctx);
    const stored = await intendAndWrite(litify, request(), "record-login-url");
    expect(stored.link).toBe(`${unreachable}/lightning/r/ContentDocument/${stored.location}/view`);
    expect(ctx.stored).toMatchObject({ extra: { instanceUrl: server.origin } });
  });

  it("asks the instance's own token endpoint for a client-credentials sign-in, never the login URL", async () => {
    const ctx = testContext("http://127.0.0.1:9", server.origin);
    const litify = createLitifyTarget(settings({ username: "", password: "" }), ctx);
    const grantsBefore = server.tokenGrants().length;
    await intendAndWrite(litify, request(), "record-instance-token");
    expect(
      server
        .tokenGrants()
        .slice(grantsBefore)
        .map((g) => g.grant),
    ).toEqual(["client_credentials"]);
  });

  it("keeps one session across filings and renews it before the org's shortest session time-out", async () => {
    const { ctx, litify } = target();
    await intendAndWrite(litify, request(), "record-keep-1");
    await intendAndWrite(litify, request(), "record-keep-2");
    expect(ctx.writes).toHaveLength(1);
    ctx.advance(14 * 60_000 + 1);
    await intendAndWrite(litify, request(), "record-keep-3");
    expect(ctx.writes).toHaveLength(2);
    expect(ctx.writes[1]!.accessToken).not.toBe(ctx.writes[0]!.accessToken);
  });

  it("signs in again once when Salesforce ends the session, and gives up when the new one is refused too", async () => {
    const { ctx, litify } = target();
    await litify.intend(request(), "record-expired");
    server.revokeTokens();
    const intended = await litify.intend(request(), "record-expired");
    expect(intended.location.startsWith(`${matterId}/`)).toBe(true);
    expect(ctx.writes).toHaveLength(2);

    server.failNext(401, { count: 2, path: /\/query$/ });
    const error = await failure(litify.intend(request(), "record-expired"));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/INVALID_SESSION_ID/);
    expect(ctx.writes).toHaveLength(3);
  });

  it("answers a refused sign-in with 'Token generation failed' and Salesforce's reason, permanently", async () => {
    const { litify } = target({ password: "wrong" });
    const error = await failure(litify.intend(request(), "record-refused"));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe("Token generation failed: invalid_grant: authentication failure");
    const secret = await failure(target({ client_secret: "wrong" }).litify.intend(request(), "record-refused"));
    expect(secret.message).toBe("Token generation failed: invalid_client: invalid client credentials");
    const noPassword = await failure(target({ password: "" }).litify.intend(request(), "record-refused"));
    expect(noPassword.message).toMatch(/^Token generation failed: .*no password/);
  });

  it("finds the matter by its number, then by its reference, with the values quoted as SOQL literals", async () => {
    const { litify } = target();
    const byReference = await litify.intend(request({ subject: subject("M-404", "REF-77") }), "record-ref");
    expect(byReference.location.startsWith(`${referenceMatterId}/`)).toBe(true);
    const requestsBefore = server.requests().length;
    const quoted = await litify.intend(request({ subject: subject("M-'7' \\ x") }), "record-quote");
    expect(quoted.location).toMatch(/^a0L5e/);
    expect(server.requests().slice(requestsBefore)).toContain(
      `GET /services/data/v62.0/query SELECT Id, Name FROM litify_pm__Matter__c WHERE ${MATTER_COLUMN} = 'M-\\'7\\' \\\\ x' LIMIT 2`,
    );
  });

  it("refuses, permanently, a filing whose matter Litify lacks, has twice, or that names none", async () => {
    const { litify } = target();
    const none = await failure(litify.intend(request({ subject: subject("M-404", "REF-404") }), "record-none"));
    expect(none.retryable).toBe(false);
    expect(none.message).toBe(`No Litify matter has ${MATTER_COLUMN} = "M-404" or "REF-404" (matter Matter M-404)`);
    const twice = await failure(litify.intend(request({ subject: subject("M-900") }), "record-twice"));
    expect(twice.retryable).toBe(false);
    expect(twice.message).toMatch(/More than one Litify matter has Matter_Number__c = "M-900"/);
    const without = await failure(litify.intend(request({ subject: { ...subject("x"), matter: null } }), "record-without"));
    expect(without.retryable).toBe(false);
    expect(without.message).toMatch(/no matter/);
  });

  it("never puts a matter column that is no field API name into SOQL", async () => {
    const { litify } = target({ matter_column_name: "Name = 'x' OR Name" });
    const requestsBefore = server.requests().length;
    const error = await failure(litify.intend(request(), "record-column"));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/is not a Salesforce field API name/);
    expect(
      server
        .requests()
        .slice(requestsBefore)
        .filter((r) => r.includes("/query")),
    ).toEqual([]);
  });

  it("sends a document above the JSON limit as a multipart insert, entity first, bytes whole", async () => {
    const { litify } = target({}, { jsonLimitBytes: 64 });
    const bytes = Buffer.concat([Buffer.from("%PDF-1.7 "), Buffer.alloc(4096, 7), Buffer.from("\r\n--not-a-boundary\r\n")]);
    const filing = request({ bytes, name: 'Exhibit "A"' });
    const stored = await intendAndWrite(litify, filing, "record-multipart");
    const version = server.versions().at(-1)!;
    expect(version.multipart).toBe(true);
    expect(version.bytes.equals(bytes)).toBe(true);
    expect(version.PathOnClient).toBe('Exhibit "A".pdf');
    expect(stored.location).toBe(version.ContentDocumentId);
  });

  it("adopts an earlier attempt's file by its key and content instead of filing it twice", async () => {
    const first = target();
    const filing = request();
    const intended = await first.litify.intend(filing, "record-twice-filed");
    const stored = await first.litify.write(filing, intended);
    const count = versionsNow();

    // Another process, after a crash between the insert and recording its answer.
    const again = target();
    expect(await again.litify.findExisting(intended)).toEqual(stored);
    expect(await again.litify.findExisting({ ...intended, contentHash: "0".repeat(64) })).toBeNull();
    expect(await again.litify.findExisting({ ...intended, idempotencyKey: "another-record" })).toBeNull();
    expect(versionsNow()).toBe(count);
  });

  it("tries throttling and Salesforce's own faults again, waiting as long as Retry-After says", async () => {
    const { litify } = target();
    const filing = request();
    const intended = await litify.intend(filing, "record-throttled");
    const count = versionsNow();

    server.failNext(429, { retryAfterSeconds: 30, path: /\/sobjects\/ContentVersion$/ });
    const throttled = await failure(litify.write(filing, intended));
    expect(throttled).toMatchObject({ retryable: true, retryAfterMs: 30_000 });
    expect(throttled.message).toMatch(/busy or unavailable \(429\)/);

    server.failNext(403, { code: "REQUEST_LIMIT_EXCEEDED", path: /\/sobjects\/ContentVersion$/ });
    expect(await failure(litify.write(filing, intended))).toMatchObject({ retryable: true });
    server.failNext(503, { path: /\/query$/ });
    expect(await failure(litify.findExisting(intended))).toMatchObject({ retryable: true });
    server.failNext(500, { path: /\/oauth2\/token$/ });
    const signIn = await failure(target().litify.intend(request(), "record-throttled"));
    expect(signIn.retryable).toBe(true);
    expect(versionsNow()).toBe(count);
  });

  it("fails a refusal with Salesforce's reason permanently", async () => {
    const { litify } = target();
    const filing = request();
    const intended = await litify.intend(filing, "record-refused-upload");
    server.failNext(403, { path: /\/sobjects\/ContentVersion$/ });
    const error = await failure(litify.write(filing, intended));
    expect(error.retryable).toBe(false);
    expect(error.kind).toBe(LITIFY_KIND);
    expect(error.message).toBe(`Salesforce refused the upload of ${filing.name}.pdf: INSUFFICIENT_ACCESS: Refused by the test: INSUFFICIENT_ACCESS`);
  });

  it("counts no answer within the time-out as worth another attempt", async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const ctx = { ...testContext(origin), timeoutMs: 300 };
      const litify = createLitifyTarget(settings({ instance_url: origin, username: "" }), ctx);
      const error = await failure(litify.intend(request(), "record-silent"));
      expect(error.retryable).toBe(true);
      expect(error.message).toMatch(/did not answer within/);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("counts a token answer without a token as a failed sign-in", async () => {
    const page = http.createServer((_, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html>Sign in to the proxy</html>");
    });
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    try {
      const litify = createLitifyTarget(settings({ instance_url: origin, username: "" }), testContext(origin));
      const error = await failure(litify.intend(request(), "record-html"));
      expect(error).toMatchObject({ retryable: false, message: "Token generation failed: Salesforce answered without a token or instance URL" });
    } finally {
      page.closeAllConnections();
      await new Promise<void>((resolve) => page.close(() => resolve()));
    }
  });

  it("reaches no host but Salesforce's and the credential's own", async () => {
    const requestsBefore = server.requests().length;
    const litify = createLitifyTarget(settings({ instance_url: "http://10.1.2.3", username: "" }), testContext(server.origin));
    const error = await failure(litify.intend(request(), "record-guard"));
    expect(error.retryable).toBe(false);
    expect(server.requests().length).toBe(requestsBefore);
  });

  it("tests the connection by signing in and reading matters, never writing", async () => {
    const count = versionsNow();
    const requestsBefore = server.requests().length;
    const report = await target().litify.testConnection();
    expect(report.ok).toBe(true);
    expect(report.steps).toEqual([
      { step: "Sign in", ok: true, detail: `Signed in to ${new URL(server.origin).host} as ${LITIFY_USERNAME} (username and password)` },
      { step: "Find matters", ok: true, detail: `Read matters by ${MATTER_COLUMN}, e.g. M-501 (Peña v. Bluebonnet)` },
    ]);
    expect(
      server
        .requests()
        .slice(requestsBefore)
        .filter((r) => !r.startsWith("GET ") && !r.includes("/oauth2/token")),
    ).toEqual([]);

    const wrongColumn = await target({ matter_column_name: "Matter_No__c" }).litify.testConnection();
    expect(wrongColumn.ok).toBe(false);
    expect(wrongColumn.steps[1]).toMatchObject({ step: "Find matters", ok: false });
    expect(wrongColumn.steps[1]!.detail).toMatch(/INVALID_FIELD: No such column 'Matter_No__c'/);

    const refused = await target({ password: "wrong" }).litify.testConnection();
    expect(refused).toEqual({ ok: false, steps: [{ step: "Sign in", ok: false, detail: "Token generation failed: invalid_grant: authentication failure" }] });
    expect(versionsNow()).toBe(count);
  });
});
