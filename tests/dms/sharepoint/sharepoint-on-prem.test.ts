import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DmsLocationTaken, intendAndWrite } from "../../../server/dms/dms-target";
import { type SharePointOnPremSettings, createSharePointOnPremTarget } from "../../../server/dms/sharepoint/sharepoint-on-prem-target";
import { errorOf, filing } from "./filings";
import { type SharePointOnPremServer, startSharePointOnPremServer } from "./sharepoint-on-prem-server";
import { type TestContext, testContext } from "./vendor-context";

let server: SharePointOnPremServer;
const contexts: TestContext[] = [];

beforeAll(async () => {
  server = await startSharePointOnPremServer();
});
afterAll(async () => {
  await Promise.all(contexts.map((ctx) => ctx.guard.close()));
  await server.close();
});
afterEach(() => {
  expect(server.contractViolations()).toEqual([]);
});

const settings = (overrides: Partial<SharePointOnPremSettings> = {}): SharePointOnPremSettings => ({
  ...(server.credentialSettings() as unknown as SharePointOnPremSettings),
  ...overrides,
});

function target(overrides: Partial<SharePointOnPremSettings> = {}) {
  const ctx = testContext(settings(overrides).base_url, server.origin);
  contexts.push(ctx);
  return { ctx, target: createSharePointOnPremTarget(settings(overrides), ctx) };
}

describe("SharePoint Server target", () => {
  it("signs in with Windows sign-in (NTLM), creates the folders, waits once, adds the file and sets its columns", async () => {
    const { ctx, target: sp } = target({ folder_creation_sync_delay: 2000 });
    const request = filing();
    const result = await intendAndWrite(sp, request, "filing-1");

    expect(result.location).toBe(`ECFX/${request.folder.join("/")}/Notice of Electronic Filing.pdf`);
    expect(result.link).toBe(
      `${server.origin}/sites/Legal/Shared%20Documents/ECFX/Acme%20Corp/${encodeURIComponent(request.folder[1] ?? "")}/Notice%20of%20Electronic%20Filing.pdf`,
    );
    expect(ctx.sleeps).toEqual([2000]);
    expect(server.folders()).toContainEqual(["ECFX", ...request.folder]);
    const held = server.documents().find((doc) => doc.link === result.link);
    expect(held?.bytes.equals(request.bytes)).toBe(true);
    expect(held?.properties).toEqual({ CaseNumber: request.properties.CaseNumber, FiledBy: "Jane Filer" });

    await intendAndWrite(sp, { ...request, name: "Order" }, "filing-2");
    expect(ctx.sleeps).toEqual([2000]);
  });

  it("signs in whatever the account's spelling: DOMAIN\\user, or the user with the domain apart", async () => {
    const { target: sp } = target({ client_id: "svc-ecfx", tenant_id: "CONTOSO" });
    const result = await intendAndWrite(sp, filing(), "apart");
    expect(server.documents().some((doc) => doc.link === result.link)).toBe(true);
  });

  it("signs in again on each new connection: the front closes a connection after a few requests, and filings go on", async () => {
    const { target: sp } = target();
    const first = await intendAndWrite(sp, filing(), "before");
    const second = await intendAndWrite(sp, { ...filing(), name: "After" }, "after");
    expect(server.documents().filter((doc) => doc.link === first.link || doc.link === second.link)).toHaveLength(2);
  });

  it("says 'Windows sign-in failed' naming the account when the password is refused, and does not retry it", async () => {
    const error = await errorOf(target({ client_secret: "wrong" }).target.intend(filing(), "k"));
    expect(error.message).toBe("Windows sign-in failed: SharePoint refused the account CONTOSO\\svc-ecfx");
    expect(error.retryable).toBe(false);
    const report = await target({ client_id: "CONTOSO\\nobody" }).target.testConnection();
    expect(report.steps).toEqual([{ step: "Sign in", ok: false, detail: "Windows sign-in failed: SharePoint refused the account CONTOSO\\nobody" }]);
  });

  it("picks the next free name, and a name taken after intend is DmsLocationTaken", async () => {
    const { target: sp } = target();
    const request = filing();
    await intendAndWrite(sp, request, "a");
    const second = await sp.intend(request, "b");
    expect(second.location).toMatch(/Notice of Electronic Filing \(2\)\.pdf$/);
    await intendAndWrite(sp, { ...request, bytes: Buffer.from("racer") }, "racer");
    expect(await errorOf(sp.write(request, second))).toBeInstanceOf(DmsLocationTaken);
    expect(server.documents().filter((doc) => doc.folder.join("/") === `ECFX/${request.folder.join("/")}`)).toHaveLength(2);
  });

  it("lets two filings create the same new folder at once", async () => {
    const { target: sp } = target();
    const first = filing();
    const second = { ...first, name: "Order", bytes: Buffer.from("order") };
    const results = await Promise.all([intendAndWrite(sp, first, "one"), intendAndWrite(sp, second, "two")]);
    expect(results.map((result) => result.location.split("/").pop())).toEqual(["Notice of Electronic Filing.pdf", "Order.pdf"]);
    expect(server.folders().filter((folder) => folder.join("/") === `ECFX/${first.folder.join("/")}`)).toHaveLength(1);
  });

  it("adopts the copy an earlier attempt of the same filing stored, and no other", async () => {
    const { target: sp } = target();
    const request = filing();
    const intended = await sp.intend(request, "filing-9");
    expect(await sp.findExisting(intended)).toBeNull();
    const written = await sp.write(request, intended);
    expect(await sp.findExisting(intended)).toEqual(written);
    expect(await sp.findExisting({ ...intended, idempotencyKey: "filing-10" })).toBeNull();
  });

  it("removes the file when SharePoint refuses its columns, and says which", async () => {
    const { target: sp } = target();
    const request = filing({ properties: { Matter: "123" } });
    const error = await errorOf(intendAndWrite(sp, request, "bad"));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("Matter: Column 'Matter' does not exist");
    expect(server.documents().some((doc) => doc.folder.join("/") === `ECFX/${request.folder.join("/")}`)).toBe(false);
  });

  it("passes on throttling, outages and refusals as SharePoint gave them", async () => {
    const { target: sp } = target();
    await sp.intend(filing(), "warm");
    server.failNext(429, { retryAfterSeconds: 12, path: /_api/ });
    expect(await errorOf(sp.intend(filing(), "k"))).toMatchObject({ retryable: true, retryAfterMs: 12_000 });
    server.failNext(500, { path: /_api/ });
    expect(await errorOf(sp.intend(filing(), "k"))).toMatchObject({ retryable: true });
    server.failNext(403, { path: /_api/ });
    const denied = await errorOf(sp.intend(filing(), "k"));
    expect(denied.retryable).toBe(false);
    expect(denied.message).toContain("Access denied");
  });

  it("reaches only the hosts of its own addresses", async () => {
    const { target: sp } = target({ base_url: "http://127.0.0.2:9/sites/Legal/Shared%20Documents" });
    const error = await errorOf(sp.intend(filing(), "k"));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/https|allowed|host/i);
  });

  it("tests the connection without writing, and reports use_agent", async () => {
    const before = server.documents().length;
    const report = await target({ use_agent: true }).target.testConnection();
    expect(report.ok).toBe(true);
    expect(report.steps.map((step) => step.detail)).toEqual([
      expect.stringContaining("use_agent is on"),
      `Opened site Legal at ${server.origin}/sites/Legal`,
      expect.stringMatching(/^Listed \d+ items in \/sites\/Legal\/Shared Documents\/ECFX$/),
    ]);
    expect(server.documents()).toHaveLength(before);

    const missing = await target({ base_url: `${server.origin}/sites/Legal/Shared%20Documents/Nowhere` }).target.testConnection();
    expect(missing.ok).toBe(false);
    expect(missing.steps.at(-1)).toMatchObject({
      step: "List the root folder",
      ok: false,
      detail: expect.stringContaining("/sites/Legal/Shared Documents/Nowhere"),
    });
  });
});
