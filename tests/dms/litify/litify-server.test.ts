import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LITIFY_CLIENT_ID, LITIFY_CLIENT_SECRET, type LitifyTestServer, MATTER_COLUMN, startLitifyServer } from "./litify-server";

// The local org refuses what Salesforce's REST contract does not allow, as Salesforce would, and
// records it: a client that strays from the contract fails its tests.

let server: LitifyTestServer;
let bearer: string;
let matterId: string;

beforeAll(async () => {
  server = await startLitifyServer();
  matterId = server.addMatter({ Name: "Peña v. Bluebonnet", [MATTER_COLUMN]: "M-501" });
  const form = new URLSearchParams({ grant_type: "client_credentials", client_id: LITIFY_CLIENT_ID, client_secret: LITIFY_CLIENT_SECRET });
  const token = await fetch(`${server.origin}/services/oauth2/token`, { method: "POST", body: form });
  bearer = ((await token.json()) as { access_token: string }).access_token;
});
afterAll(async () => {
  await server.close();
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${server.origin}/services/data/v62.0${path}`, { ...init, headers: { authorization: `Bearer ${bearer}`, ...init.headers } });
const query = (soql: string) => api(`/query?q=${encodeURIComponent(soql)}`);

describe("the local Salesforce org", () => {
  it("answers the contract's queries and inserts", async () => {
    const found = await query(`SELECT Id, Name FROM litify_pm__Matter__c WHERE ${MATTER_COLUMN} = 'M-501' LIMIT 2`);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ totalSize: 1, done: true, records: [{ Id: matterId, Name: "Peña v. Bluebonnet" }] });
    const fields = { Title: "T", PathOnClient: "t.pdf", FirstPublishLocationId: matterId, VersionData: Buffer.from("%PDF").toString("base64") };
    const inserted = await api("/sobjects/ContentVersion", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(fields) });
    expect(inserted.status).toBe(201);
    expect(await inserted.json()).toMatchObject({ success: true, errors: [] });
    expect(server.contractViolations()).toEqual([]);
  });

  it("refuses and records what the contract does not allow", async () => {
    const cases: [Promise<Response>, number, string][] = [
      [query(`SELECT Id FROM litify_pm__Matter__c WHERE Name = 'O'Brien'`), 400, "MALFORMED_QUERY"],
      [fetch(`${server.origin}/services/data/v62.0/query?q=SELECT+Id+FROM+ContentVersion`), 401, "INVALID_SESSION_ID"],
      [
        api("/sobjects/ContentVersion", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ PathOnClient: "x.pdf", FirstPublishLocationId: matterId }),
        }),
        400,
        "REQUIRED_FIELD_MISSING",
      ],
      [
        api("/sobjects/ContentVersion", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ PathOnClient: "x.pdf", FirstPublishLocationId: matterId, VersionData: "AA==", Owner: "x" }),
        }),
        400,
        "INVALID_FIELD",
      ],
      [
        api("/sobjects/ContentVersion", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ PathOnClient: "x.pdf", FirstPublishLocationId: "a0Lnope", VersionData: "AA==" }),
        }),
        400,
        "FIELD_INTEGRITY_EXCEPTION",
      ],
      [api("/sobjects/Account", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }), 404, "NOT_FOUND"],
    ];
    const multipart = `--b\r\nContent-Disposition: form-data; name="VersionData"; filename="x.pdf"\r\n\r\n%PDF\r\n--b\r\nContent-Disposition: form-data; name="entity_content"\r\nContent-Type: application/json\r\n\r\n{"PathOnClient":"x.pdf"}\r\n--b--\r\n`;
    cases.push([
      api("/sobjects/ContentVersion", { method: "POST", headers: { "content-type": 'multipart/form-data; boundary="b"' }, body: multipart }),
      400,
      "INVALID_MULTIPART_REQUEST",
    ]);
    for (const [answer, status, code] of cases) {
      const response = await answer;
      expect(response.status, code).toBe(status);
      expect(await response.json()).toEqual([expect.objectContaining({ errorCode: code })]);
    }
    expect(server.contractViolations()).toHaveLength(cases.length);
    // A column the org lacks is the firm's mistake: answered as Salesforce does, not held against the client.
    const column = await query("SELECT Id, Matter_No__c FROM litify_pm__Matter__c LIMIT 5");
    expect(column.status).toBe(400);
    expect(await column.json()).toEqual([expect.objectContaining({ errorCode: "INVALID_FIELD" })]);
    expect(server.contractViolations()).toHaveLength(cases.length);
  });
});
