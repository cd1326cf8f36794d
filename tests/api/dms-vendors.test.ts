import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VendorTestServer } from "../dms/vendor-test-server";
import { startBoxServer } from "../dms/box/box-server";
import { startDropboxServer } from "../dms/dropbox/dropbox-server";
import { startSharePointCloudServer } from "../dms/sharepoint/sharepoint-cloud-server";
import { startSharePointOnPremServer } from "../dms/sharepoint/sharepoint-on-prem-server";
import { startIManageServer } from "../dms/imanage/imanage-server";
import { startNetDocumentsServer } from "../dms/netdocuments/netdocuments-server";
import { boomiDocument, noticeSummary } from "../../server/webhooks/webhook-events";
import { DEMO, api, backends, login } from "./harness";
import {
  type CredentialKey,
  type FilingBed,
  MATTER_KEY,
  apiPathOf,
  caseFolder,
  expectRefusalThenRequeue,
  expectThrottleHonoured,
  heldFor,
  startFilingBed,
} from "./dms-filing-bed";

// A real notice filed end to end into every vendor DMS: each credential type is created through
// its API (secrets sealed, never answered), named by a storage policy, and a notice on the
// policy's case is fetched from the court simulator and filed through the vendor's own client
// into a local server that speaks the vendor's contract. One product instance serves them all.

interface Servers {
  box: VendorTestServer;
  dropbox: VendorTestServer;
  sharePointCloud: VendorTestServer;
  sharePointOnPrem: VendorTestServer;
  iManageCloud: VendorTestServer;
  iManageOnPrem: VendorTestServer & { onPremCredentialSettings(): Record<string, unknown> };
  netDocuments: VendorTestServer & { credentialSettingsFor(kind: "cloud" | "client"): Record<string, unknown> };
}

/** One credential type filed through: its API, the server it signs in to, and what the policy sets. */
interface VendorCase {
  key: Exclude<CredentialKey, "dms">;
  server: (servers: Servers) => VendorTestServer;
  settings: (servers: Servers) => Record<string, unknown>;
  /** The case the notice is filed on: its own folder in the vendor's store. */
  caseNumber: string;
  /** The policy's document properties (templates), in the names the vendor's profile takes. */
  properties: Record<string, string>;
  /** What the vendor holds on the document for them. */
  held: Record<string, string>;
  /** Folders above the policy's document path: where the credential points. */
  root: string[];
}

/** The product asks for a subclass (spec §5: "document class and subclass"); the stand-in's settings leave it empty. */
const IMANAGE_FILING = { document_sub_class: "MOTION" };

const VENDORS: VendorCase[] = [
  {
    key: "dms-box",
    server: (s) => s.box,
    settings: (s) => s.box.credentialSettings(),
    caseNumber: "2:24-cv-501",
    properties: { Matter: "{{matter.unique_key}}", Source: "ECFX" },
    held: { Matter: MATTER_KEY, Source: "ECFX" },
    root: [],
  },
  {
    key: "dms-dropbox",
    server: (s) => s.dropbox,
    settings: (s) => s.dropbox.credentialSettings(),
    caseNumber: "2:24-cv-502",
    properties: { Matter: "{{matter.unique_key}}", Source: "ECFX" },
    held: { Matter: MATTER_KEY, Source: "ECFX" },
    root: [],
  },
  {
    key: "dms-sharepoint-cloud",
    server: (s) => s.sharePointCloud,
    settings: (s) => s.sharePointCloud.credentialSettings(),
    caseNumber: "2:24-cv-503",
    properties: { CaseNumber: "{{case.case_number}}", Court: "E.D. Tex." },
    held: { CaseNumber: "2:24-cv-503", Court: "E.D. Tex." },
    root: ["ECFX"],
  },
  {
    key: "dms-sharepoint-on-prem",
    server: (s) => s.sharePointOnPrem,
    settings: (s) => s.sharePointOnPrem.credentialSettings(),
    caseNumber: "2:24-cv-504",
    properties: { CaseNumber: "{{case.case_number}}", Court: "E.D. Tex." },
    held: { CaseNumber: "2:24-cv-504", Court: "E.D. Tex." },
    root: ["ECFX"],
  },
  {
    key: "dms-imanage-cloud",
    server: (s) => s.iManageCloud,
    settings: (s) => ({ ...s.iManageCloud.credentialSettings(), ...IMANAGE_FILING }),
    caseNumber: "2:24-cv-505",
    properties: { custom1: "{{matter.unique_key}}", custom2: "ECFX" },
    held: { custom1: MATTER_KEY, custom2: "ECFX", class: "PLEADING", subclass: "MOTION" },
    root: [],
  },
  {
    key: "dms-imanage-on-prem",
    server: (s) => s.iManageOnPrem,
    settings: (s) => ({ ...s.iManageOnPrem.onPremCredentialSettings(), ...IMANAGE_FILING }),
    caseNumber: "2:24-cv-506",
    properties: { custom1: "{{matter.unique_key}}", custom2: "ECFX" },
    held: { custom1: MATTER_KEY, custom2: "ECFX", class: "PLEADING", subclass: "MOTION" },
    root: [],
  },
  {
    key: "dms-netdocuments-cloud",
    server: (s) => s.netDocuments,
    settings: (s) => s.netDocuments.credentialSettingsFor("cloud"),
    caseNumber: "2:24-cv-507",
    properties: { "1001": "{{matter.unique_key}}", "1002": "ECFX" },
    held: { "1001": MATTER_KEY, "1002": "ECFX" },
    root: [],
  },
  {
    key: "dms-netdocuments-client",
    server: (s) => s.netDocuments,
    settings: (s) => s.netDocuments.credentialSettingsFor("client"),
    caseNumber: "2:24-cv-508",
    properties: { "1001": "{{matter.unique_key}}", "1002": "ECFX" },
    held: { "1001": MATTER_KEY, "1002": "ECFX" },
    root: [],
  },
];

describe.each(backends)("a notice filed end to end into every vendor DMS (%s)", (backend) => {
  let bed: FilingBed;
  let servers: Servers;
  const credentials: Partial<Record<CredentialKey, string>> = {};
  const db = () => bed.running.ctx.database.db;

  beforeAll(async () => {
    const [box, dropbox, sharePointCloud, sharePointOnPrem, iManageCloud, iManageOnPrem, netDocuments] = await Promise.all([
      startBoxServer(),
      startDropboxServer(),
      startSharePointCloudServer(),
      startSharePointOnPremServer(),
      startIManageServer(),
      startIManageServer(),
      startNetDocumentsServer(),
    ]);
    servers = { box, dropbox, sharePointCloud, sharePointOnPrem, iManageCloud, iManageOnPrem, netDocuments };
    bed = await startFilingBed(backend, {
      ECFX_BOX_BASE_URL: box.origin,
      ECFX_DROPBOX_BASE_URL: dropbox.origin,
      ECFX_SHAREPOINT_GRAPH_BASE_URL: sharePointCloud.origin,
      ECFX_IMANAGE_BASE_URL: iManageCloud.origin,
      ECFX_NETDOCUMENTS_BASE_URL: netDocuments.origin,
      ECFX_DMS_ALLOWED_ORIGINS: [sharePointOnPrem.origin, iManageOnPrem.origin].join(","),
    });
  });

  afterAll(async () => {
    await bed?.close();
    await Promise.all(Object.values(servers ?? {}).map((server) => server.close()));
  });

  const caseFiledThrough = (vendor: VendorCase, credentialId: string, caseNumber = vendor.caseNumber) =>
    bed.caseFiledThrough(credentialId, caseNumber, vendor.properties);

  describe.each(VENDORS)("$key", (vendor) => {
    it("keeps the credential's secrets sealed and files a notice's document with its properties and link", async () => {
      const credentialId = await bed.createSealedCredential(vendor.key, vendor.settings(servers));
      credentials[vendor.key] = credentialId;

      const server = vendor.server(servers);
      const { caseId, policy } = await caseFiledThrough(vendor, credentialId);
      await bed.sendNotice(vendor.caseNumber);
      await bed.settled();
      const itemId = await bed.itemOnCase(caseId, "succeeded");
      const record = await bed.recordOf(itemId);
      expect(record).toMatchObject({ status: "succeeded", what: "document", storage_policy_id: policy, error: null });
      expect(record.location).toBeTruthy();
      expect(record.link).toBeTruthy();

      const fetched = await bed.fetchedBytes(record.document_id!);
      const held = heldFor(server, vendor.caseNumber);
      expect(held).toHaveLength(1);
      const [document] = held;
      expect(document!.folder).toEqual([...vendor.root, caseFolder(vendor.caseNumber)]);
      expect(document!.name).toBe(`0 ${fetched.name}.pdf`);
      expect(document!.bytes.equals(fetched.bytes)).toBe(true);
      expect(document!.properties).toMatchObject(vendor.held);
      expect(record.link).toBe(document!.link);
      expect(server.contractViolations()).toEqual([]);

      // Integration platforms hear where it went: the webhook payloads carry the DMS link.
      const summary = await noticeSummary(db(), record.firm_id as number, itemId);
      expect(summary?.dms_records).toEqual([expect.objectContaining({ id: record.id, link: document!.link })]);
      expect(boomiDocument({ id: "e", event: "documents.stored", version: 1, created_at: "", firm_id: 1, data: { ...summary! } }).dmsLinks).toBe(
        document!.link,
      );
    });
  });

  const vendorOf = (key: VendorCase["key"]) => VENDORS.find((v) => v.key === key)!;

  it("waits as long as the vendor's Retry-After says when it throttles, then files on the next attempt", async () => {
    const box = vendorOf("dms-box");
    const caseNumber = "2:24-cv-511";
    const { caseId } = await caseFiledThrough(box, credentials["dms-box"]!, caseNumber);
    const filing = { caseId, caseNumber, held: () => heldFor(servers.box, caseNumber), violations: () => servers.box.contractViolations() };
    await expectThrottleHonoured(bed, filing, (seconds) => servers.box.failNext(429, { retryAfterSeconds: seconds, count: 1, path: /\/files\/content$/ }));
  });

  it("fails a refusal no retry can mend at once, reports it with the vendor's reason, and files once requeued", async () => {
    const dropbox = vendorOf("dms-dropbox");
    const caseNumber = "2:24-cv-512";
    const { caseId } = await caseFiledThrough(dropbox, credentials["dms-dropbox"]!, caseNumber);
    const filing = { caseId, caseNumber, held: () => heldFor(servers.dropbox, caseNumber), violations: () => servers.dropbox.contractViolations() };
    await expectRefusalThenRequeue(bed, filing, () => servers.dropbox.failNext(403, { path: /^\/2\/files\/upload/ }), /no_permission/);
  });

  it("keeps a firm's vendor credential from another firm: not readable, not named by its policies", async () => {
    const other = api(bed.running.url, (await login(bed.running.url, DEMO.secondAdmin)).access_token);
    const boxCredential = credentials["dms-box"]!;
    const read = await other.get(`${apiPathOf("dms-box")}/${boxCredential}`);
    expect(read.status).toBe(404);
    expect(read.text).not.toContain(servers.box.credentialSettings().client_key as string);
    const policy = await other.post("/api/v1/storage-policy", {
      name: "Borrowed Box",
      dms_credential_id: boxCredential,
      store_documents: true,
      document_path: "{{case.case_number}}",
    });
    expect(policy.status).toBe(400);
    expect(policy.body.fieldErrors.dms_credential_id).toEqual(["Pick an existing entry."]);
  });
});
