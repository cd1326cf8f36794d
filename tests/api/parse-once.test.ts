import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { HIERARCHY_LEVELS } from "../../app/common/resources/storage";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { DEMO_INBOX } from "../../server/seed/demo";
import { receiveMessage } from "../../server/inbox/receive";
import { PARSER_VERSION } from "../../server/notices";
import { readMail } from "../../server/notices/mime";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { renderNoticePdf } from "../../server/filing/notice-pdf";
import { type RunningApi, DEMO, api, backends, login, startApi } from "./harness";

// Parse once, load once: a processed notice is read from its raw e-mail exactly once, however
// many parts (notification, storage, the console's preview) use it afterwards, and the notice PDF
// and the notice mail show its service contacts written the same way.

vi.mock("../../server/notices/mime", async (importOriginal) => {
  const original = await importOriginal<{ readMail: typeof readMail }>();
  return { ...original, readMail: vi.fn(original.readMail) };
});
vi.mock("../../server/filing/notice-pdf", async (importOriginal) => {
  const original = await importOriginal<{ renderNoticePdf: typeof renderNoticePdf }>();
  return { ...original, renderNoticePdf: vi.fn(original.renderNoticePdf) };
});

const NOTICE = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices/nef-district-qp-utf8.eml"), "latin1");

function noticeFor(tag: string): Buffer {
  return Buffer.from(
    NOTICE.replace("<4100001@txed.uscourts.test>", `<parse-once-${tag}@txed.uscourts.test>`).replaceAll("175135791113", "175135799913"),
    "latin1",
  );
}

describe.each(backends)("a notice is parsed once and loaded once (%s)", (backend) => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let storeRoot = "";
  let client: ReturnType<typeof api>;
  let firmId = 0;
  let itemId = "";
  let caseId = "";
  const db = () => running.ctx.database.db;

  beforeAll(async () => {
    storeRoot = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-parse-once-"));
    simulator = await startCourtSimulator();
    running = await startApi({ backend, env: { ECFX_COURT_BASE_URL: simulator.url, ECFX_FILE_STORE_ROOT: storeRoot } });
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
    firmId = (await db().selectFrom("inbox_address").select("firm_id").where("address", "=", DEMO_INBOX).executeTakeFirstOrThrow()).firm_id;
    client = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    const create = async (segment: string, body: Record<string, unknown>) => {
      const res = await client.post(`/api/v1/${segment}`, body);
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const jurisdiction = await create("jurisdiction", { name: "E.D. Tex.", ecfx_jurisdictions: ["txed"] });
    const keeper = await create("timekeeper", { full_name: "Adaeze Okafor", email: "aokafor@lawfirm.test" });
    await create("timekeeper-group", {
      name: "Realtime",
      time_zone: "America/Chicago",
      delivery_method: "WEB_LINK",
      notification_cadence: "REALTIME",
      daily_cadence_delivery_time: "07:00",
      receive_daily_activity_report: false,
      timekeeper_ids: [keeper],
    });
    const credential = await create("generic-credential", { name: "store", field: "store" });
    const policy = await create("storage-policy", {
      name: "PDF notice",
      dms_credential_id: credential,
      store_email: "pdf",
      document_path: "{{case.case_number}}",
    });
    const firmClient = await create("client", { name: "Bluebonnet Widgets Inc.", unique_key: "C-77" });
    const matter = await create("matter", { name: "Peña v. Bluebonnet", unique_key: "M-77", client_id: firmClient });
    caseId = await create("case", {
      name: "Peña Industries v. Bluebonnet",
      case_number: "2:24-cv-123",
      matter_id: matter,
      jurisdiction_id: jurisdiction,
      assigned_timekeepers: [keeper],
    });
    expect((await client.put("/api/v1/firm/storage-hierarchy", { hierarchy: [...HIERARCHY_LEVELS], storage_policy_id: policy })).status).toBe(200);

    vi.mocked(readMail).mockClear();
    vi.mocked(renderNoticePdf).mockClear();
    itemId = await receiveMessage(running.ctx, { firmId, raw: noticeFor("1"), source: "UPLOAD", sender: "txed_cmecf@txed.uscourts.gov", recipients: [] });
    for (let i = 0; i < 150; i++) {
      await worker.drain();
      if ((await db().selectFrom("job").select("id").execute()).length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
    await simulator?.close();
    fs.rmSync(storeRoot, { recursive: true, force: true });
  });

  it("reads the raw e-mail once while it is processed, filed and mailed, and not again for the console's preview", async () => {
    const item = await db().selectFrom("inbox_item").selectAll().where("id", "=", itemId).executeTakeFirstOrThrow();
    expect(item).toMatchObject({ status: "Succeeded", disposition: "Processed", case_id: caseId, dms_status: "succeeded", parser_version: PARSER_VERSION });
    expect(await db().selectFrom("outbound_mail").select("id").where("inbox_item_id", "=", itemId).where("purpose", "=", "notice").execute()).toHaveLength(1);
    expect(vi.mocked(renderNoticePdf)).toHaveBeenCalledTimes(1);
    expect(vi.mocked(readMail)).toHaveBeenCalledTimes(1);

    const original = await client.get(`/api/v1/inbox/${itemId}/original`);
    expect(original.status).toBe(200);
    expect(original.body.text).toContain("Notice of Electronic Filing");
    expect(original.body.source).toBe(item.raw_content.toString("utf8"));
    expect(vi.mocked(readMail)).toHaveBeenCalledTimes(1);
  });

  it("parses again when the kept result comes from another parser version", async () => {
    await db().updateTable("inbox_item").set({ parser_version: 0, status: "Retry" }).where("id", "=", itemId).execute();
    const { processInboxItem } = await import("../../server/pipeline/process-inbox-item");
    vi.mocked(readMail).mockClear();
    await processInboxItem(running.ctx, itemId);
    expect(vi.mocked(readMail)).toHaveBeenCalledTimes(1);
    const item = await db().selectFrom("inbox_item").select(["parser_version"]).where("id", "=", itemId).executeTakeFirstOrThrow();
    expect(item.parser_version).toBe(PARSER_VERSION);
  });

  it("writes the service contacts the same way in the notice PDF and in the notice mail", async () => {
    const pdfContacts = vi.mocked(renderNoticePdf).mock.calls[0]![0].serviceContacts;
    expect(pdfContacts.length).toBeGreaterThan(1);
    expect(pdfContacts.every((line) => /<[^>]+@[^>]+>$/.test(line))).toBe(true);
    const mail = await db()
      .selectFrom("outbound_mail")
      .select("raw")
      .where("inbox_item_id", "=", itemId)
      .where("purpose", "=", "notice")
      .executeTakeFirstOrThrow();
    const text = (await simpleParser(mail.raw)).text ?? "";
    const mailed = text
      .slice(text.indexOf("Service contacts"))
      .split("\n")
      .filter((line) => line.startsWith("- "))
      .map((line) => line.slice(2));
    expect(mailed.slice(0, pdfContacts.length)).toEqual(pdfContacts);
  });
});
