import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CourtConnector } from "../../server/courts/connector";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { OutboundGuard } from "../../server/outbound/guard";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { type RunningApi, DEMO, api, backends, login, startApi } from "./harness";

// A notice is an e-mail anyone can send. Its document links must not make the server call
// anything but a court: each refused link is recorded on the document and the item, and nothing
// is fetched, stored or mailed from it. Its text must not carry control characters into the
// database (PostgreSQL refuses NUL outright).

/** A district notice for 2:24-cv-123 whose one document link is `link`. */
function notice(link: string, n: number, docketText = `MOTION to Compel number ${n} by Pena Industries, LLC.`, subject = `Motion ${n}`): Uint8Array {
  const html = `<p align=center><strong>U.S. District Court</strong></p>
<p align=center><strong>Eastern District of Texas</strong></p>
<b>Notice of Electronic Filing</b>
<div><BR>The following transaction was entered by Avery Chen on 10/1/2026 at 2:10 PM EDT and filed on 10/1/2026 <BR>
<table border=0 cellspacing=0>
<tr><td><strong>Case Name:</strong></td><td>Pena Industries, LLC v. Bluebonnet Widgets Inc.</td></tr>
<tr><td><strong>Case Number:</strong></td><td><A HREF=https://ecf.txed.uscourts.gov/cgi-bin/DktRpt.pl?212345>2:24-cv-123</A></td></tr>
<tr><td><strong>Filer:</strong></td><td>Pena Industries, LLC</td></tr>
<tr><td><strong>Document Number:</strong></td><td><a href="${link}">${10 + n}</a></td></tr>
</table>
<p><strong>Docket Text:</strong><BR><b>${docketText}</b></p>
<div><p>The following document(s) are associated with this transaction:</p>
<STRONG>Document description:</STRONG>Main${docketText.includes("\u0000") ? "\u0000\u0001" : ""} Document <BR></div>`;
  const raw = [
    "Date: Thu, 1 Oct 2026 14:10:00 +0000",
    "From: cmecf@txed.uscourts.gov",
    "To: notices@demo.ecfx.test",
    `Message-ID: <outbound-${n}-${Math.random().toString(36).slice(2)}@txed.uscourts.gov>`,
    `Subject: Activity in Case 2:24-cv-123 Pena Industries, LLC v. Bluebonnet Widgets Inc. ${subject}`,
    "MIME-Version: 1.0",
    "Content-Type: text/html; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
    "",
    html,
    "",
  ].join("\r\n");
  return new Uint8Array(Buffer.from(raw));
}

const docLink = (origin: string, docId: string) => `${origin}/doc1/${docId}?caseid=212345&de_seq_num=88&magic_num=1234`;

describe.each(backends)("court notices from outside (%s)", (backend) => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let token = "";
  let counter = 0;

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    running = await startApi({ backend, env: { ECFX_COURT_BASE_URL: simulator.url } });
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
    token = (await login(running.url, DEMO.admin)).access_token;
    const client = api(running.url, token);
    const jurisdiction = (await client.post("/api/v1/jurisdiction", { name: "E.D. Tex.", ecfx_jurisdictions: ["txed"] })).body;
    const timekeeper = (await client.post("/api/v1/timekeeper", { full_name: "Adaeze Okafor", email: "aokafor@lawfirm.test" })).body;
    const firmClient = (await client.post("/api/v1/client", { name: "Bluebonnet Widgets Inc.", unique_key: "C-77" })).body;
    const matter = (await client.post("/api/v1/matter", { name: "Pena v. Bluebonnet", unique_key: "M-77", client_id: firmClient.id })).body;
    const created = await client.post("/api/v1/case", {
      name: "Pena Industries, LLC v. Bluebonnet Widgets Inc.",
      case_number: "2:24-cv-123",
      matter_id: matter.id,
      jurisdiction_id: jurisdiction.id,
      assigned_timekeepers: [timekeeper.id],
    });
    expect(created.status).toBe(201);
  });

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
    await simulator?.close();
  });

  const settled = async () => {
    for (let i = 0; i < 100; i++) {
      await worker.drain();
      const left = await running.ctx.database.db.selectFrom("job").select("id").execute();
      if (left.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  /** Uploads a notice with this link, lets the worker finish, and returns its item and document. */
  async function process(link: string, body = notice(link, ++counter)) {
    const upload = await api(running.url, token).request("POST", "/api/v1/inbox/upload", {
      body,
      headers: { "content-type": "message/rfc822" },
    });
    expect(upload.status).toBe(201);
    await settled();
    const db = running.ctx.database.db;
    const item = await db.selectFrom("inbox_item").selectAll().where("id", "=", upload.body.id).executeTakeFirstOrThrow();
    const docs = await db.selectFrom("document").selectAll().where("processed_from_id", "=", item.id).execute();
    expect(docs).toHaveLength(1);
    return { item, doc: docs[0]! };
  }

  async function expectRefused(link: string, reason: RegExp, { reachesSimulator = false } = {}) {
    const before = simulator.requests.size;
    const { item, doc } = await process(link);
    expect(doc).toMatchObject({ fetch_status: "failed", file_id: null });
    expect(doc.fetch_error).toMatch(reason);
    expect(item.status).toBe("Action Required");
    expect(item.reason).toContain(doc.fetch_error);
    if (!reachesSimulator) expect(simulator.requests.size).toBe(before);
    const blobs = await running.ctx.database.db
      .selectFrom("document")
      .select("id")
      .where("processed_from_id", "=", item.id)
      .where("file_id", "is not", null)
      .execute();
    expect(blobs).toHaveLength(0);
  }

  it("fetches an ordinary court link, and one the court redirects on its own host", async () => {
    expect((await process(docLink("https://ecf.txed.uscourts.gov", "175135791113"))).doc).toMatchObject({ fetch_status: "fetched" });
    const redirected = await process(docLink("https://ecf.txed.uscourts.gov", "175135792301"));
    expect(redirected.doc).toMatchObject({ fetch_status: "fetched" });
    expect(simulator.requests.get("/doc1/175135792000")).toBe(1);
  });

  it.each([
    ["a loopback address", "https://127.0.0.1", /127\.0\.0\.1.*loopback/],
    ["a private address", "https://10.1.2.3", /10\.1\.2\.3.*private/],
    ["the cloud metadata address", "https://169.254.169.254", /169\.254\.169\.254.*linkLocal/],
    ["an IPv6 loopback address", "https://[::1]", /::1.*loopback/],
    ["a host that is no court", "https://intranet.lawfirm.test", /intranet\.lawfirm\.test is not a court host/],
    ["a court host over plain http", "http://ecf.txed.uscourts.gov", /http:\/\/ecf\.txed\.uscourts\.gov is not an https address/],
  ])("refuses a link to %s and records why", async (_name, origin, reason) => {
    await expectRefused(docLink(origin, `1751357${counter}9113`), reason);
  });

  it("refuses a court that redirects to another host", async () => {
    await expectRefused(docLink("https://ecf.txed.uscourts.gov", "175135793302"), /redirected to another host, localhost/, { reachesSimulator: true });
    // The court's own answer was read; the other host never was.
    expect(simulator.requests.get("/doc1/175135793302")).toBe(1);
  });

  it("refuses a court host name that resolves to a loopback address, at connection time", async () => {
    const simulated = running.ctx.courts;
    // Production: no simulator, and a name server that answers with the machine itself.
    const guard = new OutboundGuard({ resolve: async () => [{ address: "127.0.0.1", family: 4 }] });
    running.ctx.courts = new CourtConnector({ timeoutMs: 5000, perCourtConcurrency: 2, maxBytes: 1_000_000, guard });
    try {
      await expectRefused(docLink("https://ecf.txed.uscourts.gov", "175135794113"), /ecf\.txed\.uscourts\.gov leads to 127\.0\.0\.1, a loopback address/);
    } finally {
      running.ctx.courts = simulated;
      await guard.close();
    }
  });

  it("records a notice without the control characters its text carried", async () => {
    const link = docLink("https://ecf.txed.uscourts.gov", "175135795113");
    const { item, doc } = await process(
      link,
      notice(link, ++counter, "MOTION\u0000 to Seal\u0007 by Pena\u001b Industries.\tExhibit A", "Motion\u0000 to Seal"),
    );
    expect(item.status).toBe("Succeeded");
    expect(item.subject).toContain("Motion to Seal");
    expect(item.snippet).not.toContain("\u0000");
    const envelope = await running.ctx.database.db.selectFrom("envelope").selectAll().where("inbox_item_id", "=", item.id).executeTakeFirstOrThrow();
    expect(envelope.docket_text).toBe("MOTION to Seal by Pena Industries. Exhibit A");
    expect(doc.name).toBe("Main Document");
    expect(doc.fetch_status).toBe("fetched");
    // Notification and filing went through too: no job is left failing on the text.
    expect(await running.ctx.database.db.selectFrom("job").select(["kind", "last_error"]).execute()).toEqual([]);
  });
});
