import { describe, expect, it } from "vitest";
import { DEMO, api, backends, login, useApi } from "./harness";

const JSON_TYPE = { "content-type": "application/json" };
const PROTOBUF_TYPE = { "content-type": "application/x-protobuf" };

describe.each(backends)("error answers (%s)", (backend) => {
  const server = useApi({ backend });

  it("answers malformed JSON with 400, not 500", async () => {
    const client = api(server().url);
    for (const body of ["{", '{"username": ', "not json", "[1,", '{"a":1}}']) {
      const res = await client.request("POST", "/auth/login", { body, headers: JSON_TYPE });
      expect([body, res.status]).toEqual([body, 400]);
      expect(typeof res.body.message).toBe("string");
    }
    const empty = await client.request("POST", "/auth/login", { body: "", headers: JSON_TYPE });
    expect(empty.status).toBe(400);
  });

  it("answers an unknown route or method with 404", async () => {
    const admin = await login(server().url, DEMO.admin);
    const client = api(server().url, admin.access_token);
    for (const route of ["/api/v1/nothing-here", "/api/v2/firm", "/auth", "/"]) {
      const res = await client.get(route);
      expect([route, res.status]).toEqual([route, 404]);
      expect(res.body).toEqual({ message: "Not found." });
    }
    expect((await client.request("DELETE", "/api/v1/firm")).status).toBe(404);
  });

  it("answers a body of an unsupported type with a 4xx", async () => {
    const res = await api(server().url).request("POST", "/auth/login", {
      body: "<login/>",
      headers: { "content-type": "application/xml" },
    });
    expect(res.status).toBe(415);
  });

  it("sends no-store caching and JSON error bodies", async () => {
    const res = await api(server().url).get("/auth/me");
    expect(res.status).toBe(401);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("never answers 500 to bad input on any endpoint", async () => {
    const url = server().url;
    const admin = await login(url, DEMO.admin);
    const authed = api(url, admin.access_token);
    const anon = api(url);
    const firmId = (await authed.get("/api/v1/firm")).body.id as number;
    const weird = ["", " ", "\u0000", "%00", "'; drop table app_user; --", "\u{1F600}", "9".repeat(40), "-1", "NaN", "1e309", "../../etc/passwd"];
    const values: unknown[] = [null, true, 0, -1, 1e308, "", "x".repeat(10_000), [], {}, ["a", 1], { nested: { deep: [] } }, "\u0000"];

    const requests: { label: string; run: () => ReturnType<typeof anon.get> }[] = [];
    const add = (label: string, run: () => ReturnType<typeof anon.get>) => requests.push({ label, run });

    for (const value of values) {
      const v = JSON.stringify(value);
      add(`login username=${v}`, () => anon.post("/auth/login", { username: value, password: value }));
      add(`login as array ${v}`, () => anon.post("/auth/login", [value]));
      add(`refresh ${v}`, () => anon.post("/oauth/access_token", { grant_type: "refresh_token", refresh_token: value }));
      add(`refresh grant ${v}`, () => anon.post("/oauth/access_token", { grant_type: value, refresh_token: "x" }));
      add(`logout ${v}`, () => anon.post("/auth/logout", { refresh_token: value }));
      add(`forgot ${v}`, () => anon.post("/auth/password-forgot", { email: value }));
      add(`reset ${v}`, () => anon.post("/auth/password-reset", { token: value, password: value }));
      add(`change password ${v}`, () => authed.put(`/auth/${admin.user.id}/change-password`, { currentPassword: value, newPassword: value }));
      add(`firm save name=${v}`, () => authed.put(`/api/v1/firm/${firmId}`, { name: value, host_names: value, primary_color: value }));
      add(`firm save body ${v}`, () => authed.put(`/api/v1/firm/${firmId}`, value));
    }
    for (const w of weird) {
      const e = encodeURIComponent(w);
      add(`role ${w}`, () => authed.get(`/api/v1/user-security-role/${e}`));
      add(`outbox ${w}`, () => authed.get(`/api/v1/outbox/${e}`));
      add(`outbox search max=${w}`, () => authed.get(`/api/v1/outbox/search?max=${e}&offset=${e}`));
      for (const param of ["freeText", "max", "offset", "sort"]) {
        add(`user search ${param}=${w}`, () => authed.get(`/api/v1/user/search?${param}=${e}`));
      }
      add(`firm save id ${w}`, () => authed.put(`/api/v1/firm/${e}`, {}));
      add(`logo ${w}`, () => anon.get(`/api/v1/firm/logo.png?firm=${e}`));
      add(`public host=${w}`, () => anon.get(`/api/v1/firm/public?host=${e}`));
      add(`public firm=${w}`, () => anon.get(`/api/v1/firm/public?firm=${e}`));
      add(`change password id ${w}`, () => authed.put(`/auth/${e}/change-password`, {}));
      add(`bearer ${w}`, () => api(url, e).get("/auth/me"));
    }
    // Text fields a firm save stores as given: PostgreSQL text cannot hold a NUL character.
    const firm = (await authed.get("/api/v1/firm")).body as Record<string, unknown>;
    for (const field of [
      "web_preferences",
      "default_time_zone",
      "storage_policy_id",
      "default_email_template_id",
      "ignored_case_statuses",
      "entitled_features",
    ]) {
      const value = Array.isArray(firm[field]) ? ["a\u0000b"] : "a\u0000b";
      add(`firm save ${field} with NUL`, () => authed.put(`/api/v1/firm/${firmId}`, { ...firm, [field]: value }));
    }
    add("firm save with numbers out of range", () =>
      authed.put(`/api/v1/firm/${firmId}`, {
        ...firm,
        import_warning_threshold: 1e15,
        max_case_deletions_on_import: 2 ** 40,
        max_email_attachment_size: 1e300,
      }),
    );
    add("user search repeated params", () => authed.get("/api/v1/user/search?freeText=a&freeText=b&max=1&max=2"));
    add("protobuf garbage to firm save", () =>
      authed.request("PUT", `/api/v1/firm/${firmId}`, { body: new Uint8Array([0x0a, 0xff, 0xff, 0xff]), headers: PROTOBUF_TYPE }),
    );
    add("protobuf to login", () => anon.request("POST", "/auth/login", { body: new Uint8Array([1, 2, 3]), headers: PROTOBUF_TYPE }));
    add("protobuf to change password", () =>
      authed.request("PUT", `/auth/${admin.user.id}/change-password`, { body: new Uint8Array([0x12, 0x80]), headers: PROTOBUF_TYPE }),
    );
    add("form to refresh", () =>
      anon.request("POST", "/oauth/access_token", {
        body: "grant_type=refresh_token&refresh_token",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
    );
    add("huge JSON body", () => anon.request("POST", "/auth/login", { body: `{"username":"${"x".repeat(3 * 1024 * 1024)}"}`, headers: JSON_TYPE }));

    const failures: string[] = [];
    for (const { label, run } of requests) {
      const res = await run();
      if (res.status >= 500) failures.push(`${label} → ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    // The server is still answering normally afterwards.
    expect((await authed.get("/auth/me")).status).toBe(200);
  });
});
