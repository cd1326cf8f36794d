import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DmsLocationTaken, DmsTargetError, intendAndWrite } from "../../../server/dms/dms-target";
import { type SharePointCloudSettings, createSharePointCloudTarget } from "../../../server/dms/sharepoint/sharepoint-cloud-target";
import { type SharePointCloudServer, startSharePointCloudServer } from "./sharepoint-cloud-server";
import { errorOf, filing as request } from "./filings";
import { type TestContext, testContext } from "./vendor-context";

let server: SharePointCloudServer;
const contexts: TestContext[] = [];

beforeAll(async () => {
  server = await startSharePointCloudServer();
});
afterAll(async () => {
  await Promise.all(contexts.map((ctx) => ctx.guard.close()));
  await server.close();
});
afterEach(() => {
  expect(server.contractViolations()).toEqual([]);
});

const settings = (overrides: Partial<SharePointCloudSettings> = {}): SharePointCloudSettings => ({
  ...(server.credentialSettings() as unknown as SharePointCloudSettings),
  ...overrides,
});

function target(overrides: Partial<SharePointCloudSettings> = {}, baseUrl = server.origin) {
  const ctx = testContext(baseUrl, server.origin);
  contexts.push(ctx);
  return { ctx, target: createSharePointCloudTarget(settings(overrides), ctx) };
}

describe("SharePoint Online target", () => {
  it("signs in, creates the folders, waits the sync delay once, uploads and describes the document", async () => {
    const { ctx, target: spo } = target({ folder_creation_sync_delay: 1500 });
    const filing = request();
    const result = await intendAndWrite(spo, filing, "filing-1");

    expect(result.location).toBe(`ECFX/${filing.folder.join("/")}/Notice of Electronic Filing.pdf`);
    expect(result.link).toBe(
      `https://contoso.sharepoint.com/sites/Legal/Shared%20Documents/ECFX/Acme%20Corp/${encodeURIComponent(filing.folder[1] ?? "")}/Notice%20of%20Electronic%20Filing.pdf`,
    );
    expect(ctx.sleeps).toEqual([1500]);
    expect(server.folders()).toContainEqual(["ECFX", ...filing.folder]);
    const held = server.documents().find((doc) => doc.link === result.link);
    expect(held?.bytes.equals(filing.bytes)).toBe(true);
    expect(held?.properties).toEqual({ CaseNumber: filing.properties.CaseNumber, FiledBy: "Jane Filer" });
    expect(ctx.writes).toHaveLength(1);

    // The folders exist now: a second document there neither creates nor waits.
    await intendAndWrite(spo, { ...filing, name: "Order" }, "filing-2");
    expect(ctx.sleeps).toEqual([1500]);
  });

  it("keeps the token until a minute before it expires, then renews it and writes it back", async () => {
    const { ctx, target: spo } = target();
    const before = server.tokensIssued();
    await spo.intend(request(), "k");
    await spo.intend(request(), "k");
    expect(server.tokensIssued() - before).toBe(1);
    const first = ctx.stored;
    expect(first?.expiresAt).toBeGreaterThan(ctx.now());

    ctx.advance(server.tokenLifetimeSeconds * 1000 - 59_000);
    await spo.intend(request(), "k");
    expect(server.tokensIssued() - before).toBe(2);
    expect(ctx.stored?.accessToken).not.toBe(first?.accessToken);
    expect(ctx.writes).toHaveLength(2);
  });

  it("asks for a new token once when Graph no longer takes the stored one", async () => {
    const { ctx, target: spo } = target();
    await spo.intend(request(), "k");
    server.revokeTokens();
    await spo.intend(request(), "k");
    expect(ctx.writes).toHaveLength(2);
  });

  it("says 'Token generation failed' with Microsoft's reason when the secret is refused", async () => {
    const { target: spo } = target({ client_secret: "wrong" });
    const error = await errorOf(spo.intend(request(), "k"));
    expect(error).toBeInstanceOf(DmsTargetError);
    expect(error.message).toMatch(/^Token generation failed: AADSTS7000215: Invalid client secret provided/);
    expect(error.retryable).toBe(false);
  });

  it("counts a busy sign-in service as retryable, not as a refused secret", async () => {
    const { target: spo } = target();
    server.failNext(503, { path: /oauth2/ });
    const error = await errorOf(spo.intend(request(), "k"));
    expect(error.message).toMatch(/busy or unavailable \(503\)/);
    expect(error.retryable).toBe(true);
    expect(error.message).not.toContain("Token generation failed");
  });

  it("picks the next free name and never overwrites another document", async () => {
    const { target: spo } = target();
    const filing = request();
    await intendAndWrite(spo, filing, "a");
    const second = await spo.intend({ ...filing, bytes: Buffer.from("another") }, "b");
    expect(second.location).toMatch(/\/Notice of Electronic Filing \(2\)\.pdf$/);

    // Another document takes the chosen name between intend and write.
    const third = await spo.intend({ ...filing, bytes: Buffer.from("third") }, "c");
    await intendAndWrite(spo, { ...filing, bytes: Buffer.from("racer") }, "racer");
    const error = await errorOf(spo.write({ ...filing, bytes: Buffer.from("third") }, third));
    expect(error).toBeInstanceOf(DmsLocationTaken);
    const racer = server.documents().find((doc) => doc.bytes.toString() === "racer");
    expect(racer?.name).toBe("Notice of Electronic Filing (2).pdf");
  });

  it("lets two filings create the same new folder at once", async () => {
    const { target: spo } = target();
    const first = request();
    const second = { ...first, name: "Order", bytes: Buffer.from("order") };
    const results = await Promise.all([intendAndWrite(spo, first, "one"), intendAndWrite(spo, second, "two")]);
    expect(results.map((result) => result.location.split("/").pop())).toEqual(["Notice of Electronic Filing.pdf", "Order.pdf"]);
    expect(server.folders().filter((folder) => folder.join("/") === `ECFX/${first.folder.join("/")}`)).toHaveLength(1);
  });

  it("adopts the copy an earlier attempt of the same filing stored, and no other", async () => {
    const { target: spo } = target();
    const filing = request();
    const intended = await spo.intend(filing, "filing-77");
    expect(await spo.findExisting(intended)).toBeNull();
    const written = await spo.write(filing, intended);
    expect(await spo.findExisting(intended)).toEqual(written);
    expect(await spo.findExisting({ ...intended, idempotencyKey: "filing-78" })).toBeNull();
  });

  it("keeps the filing reference in the library column ECFXFiling, created when missing, never in the item's description", async () => {
    const fresh = await startSharePointCloudServer();
    try {
      const ctx = testContext(fresh.origin);
      contexts.push(ctx);
      const spo = createSharePointCloudTarget(fresh.credentialSettings() as unknown as SharePointCloudSettings, ctx);
      expect(fresh.columns()).not.toContain("ECFXFiling");
      const report = await spo.testConnection();
      expect(report.steps.at(-1)?.detail).toBe(
        "The library has no column ECFXFiling yet: the first filing creates it, which needs the app to manage the site's lists",
      );
      const filing = request();
      const intended = await spo.intend(filing, "filing-col");
      const written = await spo.write(filing, intended);
      expect(fresh.columns()).toContain("ECFXFiling");
      expect(fresh.filingNote(written.link ?? "")).toBe("Filed by ECFX for Smith & Jones LLP\nECFX filing filing-col");
      expect(await spo.findExisting(intended)).toEqual(written);

      // A second client finds the column there and does not create it again.
      const again = createSharePointCloudTarget(fresh.credentialSettings() as unknown as SharePointCloudSettings, ctx);
      await intendAndWrite(again, { ...filing, name: "Order" }, "filing-col-2");
      expect(fresh.columns().filter((name) => name === "ECFXFiling")).toHaveLength(1);
      expect(fresh.contractViolations()).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it("sets a person column to the site user the value names, and leaves it empty when the site has no such person", async () => {
    const { target: spo } = target();
    const byEmail = await intendAndWrite(spo, request({ properties: { CaseNumber: "1:26-cv-1", author: "sam.clerk@contoso.com" } }), "person-1");
    expect(server.documents().find((doc) => doc.link === byEmail.link)?.properties).toEqual({ CaseNumber: "1:26-cv-1", FiledBy: "Sam Clerk" });
    const outsider = await intendAndWrite(spo, request({ properties: { CaseNumber: "1:26-cv-2", author: "Opposing Counsel" } }), "person-2");
    expect(server.documents().find((doc) => doc.link === outsider.link)?.properties).toEqual({ CaseNumber: "1:26-cv-2" });
  });

  it("the stand-in refuses a drive item description and a person column given as text, as SharePoint does", async () => {
    const stray = await startSharePointCloudServer();
    try {
      const ctx = testContext(stray.origin);
      contexts.push(ctx);
      const spo = createSharePointCloudTarget(stray.credentialSettings() as unknown as SharePointCloudSettings, ctx);
      const written = await intendAndWrite(spo, request(), "model");
      const token = ctx.stored?.accessToken ?? "";
      const item = (await (
        await fetch(`${stray.origin}/v1.0/drives/b!LegalDocuments/items/root:/${written.location.split("/").map(encodeURIComponent).join("/")}:`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as { id: string };
      const patch = (path: string, body: unknown) =>
        fetch(`${stray.origin}/v1.0/drives/b!LegalDocuments/items/${item.id}${path}`, {
          method: "PATCH",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      expect((await patch("", { description: "ECFX filing x" })).status).toBe(400);
      expect((await patch("/listItem/fields", { FiledBy: "Jane Filer" })).status).toBe(400);
      expect((await patch("/listItem/fields", { FiledByLookupId: "7" })).status).toBe(200);
    } finally {
      await stray.close();
    }
  });

  it("uploads a large file through an upload session", async () => {
    const { target: spo } = target();
    const bytes = Buffer.alloc(5 * 1024 * 1024, 7);
    const result = await intendAndWrite(spo, request({ bytes }), "large");
    const held = server.documents().find((doc) => doc.link === result.link);
    expect(held?.bytes.equals(bytes)).toBe(true);
    expect(server.openSessions()).toBe(0);
  });

  it("leaves nothing behind when an upload session fails halfway", async () => {
    const { target: spo } = target();
    const filing = request({ bytes: Buffer.alloc(5 * 1024 * 1024, 3) });
    const intended = await spo.intend(filing, "broken");
    server.failNext(503, { path: /^\/_upload\// });
    const error = await errorOf(spo.write(filing, intended));
    expect(error.retryable).toBe(true);
    expect(server.openSessions()).toBe(0);
    expect(server.documents().some((doc) => doc.folder.join("/") === `ECFX/${filing.folder.join("/")}`)).toBe(false);
  });

  it("removes the upload when its properties are refused, and says why", async () => {
    const { target: spo } = target();
    const filing = request({ properties: { NoSuchColumn: "x" } });
    const error = await errorOf(intendAndWrite(spo, filing, "bad-properties"));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("Field 'NoSuchColumn' is not recognized");
    expect(server.documents().some((doc) => doc.folder.join("/") === `ECFX/${filing.folder.join("/")}`)).toBe(false);
  });

  it("passes on throttling with the wait Graph asked for, outages as retryable and refusals as permanent", async () => {
    const { target: spo } = target();
    await spo.intend(request(), "warm");
    server.failNext(429, { retryAfterSeconds: 7, path: /^\/v1\.0\// });
    const throttled = await errorOf(spo.intend(request(), "k"));
    expect(throttled).toMatchObject({ retryable: true, retryAfterMs: 7000 });

    server.failNext(503, { path: /^\/v1\.0\// });
    expect(await errorOf(spo.intend(request(), "k"))).toMatchObject({ retryable: true });

    server.failNext(403, { path: /^\/v1\.0\// });
    const denied = await errorOf(spo.intend(request(), "k"));
    expect(denied.retryable).toBe(false);
    expect(denied.message).toContain("Access denied");
  });

  it("reaches no host but Microsoft's and the operator's", async () => {
    const { target: spo } = target({}, "http://127.0.0.2:9");
    const error = await errorOf(spo.intend(request(), "k"));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/https|allowed|host/i);
  });

  it("tests the connection without writing", async () => {
    const before = server.documents().length;
    const { target: spo } = target();
    const report = await spo.testConnection();
    expect(report.ok).toBe(true);
    expect(report.steps.map((step) => step.detail)).toEqual([
      `Signed in as app ${settings().client_id} of tenant ${settings().tenant_id}`,
      "Found library Documents on site Legal",
      expect.stringMatching(/^Listed \d+ items in \/Documents\/ECFX$/),
      expect.stringMatching(/^The library has (the column ECFXFiling for filing references|no column ECFXFiling yet: the first filing creates it)/),
    ]);
    expect(server.documents()).toHaveLength(before);

    const failing = await target({ client_secret: "wrong" }).target.testConnection();
    expect(failing.ok).toBe(false);
    expect(failing.steps).toEqual([{ step: "Sign in", ok: false, detail: expect.stringContaining("Token generation failed: AADSTS7000215") }]);
  });
});

describe("SharePoint Online stand-in", () => {
  it("refuses and records a Graph request that is not in Microsoft's description", async () => {
    const stray = await startSharePointCloudServer();
    try {
      const response = await fetch(`${stray.origin}/v1.0/drives/x/items/y/content?@microsoft.graph.conflictBehavior=overwrite`, { method: "PUT", body: "x" });
      expect(response.status).toBe(400);
      expect(stray.contractViolations()).toEqual([expect.stringContaining("conflictBehavior")]);
    } finally {
      await stray.close();
    }
  });
});
