import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { DEMO, DEMO_PASSWORD, api, backends, login, useApi } from "./harness";

const authProto = protobuf.loadSync(fileURLToPath(new URL("../../proto/auth.proto", import.meta.url)));
const ChangePassword = authProto.lookupType("ecfx.ChangePassword");
const TokenPair = authProto.lookupType("ecfx.TokenPair");

const PROTOBUF = "application/x-protobuf";

function changePassword(url: string, token: string, userId: string, body: { currentPassword: string; newPassword: string }, accept?: string) {
  const bytes = ChangePassword.encode(ChangePassword.fromObject(body)).finish();
  return api(url, token).request("PUT", `/auth/${userId}/change-password`, {
    body: bytes,
    headers: { "content-type": PROTOBUF, ...(accept ? { accept } : {}) },
  });
}

describe.each(backends)("PUT /auth/:id/change-password (%s)", (backend) => {
  const server = useApi({ backend });

  it("refuses a wrong current password", async () => {
    const session = await login(server().url, DEMO.viewOnly);
    const res = await changePassword(server().url, session.access_token, session.user.id, {
      currentPassword: "not-my-password",
      newPassword: "Another-Passw0rd",
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("The current password is not correct.");
    expect(res.body.fieldErrors.currentPassword).toEqual(["The current password is not correct."]);
  });

  it("refuses a new password shorter than 8 characters", async () => {
    const session = await login(server().url, DEMO.viewOnly);
    const res = await changePassword(server().url, session.access_token, session.user.id, {
      currentPassword: DEMO_PASSWORD,
      newPassword: "short1!",
    });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors.newPassword).toEqual(["Password must be at least 8 characters long."]);
  });

  it("refuses an empty body and a body that is not a ChangePassword message", async () => {
    const session = await login(server().url, DEMO.viewOnly);
    const client = api(server().url, session.access_token);
    const route = `/auth/${session.user.id}/change-password`;
    const empty = await client.request("PUT", route, { body: new Uint8Array(), headers: { "content-type": PROTOBUF } });
    expect(empty.status).toBe(400);
    const garbage = await client.request("PUT", route, {
      body: new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f]),
      headers: { "content-type": PROTOBUF },
    });
    expect(garbage.status).toBe(400);
  });

  it("refuses to change someone else's password", async () => {
    const admin = await login(server().url, DEMO.admin);
    const manager = await login(server().url, DEMO.manager);
    const res = await changePassword(server().url, admin.access_token, manager.user.id, {
      currentPassword: DEMO_PASSWORD,
      newPassword: "Another-Passw0rd",
    });
    expect(res.status).toBe(403);
    expect((await api(server().url).post("/auth/login", { username: DEMO.manager, password: DEMO_PASSWORD })).status).toBe(200);
  });

  it("requires a signed-in caller", async () => {
    const session = await login(server().url, DEMO.viewOnly);
    const res = await changePassword(server().url, "", session.user.id, {
      currentPassword: DEMO_PASSWORD,
      newPassword: "Another-Passw0rd",
    });
    expect(res.status).toBe(401);
  });

  it("changes the password, returns new tokens and ends every other session", async () => {
    const url = server().url;
    const session = await login(url, DEMO.docketing);
    const elsewhere = await login(url, DEMO.docketing);
    const res = await changePassword(url, session.access_token, session.user.id, {
      currentPassword: DEMO_PASSWORD,
      newPassword: "Brand-New-Passw0rd",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), expires_in: 3600 });

    expect((await api(url, res.body.access_token).get("/auth/me")).status).toBe(200);
    expect((await api(url, session.access_token).get("/auth/me")).status).toBe(401);
    expect((await api(url, elsewhere.access_token).get("/auth/me")).status).toBe(401);
    const staleRefresh = await api(url).post("/oauth/access_token", {
      grant_type: "refresh_token",
      refresh_token: elsewhere.refresh_token,
    });
    expect(staleRefresh.status).toBe(400);
    const freshRefresh = await api(url).post("/oauth/access_token", { grant_type: "refresh_token", refresh_token: res.body.refresh_token });
    expect(freshRefresh.status).toBe(200);

    expect((await api(url).post("/auth/login", { username: DEMO.docketing, password: DEMO_PASSWORD })).status).toBe(401);
    expect((await login(url, DEMO.docketing, "Brand-New-Passw0rd")).user.id).toBe(session.user.id);
  });

  it("answers with a binary TokenPair when asked for protobuf", async () => {
    const url = server().url;
    const session = await login(url, DEMO.manager);
    const res = await changePassword(url, session.access_token, session.user.id, { currentPassword: DEMO_PASSWORD, newPassword: "Manager-Passw0rd" }, PROTOBUF);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/x-protobuf/);
    const pair = TokenPair.toObject(TokenPair.decode(res.bytes)) as { accessToken: string; refreshToken: string; expiresIn: number };
    expect(pair.expiresIn).toBe(3600);
    expect((await api(url, pair.accessToken).get("/auth/me")).status).toBe(200);
  });

  it("also takes the body as JSON", async () => {
    const url = server().url;
    const session = await login(url, DEMO.secondAdmin);
    const res = await api(url, session.access_token).put(`/auth/${session.user.id}/change-password`, {
      currentPassword: DEMO_PASSWORD,
      newPassword: "Second-Passw0rd",
    });
    expect(res.status).toBe(200);
    expect((await login(url, DEMO.secondAdmin, "Second-Passw0rd")).user.id).toBe(session.user.id);
  });
});
