import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProLawTestServer, startProLawServer } from "../dms/prolaw/prolaw-server";
import { DEMO, api, backends, login } from "./harness";
import { type FilingBed, MATTER_KEY, apiPathOf, caseFolder, expectRefusalThenRequeue, expectThrottleHonoured, heldFor, startFilingBed } from "./dms-filing-bed";

// A real notice filed end to end into ProLaw: the credential is created through its API (the
// API key sealed, never answered), named by a storage policy, and a notice on the policy's case
// is fetched from the court simulator and filed through the ProLaw client into the local ProLaw
// on the firm's matter M-501, which speaks the contract of docs/dms/prolaw.md.

const PROPERTIES = { DocumentType: "Pleading", CaseNumber: "{{case.case_number}}" };

describe.each(backends)("a notice filed end to end into ProLaw (%s)", (backend) => {
  let bed: FilingBed;
  let proLaw: ProLawTestServer;
  let credentialId = "";

  beforeAll(async () => {
    proLaw = await startProLawServer();
    // ProLaw's base URL is the credential's own (the firm's server): the operator allows its origin.
    bed = await startFilingBed(backend, { ECFX_DMS_ALLOWED_ORIGINS: proLaw.origin });
  });

  afterAll(async () => {
    await bed?.close();
    await proLaw?.close();
  });

  it("keeps the API key sealed and files a notice's document on the matter with its profile and link", async () => {
    credentialId = await bed.createSealedCredential("dms-prolaw", { ...proLaw.credentialSettings(), add_parent_id: true });
    const caseNumber = "2:24-cv-601";
    const { caseId, policy } = await bed.caseFiledThrough(credentialId, caseNumber, PROPERTIES);
    await bed.sendNotice(caseNumber);
    await bed.settled();
    const itemId = await bed.itemOnCase(caseId, "succeeded");
    const record = await bed.recordOf(itemId);
    expect(record).toMatchObject({ status: "succeeded", what: "document", storage_policy_id: policy, error: null });

    const fetched = await bed.fetchedBytes(record.document_id!);
    const held = heldFor(proLaw, caseNumber);
    expect(held).toHaveLength(1);
    const [document] = held;
    expect(document!.folder).toEqual([caseFolder(caseNumber)]);
    expect(document!.name).toBe(`0 ${fetched.name}.pdf`);
    expect(document!.bytes.equals(fetched.bytes)).toBe(true);
    expect(document!.properties).toMatchObject({ Matter: MATTER_KEY, DocumentType: "Pleading", CaseNumber: caseNumber, ParentMattersId: "MT-0000-0500" });
    expect(document!.properties.ExternalReference).toMatch(new RegExp(`^ecfx:${record.id as string}:[0-9a-f]{64}$`));
    expect(record.location).toBe(`${MATTER_KEY}/${caseFolder(caseNumber)}/${document!.name}`);
    expect(record.link).toBe(document!.link);
    expect(proLaw.contractViolations()).toEqual([]);

    // "Test connection" on the credential's page reaches the same server with the sealed key.
    const tested = await bed.client.post(`${apiPathOf("dms-prolaw")}/${credentialId}/test-connection`, {});
    expect(tested.status).toBe(200);
    expect(tested.body.ok).toBe(true);
    expect(JSON.stringify(tested.body)).not.toContain(String(proLaw.credentialSettings().api_key));
  });

  it("waits as long as ProLaw's Retry-After says when it throttles, then files on the next attempt", async () => {
    const caseNumber = "2:24-cv-602";
    const { caseId } = await bed.caseFiledThrough(credentialId, caseNumber, PROPERTIES);
    const filing = { caseId, caseNumber, held: () => heldFor(proLaw, caseNumber), violations: () => proLaw.contractViolations() };
    await expectThrottleHonoured(bed, filing, (seconds) => proLaw.failNext(429, { retryAfterSeconds: seconds, count: 1, path: /\/documents$/ }));
  });

  it("fails a refusal no retry can mend at once, reports it with ProLaw's reason, and files once requeued", async () => {
    const caseNumber = "2:24-cv-603";
    const { caseId } = await bed.caseFiledThrough(credentialId, caseNumber, PROPERTIES);
    const filing = { caseId, caseNumber, held: () => heldFor(proLaw, caseNumber), violations: () => proLaw.contractViolations() };
    await expectRefusalThenRequeue(bed, filing, () => proLaw.failNext(403, { path: /\/documents$/ }), /no rights to add documents to this matter/);
  });

  it("fails at once, naming the matter, when ProLaw knows no matter by its number or reference", async () => {
    const caseNumber = "2:24-cv-604";
    const { caseId } = await bed.caseFiledThrough(credentialId, caseNumber, PROPERTIES);
    proLaw.renumberMatter(MATTER_KEY, "M-501-OLD");
    try {
      await bed.sendNotice(caseNumber);
      const itemId = await bed.itemOnCase(caseId, "failed");
      const record = await bed.recordOf(itemId);
      expect(record).toMatchObject({ status: "failed", attempts: 1 });
      expect(record.error).toContain(`ProLaw has no matter with the number ${MATTER_KEY} (matter "Peña v. Bluebonnet")`);
      expect(heldFor(proLaw, caseNumber)).toEqual([]);
    } finally {
      proLaw.renumberMatter("M-501-OLD", MATTER_KEY);
    }
    expect(proLaw.contractViolations()).toEqual([]);
  });

  it("keeps the firm's ProLaw credential from another firm: not readable, not named by its policies", async () => {
    const other = api(bed.running.url, (await login(bed.running.url, DEMO.secondAdmin)).access_token);
    const read = await other.get(`${apiPathOf("dms-prolaw")}/${credentialId}`);
    expect(read.status).toBe(404);
    expect(read.text).not.toContain(String(proLaw.credentialSettings().api_key));
    const tested = await other.post(`${apiPathOf("dms-prolaw")}/${credentialId}/test-connection`, {});
    expect(tested.status).toBe(404);
    const policy = await other.post("/api/v1/storage-policy", {
      name: "Borrowed ProLaw",
      dms_credential_id: credentialId,
      store_documents: true,
      document_path: "{{case.case_number}}",
    });
    expect(policy.status).toBe(400);
    expect(policy.body.fieldErrors.dms_credential_id).toEqual(["Pick an existing entry."]);
  });
});
