import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET_KEPT } from "../../app/common/resources/types";
import { FILEVINE_WEB, type FileVineTestServer, startFileVineServer } from "../dms/filevine/filevine-server";
import { DEMO, api, backends, login } from "./harness";
import { type FilingBed, MATTER_KEY, apiPathOf, caseFolder, expectRefusalThenRequeue, expectThrottleHonoured, heldFor, startFilingBed } from "./dms-filing-bed";

// A real notice filed end to end into FileVine: the credential is made through its API (the
// personal access token and client secret sealed, never answered), named by a storage policy,
// and a notice on the policy's case is fetched from the court simulator and filed through the
// FileVine client into the project of the case's matter on a local FileVine that speaks
// FileVine's API v2. Throttling, a refusal no retry mends, and another firm's reach as well.

const KEY = "dms-filevine";

describe.each(backends)("a notice filed end to end into FileVine (%s)", (backend) => {
  let bed: FilingBed;
  let fileVine: FileVineTestServer;
  let credentialId: string;
  const db = () => bed.running.ctx.database.db;
  const filed = (caseNumber: string) => heldFor(fileVine, caseNumber);

  beforeAll(async () => {
    fileVine = await startFileVineServer();
    bed = await startFilingBed(backend, { ECFX_FILEVINE_BASE_URL: fileVine.origin });
  });

  afterAll(async () => {
    await bed?.close();
    await fileVine?.close();
  });

  it("keeps the credential's secrets sealed and files a notice's document into the matter's project with its hashtags and link", async () => {
    credentialId = await bed.createSealedCredential(KEY, { ...fileVine.credentialSettings(), billingItem: "ECF notice review | 0.1 | 300" });
    const caseNumber = "2:24-cv-601";
    const { caseId, policy } = await bed.caseFiledThrough(credentialId, caseNumber, {}, "Court Notices/{{case.case_number}}");
    await bed.sendNotice(caseNumber);
    await bed.settled();
    const itemId = await bed.itemOnCase(caseId, "succeeded");
    const record = await bed.recordOf(itemId);
    expect(record).toMatchObject({ status: "succeeded", what: "document", storage_policy_id: policy, error: null });

    const fetched = await bed.fetchedBytes(record.document_id!);
    const held = fileVine.documentsHeld().filter((document) => document.folder.at(-1) === caseFolder(caseNumber));
    expect(held).toHaveLength(1);
    const [document] = held;
    const project = fileVine.projectOf(MATTER_KEY)!;
    expect(document).toMatchObject({ projectId: project.id, folder: ["Court Notices", caseFolder(caseNumber)], name: `0 ${fetched.name}.pdf` });
    expect(document!.bytes.equals(fetched.bytes)).toBe(true);
    expect(document!.hashtags).toEqual(["ecf", "court-notice", `ecfx${String(record.id).replaceAll("-", "")}`]);
    expect(record.location).toBe(document!.id);
    expect(record.link).toBe(`${FILEVINE_WEB}/#/project/${project.id}/documents/${document!.id}`);
    const billed = fileVine.billingItems().filter((item) => item.description.includes(String(record.id)));
    expect(billed).toHaveLength(1);
    expect(billed[0]).toMatchObject({ projectId: project.id, quantity: 0.1, rate: 300 });
    expect(billed[0]!.description).toMatch(/^ECF notice review - 2:24-cv-601: /);
    expect(fileVine.contractViolations()).toEqual([]);
  });

  it("keeps a stored secret when an edit leaves it as shown, and still asks for one complete way of signing in", async () => {
    const path = `${apiPathOf(KEY)}/${credentialId}`;
    const kept = await bed.client.put(path, { hashtags: "ecf court-notice", personalAccessToken: SECRET_KEPT, clientSecret: SECRET_KEPT });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ personalAccessToken: SECRET_KEPT, clientSecret: SECRET_KEPT, clientId: fileVine.credentialSettings().clientId });
    const renamed = await bed.client.put(path, { name: "FileVine (renamed)" });
    expect(renamed.status).toBe(200);
    const emptied = await bed.client.put(path, { clientId: "" });
    expect(emptied.status).toBe(400);
    expect(emptied.body.fieldErrors.clientId).toEqual(["This field is required."]);
    const tested = await bed.client.post(`${path}/test-connection`);
    expect(tested.status).toBe(200);
    expect(tested.body.ok).toBe(true);

    // Spec §5: billing item fields are checked when the credential is saved, not first at filing.
    for (const billingItem of ["| x | y", "Review | many", "Review | 0.1 | 250 | extra"]) {
      const bad = await bed.client.put(path, { billingItem });
      expect(bad.status, billingItem).toBe(400);
      expect(bad.body.fieldErrors.billingItem[0], billingItem).toMatch(/^Enter the billing item as description \| hours \| rate/);
    }
    for (const billingItem of ["Court notice review", "Court notice review | 0.2", "Court notice review | 0.1 | 250", ""]) {
      expect((await bed.client.put(path, { billingItem })).status, billingItem).toBe(200);
    }
    // And when it is created: nothing is stored.
    const created = await bed.client.post(apiPathOf(KEY), { ...fileVine.credentialSettings(), name: "Billed wrong", billingItem: "| x | y" });
    expect(created.status).toBe(400);
    expect(created.body.fieldErrors.billingItem[0]).toMatch(/^Enter the billing item as description \| hours \| rate/);

    // The web address says the region: a Canadian firm's is accepted, an address that is not FileVine's is not.
    for (const subdomain of ["penafirm", "penafirm.filevineapp.com", "https://penafirm.filevineapp.ca"])
      expect((await bed.client.put(path, { subdomain })).status, subdomain).toBe(200);
    const foreign = await bed.client.put(path, { subdomain: "penafirm.example.com" });
    expect(foreign.status).toBe(400);
    expect(foreign.body.fieldErrors.subdomain[0]).toMatch(/^Enter your FileVine web address/);
    expect((await bed.client.put(path, { subdomain: fileVine.credentialSettings().subdomain })).status).toBe(200);

    const incomplete = await bed.client.post(apiPathOf(KEY), { name: "Half a key", api_key: "only-the-key" });
    expect(incomplete.status).toBe(400);
    expect(Object.keys(incomplete.body.fieldErrors).sort()).toEqual(["clientId", "clientSecret", "personalAccessToken"]);
  });

  it("signs in with an API key and secret through FileVine's older API when that is the credential's way", async () => {
    const keyCredential = await bed.createSealedCredential(KEY, { ...fileVine.keySettings(), name: "FileVine by key" });
    const tested = await bed.client.post(`${apiPathOf(KEY)}/${keyCredential}/test-connection`);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({
      ok: true,
      steps: [
        { step: "Sign in", ok: true },
        { step: "List projects", ok: true },
      ],
    });
    const wrong = await bed.client.put(`${apiPathOf(KEY)}/${keyCredential}`, { api_secret: "not-the-secret" });
    expect(wrong.status).toBe(200);
    const refused = await bed.client.post(`${apiPathOf(KEY)}/${keyCredential}/test-connection`);
    expect(refused.body.ok).toBe(false);
    expect(refused.body.steps[0].detail).toBe("Token generation failed: Invalid API key or hash");
    expect(fileVine.contractViolations()).toEqual([]);
  });

  it("waits as long as FileVine's Retry-After says when it throttles, then files on the next attempt", async () => {
    const caseNumber = "2:24-cv-611";
    const { caseId } = await bed.caseFiledThrough(credentialId, caseNumber);
    const filing = { caseId, caseNumber, held: () => filed(caseNumber), violations: () => fileVine.contractViolations() };
    await expectThrottleHonoured(bed, filing, (seconds) => fileVine.failNext(429, { retryAfterSeconds: seconds, count: 1, path: /^\/fv-app\/v2\/Documents$/ }));
  });

  it("fails a refusal no retry can mend at once, reports it with FileVine's reason, and files once requeued", async () => {
    const caseNumber = "2:24-cv-612";
    const { caseId } = await bed.caseFiledThrough(credentialId, caseNumber);
    const filing = { caseId, caseNumber, held: () => filed(caseNumber), violations: () => fileVine.contractViolations() };
    const refuse = () => fileVine.failNext(403, { path: /^\/fv-app\/v2\/Documents$/ });
    await expectRefusalThenRequeue(bed, filing, refuse, /FileVine refused the upload: FileVine failed with 403/);
  });

  it("fails at once when FileVine has no project for the case's matter", async () => {
    const other = await bed.create("/api/v1/matter", {
      name: "No project yet",
      unique_key: "M-NONE",
      client_id: (await db().selectFrom("client").select("id").where("unique_key", "=", "C-501").executeTakeFirstOrThrow()).id,
    });
    const caseNumber = "2:24-cv-613";
    const { caseId } = await bed.caseFiledThrough(credentialId, caseNumber);
    await bed.client.put(`/api/v1/case/${caseId}`, { matter_id: other });
    await bed.sendNotice(caseNumber);
    const itemId = await bed.itemOnCase(caseId, "failed");
    expect((await bed.recordOf(itemId)).error).toMatch(/FileVine has no project for matter number "M-NONE"/);
    expect(fileVine.contractViolations()).toEqual([]);
  });

  it("keeps the credential from another firm", async () => {
    const other = api(bed.running.url, (await login(bed.running.url, DEMO.secondAdmin)).access_token);
    const read = await other.get(`${apiPathOf(KEY)}/${credentialId}`);
    expect(read.status).toBe(404);
    expect(read.text).not.toContain(String(fileVine.credentialSettings().clientId));
    const list = await other.get(apiPathOf(KEY));
    expect(JSON.stringify(list.body)).not.toContain(credentialId);
  });
});
