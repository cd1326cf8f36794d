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
    User: { UserId: { Native: number } };
    Orgs: { OrgId: number }[];
  };
  return { authorization: `Bearer ${access_token}`, "x-fv-orgid": String(who.Orgs[0]!.OrgId), "x-fv-userid": String(who.User.UserId.Native) };
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
    expect(server.contractViolations().join("\n")).toMatch(/Create Folder: parentid/);
  });

  it("holds the add-to-project, folder and billing calls to the bodies FileVine's reference declares", async () => {
    const headers = { ...(await signIn()), "content-type": "application/json" };
    const project = server.projectOf(FILEVINE_MATTER_PROJECT.number)!;
    const post = (path: string, body: unknown, method = "POST") =>
      fetch(`${server.origin}/fv-app/v2${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const before = server.contractViolations().length;

    // The bodies this client sent before they were checked against FileVine's reference: each refused.
    const oldFolder = await post("/Folders", { projectId: { native: project.id }, parentId: { native: project.rootFolderId }, name: "Old" });
    expect(oldFolder.status).toBe(400);
    const oldAdd = await post(`/Projects/${project.id}/Documents/1`, {
      documentId: { native: 1 },
      projectId: { native: project.id },
      folderId: { native: project.rootFolderId },
      filename: "a.pdf",
      size: 3,
      uploadDate: new Date().toISOString(),
      hashtags: ["ecf"],
    });
    expect(oldAdd.status).toBe(400);
    const oldBilling = await post(`/projects/${project.id}/BillingItem`, {
      billingType: "Time",
      date: new Date().toISOString(),
      description: "Review",
      quantity: 0.1,
      rate: 300,
      isBillable: true,
    });
    expect(oldBilling.status).toBe(400);
    const problems = server.contractViolations().slice(before).join("\n");
    expect(problems).toMatch(/Create Folder: isarchived Required/);
    expect(problems).toMatch(/Add Document to Project: the operation takes no body/);
    expect(problems).toMatch(/Create a Billing Item: ischargeable Required/);
    expect(problems).toMatch(/Create a Billing Item: date a date as YYYY-MM-DD/);

    // A time entry without its timekeeper is refused too ("UserID … required for Time entries").
    const dated = {
      BillingType: "Time",
      Date: new Date().toISOString().slice(0, 10),
      Description: "Review",
      Quantity: 0.1,
      IsBillable: false,
      IsChargeable: false,
    };
    expect((await post(`/projects/${project.id}/BillingItem`, dated)).status).toBe(400);
    expect(server.contractViolations().slice(before).join("\n")).toMatch(/Create a Billing Item: userid a Time entry names its timekeeper/);

    // The bodies the reference declares pass, unrecorded.
    const refused = server.contractViolations().length;
    const folder = await post("/Folders", { ProjectId: { Native: project.id }, ParentId: { Native: project.rootFolderId }, Name: "New", IsArchived: false });
    expect(folder.status).toBe(200);
    expect(((await folder.json()) as { FolderId: { Native: number } }).FolderId.Native).toBeGreaterThan(0);
    const billing = await post(`/projects/${project.id}/BillingItem`, { ...dated, UserID: Number(headers["x-fv-userid"]) });
    expect(billing.status).toBe(200);
    expect(server.contractViolations()).toHaveLength(refused);
  });
});
