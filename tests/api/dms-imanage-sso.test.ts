import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IManageTestServer, startIManageServer } from "../dms/imanage/imanage-server";
import { backends } from "./harness";
import { type FilingBed, apiPathOf, caseFolder, startFilingBed } from "./dms-filing-bed";

// An iManage tenant that signs in through its identity provider (SSO) has no password to give:
// its credential is created without one, connected the way a person does it (iManage's consent
// address with a signed state, the code handed back through the console's callback), and files a
// notice. A password credential still needs its user name and password, and offers no connection.

const IMANAGE = apiPathOf("dms-imanage-cloud");

describe.each(backends)("an iManage tenant on single sign-on (%s)", (backend) => {
  let bed: FilingBed;
  let imanage: IManageTestServer;

  beforeAll(async () => {
    imanage = await startIManageServer();
    bed = await startFilingBed(backend, { ECFX_IMANAGE_BASE_URL: imanage.origin });
  });

  afterAll(async () => {
    await bed?.close();
    await imanage?.close();
  });

  const settings = (changes: Record<string, unknown>) => ({ ...imanage.credentialSettings(), document_sub_class: "MOTION", ...changes });

  it("asks a password credential for its user name and password, and offers it no connection", async () => {
    const missing = await bed.client.post(IMANAGE, { name: "No password", ...settings({ username: "", password: "" }) });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toMatch(/username/);
    const id = await bed.create(IMANAGE, { name: "Password sign-in", ...settings({}) });
    expect((await bed.client.get(`${IMANAGE}/${id}`)).body.sign_in).toBe("password");
    expect((await bed.client.get(`${IMANAGE}/${id}/authorization`)).body).toMatchObject({ required: false });
  });

  it("creates an SSO credential without a password, connects it through the callback and files into it", async () => {
    const id = await bed.createSealedCredential("dms-imanage-cloud", settings({ sign_in: "authorization_code", username: "", password: "" }));
    expect((await bed.client.get(`${IMANAGE}/${id}/authorization`)).body).toEqual({ connected: false, connectedAt: null, required: true });
    const untested = await bed.client.post(`${IMANAGE}/${id}/test-connection`, {});
    expect(untested.body.steps[0].detail).toMatch(/^Not connected to iManage yet/);

    const asked = await bed.client.post(`${IMANAGE}/${id}/authorization`, {});
    expect(asked.status).toBe(200);
    const url = new URL(asked.body.url as string);
    expect(url.origin + url.pathname).toBe(`${imanage.origin}/auth/oauth2/authorize`);
    expect(url.searchParams.get("redirect_uri")).toBe(`${bed.running.ctx.config.publicUrl}/oauth/imanage-cloud/callback`);
    const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
    const done = await bed.client.post("/api/v1/dms-authorization/callback", {
      system: "imanage-cloud",
      code: back.searchParams.get("code"),
      state: back.searchParams.get("state"),
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ resource: "dms-imanage-cloud", id, connected: true });
    expect((await bed.client.post(`${IMANAGE}/${id}/test-connection`, {})).body.ok).toBe(true);

    const caseNumber = "2:24-cv-651";
    const { caseId } = await bed.caseFiledThrough(id, caseNumber);
    await bed.sendNotice(caseNumber);
    await bed.settled();
    await bed.itemOnCase(caseId, "succeeded");
    expect(imanage.documents().filter((document) => document.folder.includes(caseFolder(caseNumber)))).toHaveLength(1);
    expect(imanage.grants()).not.toContain("password");
    expect(imanage.contractViolations()).toEqual([]);
  });
});
