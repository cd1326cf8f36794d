import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DmsLocationTaken, DmsTargetError, type DmsStoreRequest, intendAndWrite } from "../../../server/dms/dms-target";
import { NO_PUBLIC_API, type ProLawSettings, createProLawTarget } from "../../../server/dms/prolaw/prolaw-target";
import { externalReference } from "../../../server/dms/prolaw/prolaw-profile";
import { errorOf } from "../sharepoint/filings";
import { type TestContext, testContext } from "../sharepoint/vendor-context";
import { FILING_MATTER, MASTER_MATTER, PROLAW_API_KEY, type ProLawTestServer, startProLawServer } from "./prolaw-server";

let server: ProLawTestServer;
const contexts: TestContext[] = [];

beforeAll(async () => {
  server = await startProLawServer();
});
afterAll(async () => {
  await Promise.all(contexts.map((ctx) => ctx.guard.close()));
  await server.close();
});
afterEach(() => {
  expect(server.contractViolations()).toEqual([]);
});

let counter = 0;
/** A filing on the matter M-501 in a case folder of its own, so tests never meet. */
const filing = (overrides: Partial<DmsStoreRequest> = {}): DmsStoreRequest => {
  counter++;
  return {
    folder: ["Pleadings", `Case ${counter}`],
    name: "Notice of Electronic Filing",
    extension: "pdf",
    bytes: Buffer.from(`%PDF-1.7 notice ${counter}`),
    contentType: "application/pdf",
    properties: { DocumentType: "Notice", document_class: "Court", author: "Jane Filer", Court: "E.D. Tex." },
    subject: {
      matter: { number: FILING_MATTER.MatterId, name: FILING_MATTER.Description, reference: null },
      case: { number: `2:24-cv-${counter}`, name: "Peña v. Bluebonnet" },
      docketText: "NOTICE of Appearance by Jane Filer on behalf of Peña Industries",
      filedOn: "11/20/2026",
      timeZone: "America/Chicago",
    },
    ...overrides,
  };
};

function target(overrides: Partial<ProLawSettings> = {}) {
  const settings = { ...(server.credentialSettings() as unknown as ProLawSettings), ...overrides };
  const ctx = testContext(settings.base_url, server.origin);
  contexts.push(ctx);
  return { ctx, target: createProLawTarget(settings, ctx) };
}

const heldAt = (link: string | undefined) => server.documents().find((doc) => doc.link === link);

describe("ProLaw target", () => {
  it("files the document on the matter, in folders it creates, with its profile, and returns ProLaw's link", async () => {
    const { ctx, target: proLaw } = target({ folder_creation_sync_delay: 1500 });
    const request = filing();
    const before = server.requests().length;
    const result = await intendAndWrite(proLaw, request, "filing-1");

    expect(result.location).toBe(`M-501/Pleadings/${request.folder[1]}/Notice of Electronic Filing.pdf`);
    const held = heldAt(result.link);
    expect(held?.folder).toEqual(request.folder);
    expect(held?.name).toBe("Notice of Electronic Filing.pdf");
    expect(held?.bytes.equals(request.bytes)).toBe(true);
    expect(held?.properties).toMatchObject({
      Matter: "M-501",
      DocumentType: "Notice",
      DocumentClass: "Court",
      Author: "Jane Filer",
      Description: "NOTICE of Appearance by Jane Filer on behalf of Peña Industries",
      DocumentDate: "2026-11-20",
      Court: "E.D. Tex.",
    });
    expect(held?.properties.ParentMattersId).toBeUndefined();
    expect(result.link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ProLaw\/Documents\/Document\.aspx\?id=D\d+$/);
    // Two folders made, one wait after them; the key went with every call and no token is kept.
    expect(ctx.sleeps).toEqual([1500]);
    expect(ctx.writes).toEqual([]);
    const calls = server.requests().slice(before);
    expect(calls.filter((call) => call.startsWith("POST") && call.includes("/folders"))).toHaveLength(2);

    // The folders exist now: no wait for the next filing in them.
    await intendAndWrite(proLaw, { ...request, name: "Order", bytes: Buffer.from("%PDF order") }, "filing-2");
    expect(ctx.sleeps).toEqual([1500]);
  });

  it("finds the matter by the firm's reference when its number is not ProLaw's, and refuses at once when there is none", async () => {
    const internal = server.addMatter({ MatterId: "2026-0042", Description: "Acme v. Widgets" });
    const { target: proLaw } = target();
    const subject = filing().subject!;
    const byReference = await intendAndWrite(
      proLaw,
      filing({ subject: { ...subject, matter: { number: "ACME-42", name: "Acme v. Widgets", reference: internal } } }),
      "ref-1",
    );
    expect(byReference.location.startsWith("2026-0042/")).toBe(true);
    expect(server.documents().find((doc) => doc.link === byReference.link)?.properties.Matter).toBe("2026-0042");

    const missing = await errorOf(
      proLaw.intend(filing({ subject: { ...subject, matter: { number: "NOPE-1", name: "Nobody v. Nothing", reference: "MT-none" } } }), "ref-2"),
    );
    expect(missing).toBeInstanceOf(DmsTargetError);
    expect(missing.retryable).toBe(false);
    expect(missing.message).toBe('ProLaw has no matter with the number NOPE-1 or reference MT-none (matter "Nobody v. Nothing")');

    const none = await errorOf(proLaw.intend(filing({ subject: { ...subject, matter: null } }), "ref-3"));
    expect(none.retryable).toBe(false);
    expect(none.message).toMatch(/has no matter: ProLaw files documents on a matter/);
  });

  it("files a sub-matter's document with its master matter's key when add_parent_id is on", async () => {
    const { target: proLaw } = target({ add_parent_id: true });
    const result = await intendAndWrite(proLaw, filing(), "parent-1");
    expect(heldAt(result.link)?.properties.ParentMattersId).toBe(MASTER_MATTER.MattersId);

    // A matter of its own has no parent: filed without one.
    const subject = filing().subject!;
    const own = await intendAndWrite(
      proLaw,
      filing({ subject: { ...subject, matter: { number: MASTER_MATTER.MatterId, name: "", reference: null } } }),
      "parent-2",
    );
    expect(heldAt(own.link)?.properties.ParentMattersId).toBeUndefined();
  });

  it("takes the next free name, compared without case, and chooses again when a name is taken before the write", async () => {
    const { target: proLaw } = target();
    const request = filing();
    server.seed("M-501", request.folder, "notice of electronic filing.PDF", Buffer.from("someone else's"));
    const intended = await proLaw.intend(request, "names-1");
    expect(intended.location.endsWith("/Notice of Electronic Filing (2).pdf")).toBe(true);

    // Someone files under the chosen name between intend and write.
    server.seed("M-501", request.folder, "Notice of Electronic Filing (2).pdf", Buffer.from("another"));
    await expect(proLaw.write(request, intended)).rejects.toBeInstanceOf(DmsLocationTaken);
    const result = await intendAndWrite(proLaw, request, "names-1");
    expect(result.location.endsWith("/Notice of Electronic Filing (3).pdf")).toBe(true);
    expect(server.documents().filter((doc) => doc.folder.join("/") === request.folder.join("/"))).toHaveLength(3);
  });

  it("adopts the copy an interrupted attempt left, by its key and content, and never files it twice", async () => {
    const { target: proLaw } = target();
    const request = filing();
    const intended = await proLaw.intend(request, "rec-77");
    expect(await proLaw.findExisting(intended)).toBeNull();
    const written = await proLaw.write(request, intended);
    const count = server.documents().length;

    // The attempt crashed before it recorded success: the retry finds the copy.
    const adopted = await proLaw.findExisting(intended);
    expect(adopted).toEqual(written);
    expect(server.documents()).toHaveLength(count);
    expect(heldAt(written.link)?.properties.ExternalReference).toBe(externalReference("rec-77", intended.contentHash));
    // Other bytes under the same key are another filing's content: not adopted.
    expect(await proLaw.findExisting({ ...intended, contentHash: "0".repeat(64) })).toBeNull();
  });

  it("turns ProLaw's throttling and outages into retries, with the wait it asks for", async () => {
    const { target: proLaw } = target();
    server.failNext(429, { retryAfterSeconds: 90, path: /\/documents$/ });
    const throttled = await errorOf(intendAndWrite(proLaw, filing(), "busy-1"));
    expect(throttled).toBeInstanceOf(DmsTargetError);
    expect(throttled.retryable).toBe(true);
    expect(throttled.retryAfterMs).toBe(90_000);
    expect(throttled.message).toMatch(/^ProLaw is busy or unavailable \(429\).*Too many requests/);

    server.failNext(503, { path: /\/matters$/ });
    const down = await errorOf(proLaw.intend(filing(), "busy-2"));
    expect(down.retryable).toBe(true);
    expect(down.retryAfterMs).toBeUndefined();
  });

  it("fails at once on a refusal no retry mends, with ProLaw's reason", async () => {
    const { target: proLaw } = target();
    server.failNext(403, { path: /\/documents$/ });
    const forbidden = await errorOf(intendAndWrite(proLaw, filing(), "deny-1"));
    expect(forbidden.retryable).toBe(false);
    expect(forbidden.message).toBe(
      "ProLaw refused the API key (403) the upload of Notice of Electronic Filing.pdf: The API key's user has no rights to add documents to this matter.",
    );

    const unknownType = await errorOf(intendAndWrite(proLaw, filing({ properties: { DocumentType: "Brief" } }), "deny-2"));
    expect(unknownType.retryable).toBe(false);
    expect(unknownType.message).toBe("ProLaw refused the upload of Notice of Electronic Filing.pdf (400): Document type 'Brief' does not exist.");

    const { target: wrongKey } = target({ api_key: "not-the-key" });
    const refused = await errorOf(wrongKey.intend(filing(), "deny-3"));
    expect(refused.retryable).toBe(false);
    expect(refused.message).toBe("ProLaw refused the API key (401) to look up matter M-501: Authorization has been denied for this request.");
  });

  it("counts a ProLaw that does not answer in time as retryable, and never calls a host the guard does not allow", async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const ctx = { ...testContext(`${origin}/ProLaw/api`, origin), timeoutMs: 300 };
      contexts.push(ctx);
      const slow = createProLawTarget({ ...(server.credentialSettings() as unknown as ProLawSettings), base_url: `${origin}/ProLaw/api` }, ctx);
      const timedOut = await errorOf(slow.intend(filing(), "slow-1"));
      expect(timedOut.retryable).toBe(true);
      expect(timedOut.message).toMatch(/did not answer within/);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }

    const { target: elsewhere } = target({ base_url: "http://10.20.30.40/ProLaw/api" });
    const refused = await errorOf(elsewhere.intend(filing(), "guard-1"));
    expect(refused.retryable).toBe(false);
    expect(() => target({ base_url: "not a url" })).toThrow(/is not an address/);
  });

  it("tests the connection by listing matters with the key, never writing", async () => {
    const { target: proLaw } = target({ use_agent: true });
    const before = server.requests().length;
    const report = await proLaw.testConnection();
    expect(report.ok).toBe(true);
    expect(report.steps.map((step) => step.step)).toEqual(["Reach ProLaw with the API key", "List matters"]);
    expect(report.steps[0]!.detail).toMatch(/accepted the API key \(use_agent is on/);
    expect(report.steps[1]!.detail).toMatch(/\d+ matters, e\.g\. M-500, M-501/);
    expect(
      server
        .requests()
        .slice(before)
        .every((call) => call.startsWith("GET ")),
    ).toBe(true);

    const { target: wrongKey } = target({ api_key: `${PROLAW_API_KEY}-old` });
    const failed = await wrongKey.testConnection();
    expect(failed.ok).toBe(false);
    expect(failed.steps).toHaveLength(1);
    expect(failed.steps[0]!.detail).toMatch(/ProLaw refused the API key \(401\).*Authorization has been denied/);
  });

  it("says, when the address is not a ProLaw endpoint, that ProLaw has no public API and the firm must provide one", async () => {
    // Something answers, but not the contract: a web server's 404 page.
    const other = http.createServer((request, response) => response.writeHead(404, { "content-type": "text/html" }).end("<h1>Not Found</h1>"));
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const ctx = testContext(origin, origin);
      contexts.push(ctx);
      const report = await createProLawTarget(
        { ...(server.credentialSettings() as unknown as ProLawSettings), base_url: `${origin}/ProLaw/api` },
        ctx,
      ).testConnection();
      expect(report.steps).toEqual([
        {
          step: "Reach ProLaw with the API key",
          ok: false,
          detail: `${NO_PUBLIC_API} ${new URL(origin).host} did not answer as that endpoint: ProLaw refused to list matters (404): <h1>Not Found</h1>`,
        },
      ]);
    } finally {
      other.close();
    }
    // Nothing listens there at all.
    const ctx = testContext("http://127.0.0.1:9", "http://127.0.0.1:9");
    contexts.push(ctx);
    const nothing = await createProLawTarget(
      { ...(server.credentialSettings() as unknown as ProLawSettings), base_url: "http://127.0.0.1:9/ProLaw/api" },
      ctx,
    ).testConnection();
    expect(nothing.steps[0]!.detail).toBe(`${NO_PUBLIC_API} 127.0.0.1:9 did not answer as that endpoint: nothing answered at 127.0.0.1:9`);
  });
});

describe("the local ProLaw", () => {
  it("refuses and records requests off the contract", async () => {
    const own = await startProLawServer();
    const base = String(own.credentialSettings().base_url);
    const missingKey = await fetch(`${base}/matters`);
    expect(missingKey.status).toBe(400);
    const badFolder = await fetch(`${base}/matters/${FILING_MATTER.MattersId}/folders`, {
      method: "POST",
      headers: { "x-api-key": PROLAW_API_KEY, "content-type": "application/json" },
      body: JSON.stringify({ Name: "Bad:name", Colour: "red" }),
    });
    expect(badFolder.status).toBe(400);
    const unknown = await fetch(`${base}/timeentries`, { headers: { "x-api-key": PROLAW_API_KEY } });
    expect(unknown.status).toBe(400);
    const violations = own.contractViolations();
    await own.close();
    expect(violations).toHaveLength(3);
    expect(violations[0]).toMatch(/no X-API-Key header/);
    expect(violations[1]).toMatch(/createFolder/);
    expect(violations[2]).toMatch(/not an operation of the ProLaw contract/);
  });
});
