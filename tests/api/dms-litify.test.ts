import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MATTER_COLUMN, type LitifyTestServer, startLitifyServer } from "../dms/litify/litify-server";
import { DEMO, api, backends, login } from "./harness";
import {
  type FilingBed,
  MATTER_KEY,
  MATTER_NAME,
  apiPathOf,
  caseFolder,
  expectRefusalThenRequeue,
  expectThrottleHonoured,
  startFilingBed,
} from "./dms-filing-bed";

// A real notice filed end to end into Litify: the credential is created through its API (client
// secret and password sealed, never answered), a storage policy names it, and the notice's
// document is fetched from the court simulator and filed as a Salesforce File on the Litify
// matter whose matter column holds the firm's matter number, in a local org that speaks
// Salesforce's REST contract (sign-in at ECFX_SALESFORCE_LOGIN_URL, the instance allowed).

const PROPERTIES = { Matter: "{{matter.unique_key}}", Source: "ECFX" };

describe.each(backends)("a notice filed end to end into Litify (%s)", (backend) => {
  let bed: FilingBed;
  let server: LitifyTestServer;
  let credentialId: string;
  let matterId: string;
  const db = () => bed.running.ctx.database.db;
  /** What the org holds on the matter for the case. */
  const heldFor = (caseNumber: string) => server.documents().filter((d) => d.folder[0] === MATTER_NAME && d.folder.at(-1) === caseFolder(caseNumber));

  beforeAll(async () => {
    server = await startLitifyServer();
    matterId = server.addMatter({ Name: MATTER_NAME, [MATTER_COLUMN]: MATTER_KEY });
    server.addMatter({ Name: "Another matter", [MATTER_COLUMN]: "M-999" });
    bed = await startFilingBed(backend, { ECFX_SALESFORCE_LOGIN_URL: server.origin, ECFX_DMS_ALLOWED_ORIGINS: server.origin });
  });

  afterAll(async () => {
    await bed?.close();
    await server?.close();
  });

  it("keeps the credential's secrets sealed and files a notice's document on the matter, with its link", async () => {
    credentialId = await bed.createSealedCredential("dms-litify", server.credentialSettings());
    const caseNumber = "2:24-cv-521";
    const { caseId, policy } = await bed.caseFiledThrough(credentialId, caseNumber, PROPERTIES);
    await bed.sendNotice(caseNumber);
    await bed.settled();
    const itemId = await bed.itemOnCase(caseId, "succeeded");
    const record = await bed.recordOf(itemId);
    expect(record).toMatchObject({ status: "succeeded", what: "document", storage_policy_id: policy, error: null });

    const fetched = await bed.fetchedBytes(record.document_id!);
    const held = heldFor(caseNumber);
    expect(held).toHaveLength(1);
    const [document] = held;
    expect(document!.folder).toEqual([MATTER_NAME, caseFolder(caseNumber)]);
    expect(document!.name).toBe(`0 ${fetched.name}.pdf`);
    expect(document!.bytes.equals(fetched.bytes)).toBe(true);
    expect(document!.properties).toEqual({ Matter: MATTER_KEY, Source: "ECFX" });
    const version = server.versions().at(-1)!;
    expect(version.FirstPublishLocationId).toBe(matterId);
    expect(record.location).toBe(version.ContentDocumentId);
    expect(record.link).toBe(`${server.origin}/lightning/r/ContentDocument/${version.ContentDocumentId}/view`);
    expect(record.link).toBe(document!.link);
    expect(server.tokenGrants().map((g) => g.grant)).toEqual(["password"]);
    // The session is kept for the next filing, sealed: no part of it reads in the database.
    const token = await db().selectFrom("dms_credential_token").select("sealed").where("credential_id", "=", credentialId).executeTakeFirstOrThrow();
    expect(token.sealed).toMatch(/^sb1\./);
    expect(token.sealed).not.toContain("00D5e0000000ECFX");
    expect(token.sealed).not.toContain(server.origin);
    expect(server.contractViolations()).toEqual([]);
  });

  it("tests the credential's connection through the API: signed in, matters read", async () => {
    const before = server.versions().length;
    const res = await bed.client.post(`${apiPathOf("dms-litify")}/${credentialId}/test-connection`);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.steps.map((s: { step: string }) => s.step)).toEqual(["Sign in", "Find matters"]);
    expect(server.versions().length).toBe(before);
  });

  it("waits as long as Salesforce's Retry-After says when it throttles, then files on the next attempt", async () => {
    const caseNumber = "2:24-cv-522";
    const { caseId } = await bed.caseFiledThrough(credentialId, caseNumber, PROPERTIES);
    const filing = { caseId, caseNumber, held: () => heldFor(caseNumber), violations: () => server.contractViolations() };
    await expectThrottleHonoured(bed, filing, (seconds) => server.failNext(429, { retryAfterSeconds: seconds, count: 1, path: /\/sobjects\/ContentVersion$/ }));
  });

  it("fails a refusal no retry can mend at once, reports it with Salesforce's reason, and files once requeued", async () => {
    const caseNumber = "2:24-cv-523";
    const { caseId } = await bed.caseFiledThrough(credentialId, caseNumber, PROPERTIES);
    const filing = { caseId, caseNumber, held: () => heldFor(caseNumber), violations: () => server.contractViolations() };
    await expectRefusalThenRequeue(bed, filing, () => server.failNext(403, { path: /\/sobjects\/ContentVersion$/ }), /INSUFFICIENT_ACCESS/);
  });

  it("refuses a credential whose matter column is no field API name, with a clear message", async () => {
    const res = await bed.client.post(apiPathOf("dms-litify"), { name: "Broken", ...server.credentialSettings(), matter_column_name: "Name' OR Name != '" });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors.matter_column_name).toEqual([
      "Enter a field API name such as litify_pm__Display_Name__c: letters, digits and underscores, parts joined by a dot",
    ]);
  });

  it("keeps the firm's Litify credential from another firm: not readable, not named by its policies", async () => {
    const other = api(bed.running.url, (await login(bed.running.url, DEMO.secondAdmin)).access_token);
    const read = await other.get(`${apiPathOf("dms-litify")}/${credentialId}`);
    expect(read.status).toBe(404);
    expect(read.text).not.toContain(server.credentialSettings().client_id as string);
    const policy = await other.post("/api/v1/storage-policy", {
      name: "Borrowed Litify",
      dms_credential_id: credentialId,
      store_documents: true,
      document_path: "{{case.case_number}}",
    });
    expect(policy.status).toBe(400);
    expect(policy.body.fieldErrors.dms_credential_id).toEqual(["Pick an existing entry."]);
  });
});
