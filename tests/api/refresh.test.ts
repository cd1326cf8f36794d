import { describe, expect, it } from "vitest";
import { DEMO, api, backends, login, testClock, useApi } from "./harness";

const refreshJson = (url: string, token: string) => api(url).post("/oauth/access_token", { grant_type: "refresh_token", refresh_token: token });

const refreshForm = (url: string, token: string) =>
  api(url).request("POST", "/oauth/access_token", {
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });

describe.each(backends)("refresh tokens with the default leeway (%s)", (backend) => {
  const clock = testClock();
  const server = useApi({ backend, clock });

  it("rotates a refresh token sent as JSON", async () => {
    const session = await login(server().url, DEMO.admin);
    const res = await refreshJson(server().url, session.refresh_token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 3600,
      token_type: "Bearer",
    });
    expect(res.body.refresh_token).not.toBe(session.refresh_token);
    expect((await api(server().url, res.body.access_token).get("/auth/me")).body.email).toBe(DEMO.admin);
    // The access token of before stays valid until it expires on its own.
    expect((await api(server().url, session.access_token).get("/auth/me")).status).toBe(200);
    // And the new refresh token rotates in turn.
    const next = await refreshJson(server().url, res.body.refresh_token);
    expect(next.status).toBe(200);
    expect(next.body.refresh_token).not.toBe(res.body.refresh_token);
  });

  it("rotates a refresh token sent as a form", async () => {
    const session = await login(server().url, DEMO.manager);
    const res = await refreshForm(server().url, session.refresh_token);
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).not.toBe(session.refresh_token);
    expect((await api(server().url, res.body.access_token).get("/auth/me")).body.email).toBe(DEMO.manager);
  });

  it("gives a working pair to a reuse inside the leeway (parallel tabs)", async () => {
    const session = await login(server().url, DEMO.docketing);
    const first = await refreshJson(server().url, session.refresh_token);
    clock.advance(2_000);
    const again = await refreshJson(server().url, session.refresh_token);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.refresh_token).not.toBe(first.body.refresh_token);
    expect((await api(server().url, again.body.access_token).get("/auth/me")).status).toBe(200);
    // Neither branch was treated as theft: both rotate onwards.
    expect((await refreshJson(server().url, first.body.refresh_token)).status).toBe(200);
    expect((await refreshJson(server().url, again.body.refresh_token)).status).toBe(200);
  });

  it("refuses a malformed request and an unknown token", async () => {
    const url = server().url;
    const noGrant = await api(url).post("/oauth/access_token", { refresh_token: "x" });
    expect(noGrant.status).toBe(400);
    expect(noGrant.body.error).toBe("invalid_request");
    const wrongGrant = await api(url).post("/oauth/access_token", { grant_type: "password", refresh_token: "x" });
    expect(wrongGrant.status).toBe(400);
    const empty = await api(url).request("POST", "/oauth/access_token");
    expect(empty.status).toBe(400);
    const unknown = await refreshJson(url, "not-a-token-we-issued");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("invalid_grant");
  });

  it("refuses a refresh token once it has expired", async () => {
    const session = await login(server().url, DEMO.viewOnly);
    clock.advance(30 * 24 * 3600 * 1000 + 1000);
    const res = await refreshJson(server().url, session.refresh_token);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_grant");
  });

  it("ends the refresh family on logout", async () => {
    const session = await login(server().url, DEMO.admin);
    const rotated = await refreshJson(server().url, session.refresh_token);
    expect(rotated.status).toBe(200);
    const out = await api(server().url).post("/auth/logout", { refresh_token: rotated.body.refresh_token });
    expect(out.status).toBe(204);
    expect((await refreshJson(server().url, rotated.body.refresh_token)).status).toBe(400);
    expect((await refreshJson(server().url, session.refresh_token)).status).toBe(400);
    // Another session of the same user is a different family and goes on.
    const other = await login(server().url, DEMO.admin);
    expect((await refreshJson(server().url, other.refresh_token)).status).toBe(200);
  });

  it("answers logout without a token with 204", async () => {
    expect((await api(server().url).post("/auth/logout", {})).status).toBe(204);
    expect((await api(server().url).post("/auth/logout", { refresh_token: "unknown" })).status).toBe(204);
  });
});

describe.each(backends)("refresh token reuse without leeway (%s)", (backend) => {
  const clock = testClock();
  const server = useApi({ backend, clock, env: { ECFX_REFRESH_REUSE_LEEWAY: "0" } });

  it("treats a reused token as stolen: invalid_grant and the whole family revoked", async () => {
    const session = await login(server().url, DEMO.admin);
    const rotated = await refreshJson(server().url, session.refresh_token);
    expect(rotated.status).toBe(200);
    clock.advance(1_000);

    const reuse = await refreshJson(server().url, session.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body).toMatchObject({ error: "invalid_grant", message: "Your session has expired. You have been logged out." });
    // The newest token of the family, never used, no longer works either.
    const newest = await refreshJson(server().url, rotated.body.refresh_token);
    expect(newest.status).toBe(400);
    expect(newest.body.error).toBe("invalid_grant");
  });

  it("leaves the user's other families alone", async () => {
    const stolen = await login(server().url, DEMO.manager);
    const other = await login(server().url, DEMO.manager);
    expect((await refreshJson(server().url, stolen.refresh_token)).status).toBe(200);
    clock.advance(1_000);
    expect((await refreshJson(server().url, stolen.refresh_token)).status).toBe(400);
    expect((await refreshJson(server().url, other.refresh_token)).status).toBe(200);
  });
});
