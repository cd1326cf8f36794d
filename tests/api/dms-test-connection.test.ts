import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BoxTestServer, startBoxServer } from "../dms/box/box-server";
import { DEMO, type RunningApi, api, creator, login, startApi } from "./harness";

// "Test connection" on a vendor credential: signs in with the stored (sealed) secret and lists
// the root, step by step; only for those who may change the credential, only within the firm.

describe("DMS credential connection test", () => {
  let box: BoxTestServer;
  let running: RunningApi;
  let admin: ReturnType<typeof api>;
  let credentialId: string;
  const path = "/api/v1/box-client-credential-grant-credential";

  beforeAll(async () => {
    box = await startBoxServer();
    running = await startApi({ backend: "sqlite", env: { ECFX_BOX_BASE_URL: box.origin } });
    admin = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    credentialId = await creator(admin)(path, { name: "Firm Box", ...box.credentialSettings() });
  });

  afterAll(async () => {
    await running?.close();
    await box?.close();
  });

  it("signs in and lists the root folder, and keeps the token sealed for the next call", async () => {
    const res = await admin.post(`${path}/${credentialId}/test-connection`);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.steps.length).toBeGreaterThanOrEqual(2);
    expect(res.body.steps.every((s: { ok: boolean }) => s.ok)).toBe(true);
    const token = await running.ctx.database.db
      .selectFrom("dms_credential_token")
      .select("sealed")
      .where("credential_id", "=", credentialId)
      .executeTakeFirstOrThrow();
    expect(token.sealed.startsWith("sb1.")).toBe(true);
    expect(token.sealed).not.toContain(String(box.credentialSettings().client_secret));
  });

  it("says where a wrong secret fails, in the words of the spec", async () => {
    const wrong = await creator(admin)(path, { name: "Wrong Box", ...box.credentialSettings(), client_secret: "not-the-secret" });
    const res = await admin.post(`${path}/${wrong}/test-connection`);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    expect(JSON.stringify(res.body.steps)).toContain("Token generation failed");
  });

  it("is refused to a role that may only read credentials, and unknown to another firm", async () => {
    const viewer = api(running.url, (await login(running.url, DEMO.viewOnly)).access_token);
    expect((await viewer.post(`${path}/${credentialId}/test-connection`)).status).toBe(403);
    const other = api(running.url, (await login(running.url, DEMO.secondAdmin)).access_token);
    expect((await other.post(`${path}/${credentialId}/test-connection`)).status).toBe(404);
    expect((await admin.post(`/api/v1/dropbox-credential/${credentialId}/test-connection`)).status).toBe(404);
  });
});
