import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FILEVINE_MATTER_PROJECT, type FileVineTestServer, startFileVineServer } from "./filevine-server";

// The local FileVine holds requests to FileVine's contract: what the client tests pass through is
// only worth something if a request off the contract is refused and recorded.

let server: FileVineTestServer;
beforeAll(async () => {
  server = await startFileVineServer();
});
afterAll(async () => {
  await server.close();
});

async function signIn(): Promise<{ authorization: string; "x-fv-orgid": string; "x-fv-userid": string }> {
  const settings = server.credentialSettings() as Record<string, string>;
  const token = await fetch(`${server.origin}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "personal_access_token",
      token: settings.personalAccessToken!,
      client_id: settings.clientId!,
      client_secret: settings.clientSecret!,
      scope: "fv.api.gateway.access tenant filevine.v2.api.*",
    }),
  });
  expect(token.status).toBe(200);
  const { access_token } = (await token.json()) as { access_token: string };
  const who = (await (
    await fetch(`${server.origin}/fv-app/v2/utils/GetUserOrgsWithToken`, { method: "POST", headers: { authorization: `Bearer ${access_token}` } })
  ).json()) as {
    user: { userId: { native: number } };
    orgs: { orgId: number }[];
  };
  return { authorization: `Bearer ${access_token}`, "x-fv-orgid": String(who.orgs[0]!.orgId), "x-fv-userid": String(who.user.userId.native) };
}

describe("the local FileVine's contract", () => {
  it("refuses and records requests off the contract", async () => {
    const headers = await signIn();
    const projects = await fetch(`${server.origin}/fv-app/v2/Projects?number=${FILEVINE_MATTER_PROJECT.number}`, { headers });
    expect(projects.status).toBe(200);
    expect(server.contractViolations()).toEqual([]);

    const cases: [string, RequestInit][] = [
      ["/fv-app/v2/Projects", { headers: { authorization: headers.authorization } }],
      ["/fv-app/v2/Projects?limit=5000", { headers }],
      ["/fv-app/v2/Projects?colour=blue", { headers }],
      [
        "/fv-app/v2/Documents",
        { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ filename: "", size: 3 }) },
      ],
      [
        "/fv-app/v2/Folders",
        { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ projectId: 1, name: "X" }) },
      ],
      ["/fv-app/v2/Widgets", { headers }],
      ["/connect/token", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }],
      ["/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ mode: "key", apiKey: "k" }) }],
    ];
    for (const [path, init] of cases) {
      const answer = await fetch(`${server.origin}${path}`, init);
      expect(answer.status, path).toBe(400);
    }
    expect(server.contractViolations().length).toBeGreaterThanOrEqual(cases.length);
    expect(server.contractViolations().join("\n")).toMatch(/x-fv-orgid header is required/);
    expect(server.contractViolations().join("\n")).toMatch(/Get Project List: limit/);
    expect(server.contractViolations().join("\n")).toMatch(/Create Folder: projectid/);
  });
});
