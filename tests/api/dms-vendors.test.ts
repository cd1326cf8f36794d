import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HIERARCHY_LEVELS } from "../../app/common/resources/storage";
import { DMS_CREDENTIAL_TABLES, type DmsCredentialKind } from "../../app/common/resources/credentials";
import { findResource } from "../../app/common/resources";
import { SECRET_KEPT } from "../../app/common/resources/types";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { DEMO_INBOX } from "../../server/seed/demo";
import { createSmtpListener, listen } from "../../server/inbox/smtp-listener";
import { type Worker, startWorker } from "../../server/jobs/worker";
import { PIPELINE_JOBS } from "../../server/pipeline/job-handlers";
import type { VendorTestServer } from "../dms/vendor-test-server";
import { startBoxServer } from "../dms/box/box-server";
import { startDropboxServer } from "../dms/dropbox/dropbox-server";
import { startSharePointCloudServer } from "../dms/sharepoint/sharepoint-cloud-server";
import { startSharePointOnPremServer } from "../dms/sharepoint/sharepoint-on-prem-server";
import { startIManageServer } from "../dms/imanage/imanage-server";
import { startNetDocumentsServer } from "../dms/netdocuments/netdocuments-server";
import { type RunningApi, DEMO, api, backends, creator, login, startApi } from "./harness";

// A real notice filed end to end into every vendor DMS: each credential type is created through
// its API (secrets sealed, never answered), named by a storage policy, and a notice on the
// policy's case is fetched from the court simulator and filed through the vendor's own client
// into a local server that speaks the vendor's contract. One product instance serves them all.

const FIXTURE = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices/nef-district-qp-utf8.eml"), "latin1");
const NAME_TEMPLATE = "{{document.number}} {{document.name}}";

/** The fixture as another filing: its own Message-ID and document id, on the case numbered `caseNumber` (same length). */
function variant(n: number, caseNumber: string): Buffer {
  const tag = String(n).padStart(2, "0");
  return Buffer.from(
    FIXTURE.replace("<4100001@", `<41000${tag}@`).replace("doc1/175135791113", `doc1/1751357911${tag}`).replaceAll("2:24-cv-00123", caseNumber),
    "latin1",
  );
}

type CredentialKey = keyof typeof DMS_CREDENTIAL_TABLES;

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

const MATTER_KEY = "M-501";
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

/** The notice's form of a case number ("2:24-cv-501" → "2:24-cv-00501"), the fixture's length. */
const noticeNumber = (caseNumber: string) => caseNumber.replace(/-(\d+)$/, (_, n: string) => `-${n.padStart(5, "0")}`);
/** The folder the policy's "{{case.case_number}}" renders to: ":" is no folder character. */
const caseFolder = (caseNumber: string) => caseNumber.replaceAll(":", "_");

const credentialDef = (key: CredentialKey) => {
  const def = findResource(key);
  if (!def) throw new Error(`no resource ${key}`);
  return def;
};
const secretFields = (key: CredentialKey) =>
  credentialDef(key)
    .fields.filter((f) => f.secret)
    .map((f) => f.name);
const apiPathOf = (key: CredentialKey) => credentialDef(key).apiPath!;

describe.each(backends)("a notice filed end to end into every vendor DMS (%s)", (backend) => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let servers: Servers;
  let smtpPort = 0;
  let closeSmtp: () => Promise<void>;
  let client: ReturnType<typeof api>;
  let create: ReturnType<typeof creator>;
  let matter = "";
  let jurisdiction = "";
  let timekeeper = "";
  let messageTag = 0;
  const credentials: Partial<Record<CredentialKey, string>> = {};

  const db = () => running.ctx.database.db;

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
    simulator = await startCourtSimulator();
    running = await startApi({
      backend,
      env: {
        ECFX_COURT_BASE_URL: simulator.url,
        ECFX_BOX_BASE_URL: box.origin,
        ECFX_DROPBOX_BASE_URL: dropbox.origin,
        ECFX_SHAREPOINT_GRAPH_BASE_URL: sharePointCloud.origin,
        ECFX_IMANAGE_BASE_URL: iManageCloud.origin,
        ECFX_NETDOCUMENTS_BASE_URL: netDocuments.origin,
        ECFX_DMS_ALLOWED_ORIGINS: [sharePointOnPrem.origin, iManageOnPrem.origin].join(","),
        ECFX_DMS_TIMEOUT_MS: "10000",
      },
    });
    const smtp = createSmtpListener(running.ctx, { port: 0, host: "127.0.0.1" });
    smtpPort = await listen(smtp, 0, "127.0.0.1");
    closeSmtp = () => new Promise((resolve) => smtp.close(() => resolve()));
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);

    client = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    create = creator(client);
    jurisdiction = await create("/api/v1/jurisdiction", { name: "E.D. Tex.", ecfx_jurisdictions: ["txed"] });
    timekeeper = await create("/api/v1/timekeeper", { full_name: "Adaeze Okafor", email: "aokafor@lawfirm.test" });
    const firmClient = await create("/api/v1/client", { name: "Bluebonnet Widgets Inc.", unique_key: "C-501" });
    matter = await create("/api/v1/matter", { name: "Peña v. Bluebonnet", unique_key: MATTER_KEY, client_id: firmClient });
    // No firm-wide policy: each case names its own.
    const hierarchy = await client.put("/api/v1/firm/storage-hierarchy", { hierarchy: [...HIERARCHY_LEVELS], storage_policy_id: null });
    expect(hierarchy.status).toBe(200);
  });

  afterAll(async () => {
    await worker?.stop();
    await closeSmtp?.();
    await running?.close();
    await simulator?.close();
    await Promise.all(Object.values(servers ?? {}).map((server) => server.close()));
  });

  const send = (raw: Buffer) =>
    nodemailer
      .createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true })
      .sendMail({ envelope: { from: "txed_cmecf@txed.uscourts.gov", to: [DEMO_INBOX] }, raw });

  /** Until the pipeline and the storage job are done (notification is another part's business). */
  const settled = async () => {
    for (let i = 0; i < 150; i++) {
      await worker.drain();
      const left = await db().selectFrom("job").select("id").where("kind", "!=", "notify-inbox-item").execute();
      if (left.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("the pipeline did not settle");
  };

  /** The inbox item of a notice on the case, once its storage reached `status`. */
  const itemOnCase = async (caseId: string, status: string) => {
    let item: { id: string; dms_status: string } | undefined;
    for (let i = 0; i < 150 && item?.dms_status !== status; i++) {
      await worker.drain();
      item = await db().selectFrom("inbox_item").select(["id", "dms_status"]).where("case_id", "=", caseId).executeTakeFirst();
      if (item?.dms_status !== status) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(item?.dms_status).toBe(status);
    return item!.id;
  };

  const recordOf = async (itemId: string) => {
    const records = await db().selectFrom("dms_record").selectAll().where("inbox_item_id", "=", itemId).execute();
    expect(records).toHaveLength(1);
    return records[0]!;
  };

  /** A credential of the type through its API; its id. */
  const createCredential = async (vendor: VendorCase) => {
    const id = await create(apiPathOf(vendor.key), { name: `${vendor.key} filing`, ...vendor.settings(servers) });
    credentials[vendor.key] = id;
    return id;
  };

  /** A case of its own on a policy that files documents through the credential. */
  const caseFiledThrough = async (vendor: VendorCase, credentialId: string, caseNumber = vendor.caseNumber) => {
    const policy = await create("/api/v1/storage-policy", {
      name: `${vendor.key} policy ${caseNumber}`,
      dms_credential_id: credentialId,
      store_documents: true,
      store_email: "none",
      document_path: "{{case.case_number}}",
      document_name: NAME_TEMPLATE,
      document_properties: vendor.properties,
    });
    const caseId = await create("/api/v1/case", {
      name: `Peña Industries v. ${caseNumber}`,
      case_number: caseNumber,
      matter_id: matter,
      jurisdiction_id: jurisdiction,
      assigned_timekeepers: [timekeeper],
      storage_policy_id: policy,
    });
    return { caseId, policy };
  };

  /** What the vendor holds in the case's folder. */
  const heldFor = (server: VendorTestServer, caseNumber: string) => server.documents().filter((d) => d.folder.at(-1) === caseFolder(caseNumber));

  const fetchedBytes = async (documentId: string) => {
    const document = await db().selectFrom("document").select(["file_id", "name"]).where("id", "=", documentId).executeTakeFirstOrThrow();
    return { name: document.name, bytes: await running.ctx.blobs.read(document.file_id!) };
  };

  describe.each(VENDORS)("$key", (vendor) => {
    it("keeps the credential's secrets sealed and files a notice's document with its properties and link", async () => {
      const credentialId = await createCredential(vendor);
      const secrets = secretFields(vendor.key);
      expect(secrets.length).toBeGreaterThan(0);
      const read = await client.get(`${apiPathOf(vendor.key)}/${credentialId}`);
      expect(read.status).toBe(200);
      const settings = vendor.settings(servers);
      const table = DMS_CREDENTIAL_TABLES[vendor.key] as DmsCredentialKind;
      const row = (await db()
        .selectFrom(table as "box_client_credential_grant_credential")
        .selectAll()
        .where("id", "=", credentialId)
        .executeTakeFirstOrThrow()) as Record<string, unknown>;
      for (const field of secrets) {
        if (!settings[field]) {
          // A secret left empty is no secret kept.
          expect(read.body[field], field).toBeNull();
          continue;
        }
        expect(read.body[field], field).toBe(SECRET_KEPT);
        expect(String(row[field]), field).toMatch(/^sb1\./);
        expect(String(row[field])).not.toContain(String(settings[field]));
      }
      // What is no secret comes back as it was typed.
      for (const [field, value] of Object.entries(settings))
        if (!secrets.includes(field) && typeof value === "string") expect(read.body[field], field).toBe(value);

      const server = vendor.server(servers);
      const { caseId, policy } = await caseFiledThrough(vendor, credentialId);
      await send(variant(++messageTag, noticeNumber(vendor.caseNumber)));
      await settled();
      const itemId = await itemOnCase(caseId, "succeeded");
      const record = await recordOf(itemId);
      expect(record).toMatchObject({ status: "succeeded", what: "document", storage_policy_id: policy, error: null });
      expect(record.location).toBeTruthy();
      expect(record.link).toBeTruthy();

      const fetched = await fetchedBytes(record.document_id!);
      const held = heldFor(server, vendor.caseNumber);
      expect(held).toHaveLength(1);
      const [document] = held;
      expect(document!.folder).toEqual([...vendor.root, caseFolder(vendor.caseNumber)]);
      expect(document!.name).toBe(`0 ${fetched.name}.pdf`);
      expect(document!.bytes.equals(fetched.bytes)).toBe(true);
      expect(document!.properties).toMatchObject(vendor.held);
      expect(record.link).toBe(document!.link);
      expect(server.contractViolations()).toEqual([]);
    });
  });

  const vendorOf = (key: VendorCase["key"]) => VENDORS.find((v) => v.key === key)!;

  it("waits as long as the vendor's Retry-After says when it throttles, then files on the next attempt", async () => {
    const box = vendorOf("dms-box");
    const caseNumber = "2:24-cv-511";
    const { caseId } = await caseFiledThrough(box, credentials["dms-box"]!, caseNumber);
    servers.box.failNext(429, { retryAfterSeconds: 120, count: 1, path: /\/files\/content$/ });
    const sentAt = Date.now();
    await send(variant(++messageTag, noticeNumber(caseNumber)));
    const itemId = await itemOnCase(caseId, "delayed");
    const job = await db()
      .selectFrom("job")
      .select(["id", "run_at"])
      .where("kind", "=", "store-inbox-item")
      .where("ref_id", "=", itemId)
      .executeTakeFirstOrThrow();
    expect(Number(job.run_at)).toBeGreaterThanOrEqual(sentAt + 120_000);
    expect(await recordOf(itemId)).toMatchObject({ status: "delayed", attempts: 1 });
    expect(heldFor(servers.box, caseNumber)).toEqual([]);

    // The two minutes are over: the waiting job runs again.
    await db().updateTable("job").set({ run_at: Date.now() }).where("id", "=", job.id).execute();
    await settled();
    await itemOnCase(caseId, "succeeded");
    expect(await recordOf(itemId)).toMatchObject({ status: "succeeded", attempts: 2, error: null });
    expect(heldFor(servers.box, caseNumber)).toHaveLength(1);
    expect(servers.box.contractViolations()).toEqual([]);
  });

  it("fails a refusal no retry can mend at once, reports it with the vendor's reason, and files once requeued", async () => {
    const dropbox = vendorOf("dms-dropbox");
    const caseNumber = "2:24-cv-512";
    const firm = (await client.get("/api/v1/firm")).body;
    expect((await client.put(`/api/v1/firm/${firm.id}`, { ...firm, dms_failure_report_emails: ["dms-admin@lawfirm.test"] })).status).toBe(200);
    const { caseId } = await caseFiledThrough(dropbox, credentials["dms-dropbox"]!, caseNumber);
    servers.dropbox.failNext(403, { path: /^\/2\/files\/upload/ });
    await send(variant(++messageTag, noticeNumber(caseNumber)));
    const itemId = await itemOnCase(caseId, "failed");
    const record = await recordOf(itemId);
    expect(record).toMatchObject({ status: "failed", attempts: 1 });
    expect(record.error).toMatch(/no_permission/);
    const events = (await db().selectFrom("event_log").select("event").where("inbox_item_id", "=", itemId).execute()).map((e) => e.event);
    expect(events).toContain("storage failed");
    expect(events).not.toContain("storage delayed");
    const report = await db().selectFrom("outbound_mail").selectAll().where("purpose", "=", "dms-failure").where("inbox_item_id", "=", itemId).execute();
    expect(report).toHaveLength(1);
    expect(JSON.parse(report[0]!.to_addresses)).toEqual(["dms-admin@lawfirm.test"]);
    expect(report[0]!.text_body).toMatch(/no_permission/);
    expect(heldFor(servers.dropbox, caseNumber)).toEqual([]);

    const requeued = await client.post("/api/v1/inbox/requeue", { ids: [itemId] });
    expect(requeued.status).toBe(200);
    expect(requeued.body).toEqual({ done: [itemId], skipped: [] });
    await settled();
    await itemOnCase(caseId, "succeeded");
    const stored = await recordOf(itemId);
    expect(stored).toMatchObject({ status: "succeeded", error: null });
    const [held] = heldFor(servers.dropbox, caseNumber);
    expect(held?.link).toBe(stored.link);
    expect(servers.dropbox.contractViolations()).toEqual([]);
  });

  it("keeps a firm's vendor credential from another firm: not readable, not named by its policies", async () => {
    const other = api(running.url, (await login(running.url, DEMO.secondAdmin)).access_token);
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
