import { describe, expect, it } from "vitest";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

// A body nested without end is refused with 400 where it is parsed, before any step walks it
// (the control-character step, validation): with a token and without, whatever the route.

const DEEP = 100_000;
const NESTED_TOO_DEEPLY = "The request's data is nested too deeply.";

const bodies: [string, string][] = [
  ["arrays", "[".repeat(DEEP) + "]".repeat(DEEP)],
  ["objects", '{"a":'.repeat(DEEP) + "1" + "}".repeat(DEEP)],
  ["unclosed arrays", "[".repeat(DEEP)],
];

describe.each(backends)("nested request bodies (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);

  it.each(bodies)("refuses JSON %s 100,000 levels deep with 400, without a token", async (_name, body) => {
    for (const route of ["/auth/login", "/auth/password-forgot", "/api/v1/client"]) {
      const res = await api(server().url).request("POST", route, { body, headers: { "content-type": "application/json" } });
      expect([route, res.status, res.body?.message]).toEqual([route, 400, NESTED_TOO_DEEPLY]);
    }
  });

  it.each(bodies)("refuses JSON %s 100,000 levels deep with 400, with a token", async (_name, body) => {
    const admin = api(server().url, (await sessionOf(DEMO.admin)).access_token);
    for (const [method, route] of [
      ["POST", "/api/v1/client"],
      ["PATCH", "/api/v1/client/some-id"],
      ["PUT", "/api/v1/firm/1"],
    ]) {
      const res = await admin.request(method!, route!, { body, headers: { "content-type": "application/json; charset=utf-8" } });
      expect([route, res.status, res.body?.message]).toEqual([route, 400, NESTED_TOO_DEEPLY]);
    }
  });

  it("counts only the body's own nesting, never brackets or quotes inside its strings", async () => {
    const admin = api(server().url, (await sessionOf(DEMO.admin)).access_token);
    const created = await admin.post("/api/v1/client", { name: `"${"[{".repeat(90)} Bracket Holdings`, unique_key: "C-BRACKETS" });
    expect(created.status, created.text).toBe(201);
  });

  it("refuses a protobuf body of groups nested 100,000 deep with 400", async () => {
    const admin = api(server().url, (await sessionOf(DEMO.admin)).access_token);
    // Field 3, wire type 3 (start of a group), again and again.
    const res = await admin.request("POST", "/api/v1/user-security-role", {
      body: new Uint8Array(DEEP).fill(0x1b),
      headers: { "content-type": "application/x-protobuf" },
    });
    expect(res.status).toBe(400);
  });
});
