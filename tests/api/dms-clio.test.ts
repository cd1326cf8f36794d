import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClioTestServer, startClioServer } from "../dms/clio/clio-server";
import { DEMO, api, backends, login } from "./harness";
import { type FilingBed, apiPathOf, caseFolder, expectRefusalThenRequeue, expectThrottleHonoured, heldFor, startFilingBed } from "./dms-filing-bed";

// A real notice filed end to end into Clio: the credential is created through its API (secret
// sealed, never answered), connected the way a person does it (the consent address with a signed
// state, Clio's code handed back through the callback), named by a storage policy, and the
// notice's document is filed into the firm's matter in the local Clio. Throttling waits as long
// as Clio asks; a refusal fails at once, is reported and files once requeued; another firm can
// neither read the credential nor complete its connection.

const CLIO = apiPathOf("dms-clio");

describe.each(backends)("a notice filed end to end into Clio (%s)", (backend) => {
  let bed: FilingBed;
  let clio: ClioTestServer;
  let credentialId: string;
  const db = () => bed.running.ctx.database.db;

  /** The consent page's answer for `client`: Clio sends the browser back with a code and the state. */
  const consent = async (client: ReturnType<typeof api>, id: string) => {
    const asked = await client.post(`${CLIO}/${id}/authorization`, {});
    expect(asked.status).toBe(200);
    const url = new URL(asked.body.url as string);
    expect(url.origin).toBe(clio.origin);
    expect(url.searchParams.get("redirect_uri")).toBe(`${bed.running.ctx.config.publicUrl}/oauth/clio/callback`);
    const approved = await fetch(url, { redirect: "manual" });
    const back = new URL(approved.headers.get("location")!);
    return { code: back.searchParams.get("code")!, state: back.searchParams.get("state")! };
  };

  beforeAll(async () => {
    clio = await startClioServer();
    bed = await startFilingBed(backend, { ECFX_CLIO_BASE_URL: clio.origin });
  });

  afterAll(async () => {
    await bed?.close();
    await clio?.close();
  });

  it("keeps the secret sealed, says it is not connected, connects through the callback, and files into the matter", async () => {
    credentialId = await bed.createSealedCredential("dms-clio", clio.credentialSettings());
    expect((await bed.client.get(`${CLIO}/${credentialId}/authorization`)).body).toEqual({ connected: false, connectedAt: null });
    const untested = await bed.client.post(`${CLIO}/${credentialId}/test-connection`, {});
    expect(untested.body.ok).toBe(false);
    expect(untested.body.steps[0].detail).toMatch(/^Not connected to Clio yet/);

    const { code, state } = await consent(bed.client, credentialId);
    const done = await bed.client.post("/api/v1/dms-authorization/callback", { system: "clio", code, state });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ resource: "dms-clio", id: credentialId, connected: true });
    const token = await db().selectFrom("dms_credential_token").select("sealed").where("credential_id", "=", credentialId).executeTakeFirstOrThrow();
    expect(token.sealed).toMatch(/^sb1\./);
    expect((await bed.client.post(`${CLIO}/${credentialId}/test-connection`, {})).body.ok).toBe(true);
    // A code is good once.
    expect((await bed.client.post("/api/v1/dms-authorization/callback", { system: "clio", code, state })).status).toBe(400);

    const caseNumber = "2:24-cv-601";
    const { caseId } = await bed.caseFiledThrough(credentialId, caseNumber);
    await bed.sendNotice(caseNumber);
    await bed.settled();
    const itemId = await bed.itemOnCase(caseId, "succeeded");
    const record = await bed.recordOf(itemId);
    const fetched = await bed.fetchedBytes(record.document_id!);
    const held = clio.held().filter((d) => d.folder.at(-1) === caseFolder(caseNumber));
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ matterId: 5001, folder: [caseFolder(caseNumber)], name: `0 ${fetched.name}.pdf`, fullyUploaded: true });
    expect(held[0]!.bytes.equals(fetched.bytes)).toBe(true);
    expect(record.link).toBe(held[0]!.link);
    expect(clio.contractViolations()).toEqual([]);
  });

  it("makes one calendar entry on the matter for a hearing the docket text sets, at the firm's local time", async () => {
    const caseNumber = "2:24-cv-613";
    const { caseId } = await bed.caseFiledThrough(credentialId, caseNumber);
    const before = clio.calendarEntries().length;
    // The court's own wording, ahead of the fixture's docket text (quoted-printable lines stay short).
    const hearing = "<b>Motion Hearing set for 3/15/2027 10:00 AM in Ctrm 106 =\nbefore Judge Rodney Gilstrap. MOTION to Dism=";
    await bed.sendNotice(caseNumber, (raw) => raw.replace("<b>MOTION to Dism=", hearing));
    await bed.settled();
    await bed.itemOnCase(caseId, "succeeded");
    const entries = clio.calendarEntries().slice(before);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ matter: { id: 5001 }, all_day: false });
    expect(entries[0]!.start_at).toMatch(/^2027-03-15T10:00:00[+-]\d{2}:\d{2}$/);
    expect(entries[0]!.summary).toMatch(/Motion Hearing/);
    expect(clio.contractViolations()).toEqual([]);
  });

  it("refuses bad, foreign and forged callbacks with a clear 4xx", async () => {
    const other = api(bed.running.url, (await login(bed.running.url, DEMO.secondAdmin)).access_token);
    const { code, state } = await consent(bed.client, credentialId);
    const foreign = await other.post("/api/v1/dms-authorization/callback", { system: "clio", code, state });
    expect(foreign.status).toBe(403);
    const forged = await bed.client.post("/api/v1/dms-authorization/callback", { system: "clio", code, state: `${state.slice(0, -4)}AAAA` });
    expect(forged.status).toBe(400);
    expect((await bed.client.post("/api/v1/dms-authorization/callback", { system: "clio" })).status).toBe(400);
    expect((await bed.client.post("/api/v1/dms-authorization/callback", { system: "dropbox", code, state })).status).toBe(403);
    // Another firm's user cannot even ask for the consent address or read whether it is connected.
    expect((await other.post(`${CLIO}/${credentialId}/authorization`, {})).status).toBe(404);
    expect((await other.get(`${CLIO}/${credentialId}/authorization`)).status).toBe(404);
  });

  it("waits as long as Clio's Retry-After says when it throttles, then files on the next attempt", async () => {
    const caseNumber = "2:24-cv-611";
    const { caseId } = await bed.caseFiledThrough(credentialId, caseNumber);
    const filing = { caseId, caseNumber, held: () => heldFor(clio, caseNumber), violations: () => clio.contractViolations() };
    await expectThrottleHonoured(bed, filing, (seconds) => clio.failNext(429, { retryAfterSeconds: seconds, count: 1, path: /^\/uploads\// }));
    // The half-uploaded copy of the throttled attempt was replaced, not left beside the filed one.
    expect(clio.held().filter((d) => d.folder.at(-1) === caseFolder(caseNumber))).toHaveLength(1);
  });

  it("fails a refusal no retry can mend at once, reports it with Clio's reason, and files once requeued", async () => {
    const caseNumber = "2:24-cv-612";
    const { caseId } = await bed.caseFiledThrough(credentialId, caseNumber);
    const filing = { caseId, caseNumber, held: () => heldFor(clio, caseNumber), violations: () => clio.contractViolations() };
    await expectRefusalThenRequeue(bed, filing, () => clio.failNext(403, { path: /^\/api\/v4\/folders\.json$/ }), /You do not have permission to do that/);
  });

  it("keeps the credential from another firm", async () => {
    const other = api(bed.running.url, (await login(bed.running.url, DEMO.secondAdmin)).access_token);
    const read = await other.get(`${CLIO}/${credentialId}`);
    expect(read.status).toBe(404);
    expect(read.text).not.toContain(clio.credentialSettings().client_secret as string);
    expect((await other.post(`${CLIO}/${credentialId}/test-connection`, {})).status).toBe(404);
  });
});
