import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { isImportable } from "../../app/common/import/format";
import { SERVER_RESOURCES } from "../../server/resources/registry";
import type { Kysely } from "kysely";
import { BATCH_SIZE } from "../../server/resources/import";
import { STALE_MS } from "../../server/resources/import-jobs";
import { type ApiResponse, DEMO, api, backends, sessionsOf, useApi } from "./harness";

// Import of comma-separated files: POST /api/v1/{resource}/import starts a job, the job's
// progress and report come from /api/v1/import-jobs/{id}. Tests run in order on one server
// per backend and build on each other's data (clients, then matters, then cases).

type Client = ReturnType<typeof api>;

/** An exported file as its header and rows (the byte order mark removed). */
function readCsv(text: string): { header: string[]; rows: string[][] } {
  const [header = [], ...rows] = parse(text.replace(/^\uFEFF/, "")) as string[][];
  return { header, rows };
}

const writeCsv = (header: string[], rows: string[][]) => stringify([header, ...rows]);

describe.each(backends)("import (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  const as = async (email: string) => api(server().url, (await sessionOf(email)).access_token);

  const send = (client: Client, segment: string, text: string | undefined, query = "", contentType = "text/plain") =>
    client.request("POST", `/api/v1/${segment}/import${query}`, text === undefined ? {} : { body: text, headers: { "content-type": contentType } });

  async function finished(client: Client, started: ApiResponse) {
    expect(started.status, started.text).toBe(202);
    expect(started.headers.get("location")).toBe(`/api/v1/import-jobs/${started.body.id}`);
    for (let i = 0; i < 200; i++) {
      const job = await client.get(`/api/v1/import-jobs/${started.body.id}`);
      expect(job.status).toBe(200);
      if (job.body.status !== "running") return job.body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the import did not finish");
  }

  async function imported(client: Client, segment: string, text: string, query = "", options: { contentType?: string } = {}) {
    const job = await finished(client, await send(client, segment, text, query, options.contentType));
    const lines = await client.get(`/api/v1/import-jobs/${job.id}/lines?max=500`);
    expect(lines.status).toBe(200);
    return { job, lines: lines.body as { line: number; outcome: string; record: string; reasons: Record<string, string[]> }[] };
  }

  const firmLimits = async (limits: { import_warning_threshold?: number; max_case_deletions_on_import?: number }) => {
    const demo = await (await as(DEMO.admin)).get("/api/v1/firm");
    await server().ctx.database.db.updateTable("firm").set(limits).where("id", "=", demo.body.id).execute();
  };

  const CLIENTS = [
    "name,unique_key,reference_id,status,open_date",
    "Acme Corp,C-001,PM-1,active,2024-01-15",
    "Beta LLC,C-002,PM-2,closed,",
    ",C-003,,active,",
    "Gamma,C-004,,dormant,2024-13-01x",
    "",
  ].join("\n");

  it("creates the good lines and reports each bad line with its reasons", async () => {
    const admin = await as(DEMO.admin);
    const { job, lines } = await imported(admin, "client", CLIENTS);
    expect(job).toMatchObject({ resource: "clients", status: "done", total: 4, processed: 4, created: 2, updated: 0, rejected: 2 });
    // Rejected lines come first, in file order.
    expect(lines.map((l) => [l.line, l.outcome])).toEqual([
      [4, "rejected"],
      [5, "rejected"],
      [2, "created"],
      [3, "created"],
    ]);
    expect(lines[0]!.reasons).toEqual({ name: ["This field is required."] });
    expect(lines[1]!.record).toBe("C-004");
    expect(lines[1]!.reasons.open_date).toEqual(["Enter a date as YYYY-MM-DD."]);
    expect(lines[1]!.reasons.status).toEqual(["Enter one of: active, closed, pending."]);
    const found = await admin.get("/api/v1/client/search?sort=unique_key");
    expect(found.body.map((c: { unique_key: string; name: string }) => [c.unique_key, c.name])).toEqual([
      ["C-001", "Acme Corp"],
      ["C-002", "Beta LLC"],
    ]);
  });

  it("updates on a re-import instead of duplicating, leaving empty cells' values alone", async () => {
    const admin = await as(DEMO.admin);
    const again = CLIENTS.replace("Acme Corp,C-001,PM-1,active,2024-01-15", "Acme Corporation,C-001,,pending,");
    const { job } = await imported(admin, "client", again);
    expect(job).toMatchObject({ created: 0, updated: 2, rejected: 2 });
    const found = await admin.get("/api/v1/client/search?sort=unique_key");
    expect(found.headers.get("x-total-count")).toBe("2");
    expect(found.body[0]).toMatchObject({ unique_key: "C-001", name: "Acme Corporation", reference_id: "PM-1", status: "pending", open_date: "2024-01-15" });
    // By reference_id alone, and by the id column an export writes.
    const byReference = await imported(admin, "client", "name,unique_key,reference_id\nBeta Renamed,C-002,PM-2");
    expect(byReference.job).toMatchObject({ created: 0, updated: 1 });
    const beta = found.body[1] as { id: string };
    const byId = await imported(admin, "client", `id,name,unique_key,created_at,matter_count\n${beta.id},Beta Again,C-002,2024-01-01T00:00:00.000Z,0`);
    expect(byId.job).toMatchObject({ created: 0, updated: 1, rejected: 0 });
    expect((await admin.get(`/api/v1/client/${beta.id}`)).body.name).toBe("Beta Again");
  });

  it("takes back a file the export wrote, updating every record", async () => {
    const admin = await as(DEMO.admin);
    const exported = await admin.get("/api/v1/client/export");
    expect(exported.status).toBe(200);
    const { job } = await imported(admin, "client", exported.text, "", { contentType: "text/csv" });
    expect(job).toMatchObject({ total: 2, created: 0, updated: 2, rejected: 0 });
  });

  it("rejects a line whose keys name two different records", async () => {
    const admin = await as(DEMO.admin);
    const { job, lines } = await imported(admin, "client", "name,unique_key,reference_id\nMixed,C-001,PM-2");
    expect(job).toMatchObject({ rejected: 1, updated: 0 });
    expect(lines[0]!.reasons._row![0]).toMatch(/two different existing records/);
  });

  it("resolves references by unique_key or reference_id within the firm", async () => {
    const admin = await as(DEMO.admin);
    const timekeepers = await imported(
      admin,
      "timekeeper",
      "full_name,email,unique_key,reference_id,is_attorney,billable\nAda Attorney,ada@firm.test,TK-1,PT-1,yes,TRUE\nBo Biller,bo@firm.test,TK-2,,no,false\nCy Maybe,cy@firm.test,TK-3,,maybe,",
    );
    expect(timekeepers.job).toMatchObject({ created: 2, rejected: 1 });
    expect(timekeepers.lines[0]!.reasons).toEqual({ is_attorney: ["Enter true, false, yes or no."] });

    const jurisdictions = await imported(admin, "jurisdiction", "name,unique_key,ecfx_jurisdictions\nSecond Circuit,J-2,ca2;cadc\nNowhere,J-9,zz-none");
    expect(jurisdictions.job).toMatchObject({ created: 1, rejected: 1 });
    expect(jurisdictions.lines[0]!.reasons.ecfx_jurisdictions![0]).toContain("zz-none");

    const matters = await imported(
      admin,
      "matter",
      "name,unique_key,reference_id,client_id,originating_timekeeper_id\nAcme v. Beta,M-1,PM-M1,C-001,PT-1\nLost,M-2,,C-404,",
    );
    expect(matters.job).toMatchObject({ created: 1, rejected: 1 });
    expect(matters.lines[0]!.reasons.client_id).toEqual(["None of your firm's records has this id, number or reference ID: C-404"]);

    const cases = await imported(
      admin,
      "case",
      "name,case_number,matter_id,jurisdiction_id,assigned_timekeepers,unique_key\nAcme v. Beta,1:24-cv-00001,PM-M1,J-2,TK-1;TK-2,K-1",
    );
    expect(cases.job).toMatchObject({ created: 1, rejected: 0 });
    const [created] = (await admin.get("/api/v1/case/search?filter.unique_key=K-1")).body;
    const tks = (await admin.get("/api/v1/timekeeper/search?sort=unique_key")).body as { id: string }[];
    const matter = (await admin.get("/api/v1/matter/search?filter.unique_key=M-1")).body[0];
    const clientAcme = (await admin.get("/api/v1/client/search?filter.unique_key=C-001")).body[0];
    expect(matter.client_id).toBe(clientAcme.id);
    expect(matter.originating_timekeeper_id).toBe(tks[0]!.id);
    expect(created.matter_id).toBe(matter.id);
    expect([...created.assigned_timekeepers].sort()).toEqual(tks.map((t) => t.id).sort());
  });

  it("never reaches another firm's records", async () => {
    const admin = await as(DEMO.admin);
    const second = await as(DEMO.secondAdmin);
    const demoClient = (await admin.get("/api/v1/client/search?filter.unique_key=C-001")).body[0];
    const matters = await imported(second, "matter", `name,unique_key,client_id\nBy number,SM-1,C-001\nBy id,SM-2,${demoClient.id}`);
    expect(matters.job).toMatchObject({ created: 0, rejected: 2 });
    expect(matters.lines.every((l) => l.reasons.client_id?.[0]?.startsWith("None of your firm's records"))).toBe(true);

    const clients = await imported(second, "client", `id,name,unique_key\n${demoClient.id},Taken over,X-1`);
    expect(clients.job).toMatchObject({ created: 0, updated: 0, rejected: 1 });
    expect(clients.lines[0]!.reasons).toEqual({ id: ["None of your firm's records has this id."] });
    // The same unique_key in another firm is that firm's own record.
    const own = await imported(second, "client", "name,unique_key\nSecond's Acme,C-001");
    expect(own.job).toMatchObject({ created: 1 });
    expect((await admin.get(`/api/v1/client/${demoClient.id}`)).body.name).toBe("Acme Corporation");
    // A job is its firm's: another firm's user does not find it.
    expect((await admin.get(`/api/v1/import-jobs/${own.job.id}`)).status).toBe(404);
    expect((await admin.get(`/api/v1/import-jobs/${own.job.id}/lines`)).status).toBe(404);
  });

  it("refuses roles that may only read, and fields the role may not write", async () => {
    const viewer = await as(DEMO.viewOnly);
    const refused = await send(viewer, "client", "name,unique_key\nViewer's,V-1");
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("You do not have access to this.");
    expect((await send(viewer, "ecfx-jurisdiction", "name\nx")).status).toBe(403);
    const admin = await as(DEMO.admin);
    expect((await send(admin, "ecfx-jurisdiction", "name\nx")).status).toBe(405);
    // Roles are written by the role editor alone, with its rules.
    expect((await send(admin, "security-role", "name\nImported role")).status).toBe(405);
    expect((await send(admin, "no-such-thing", "name\nx")).status).toBe(404);

    // The Manager role, made unable to change client numbers.
    const manager = await sessionOf(DEMO.manager);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const db = server().ctx.database.db as unknown as Kysely<any>;
    const role = await db.selectFrom("security_role").select("permissions").where("id", "=", manager.user.securityRoleId).executeTakeFirstOrThrow();
    const permissions = JSON.parse(role.permissions as string);
    permissions.client = { access: "FULL", fields: { unique_key: "READ" } };
    await db
      .updateTable("security_role")
      .set({ permissions: JSON.stringify(permissions) })
      .where("id", "=", manager.user.securityRoleId)
      .execute();
    const fieldRefused = await send(api(server().url, manager.access_token), "client", "name,unique_key\nManaged,MG-1");
    expect(fieldRefused.status).toBe(403);
    expect(fieldRefused.body.fieldErrors).toEqual({ unique_key: ["Your role may not change this field."] });
  });

  it("asks for confirmation above the firm's warning threshold", async () => {
    const admin = await as(DEMO.admin);
    await firmLimits({ import_warning_threshold: 2 });
    const file = "name,unique_key\nOne,T-1\nTwo,T-2\nThree,T-3";
    const warned = await send(admin, "client", file);
    expect(warned.status).toBe(200);
    expect(warned.body).toEqual({
      confirmationRequired: true,
      rows: 3,
      threshold: 2,
      message: "This file has 3 lines, more than your firm's import warning threshold of 2. Confirm to import it.",
    });
    expect((await admin.get("/api/v1/client/search?filter.unique_key=T-")).headers.get("x-total-count")).toBe("0");
    const job = await finished(admin, await send(admin, "client", file, "?confirm=true"));
    expect(job).toMatchObject({ created: 3 });
    expect((await send(admin, "client", "name,unique_key\nOne,T-1\nTwo,T-2")).status).toBe(202);
    await firmLimits({ import_warning_threshold: 1000 });
  });

  it("deletes cases absent from a synchronising file, within the firm's limit", async () => {
    const admin = await as(DEMO.admin);
    const header = "name,case_number,matter_id,jurisdiction_id,assigned_timekeepers,unique_key";
    const line = (key: string, name = `Case ${key}`) => `${name},1:24-cv-${key},M-1,J-2,TK-1,${key}`;
    await imported(admin, "case", [header, line("S-1"), line("S-2"), line("S-3")].join("\n"));
    const count = async () => Number((await admin.get("/api/v1/case/search")).headers.get("x-total-count"));
    expect(await count()).toBe(4);

    await firmLimits({ max_case_deletions_on_import: 2 });
    const tooMany = await send(admin, "case", [header, line("S-1", "Renamed")].join("\n"), "?sync=true");
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe(
      "This import would delete 3 cases that are absent from the file, more than your firm allows (2). Nothing was imported or deleted.",
    );
    expect(await count()).toBe(4);
    expect((await admin.get("/api/v1/case/search?filter.unique_key=S-1")).body[0].name).toBe("Case S-1");

    // K-1 is named by its reference-less key line; S-3 and nothing else is absent.
    const synced = await imported(admin, "case", [header, line("S-1", "Renamed"), line("S-2"), line("K-1", "Acme v. Beta")].join("\n"), "?sync=true");
    expect(synced.job).toMatchObject({ status: "done", updated: 3, deleted: 1, sync: true });
    const left = (await admin.get("/api/v1/case/search?sort=unique_key")).body.map((c: { unique_key: string }) => c.unique_key);
    expect(left).toEqual(["K-1", "S-1", "S-2"]);

    const notCases = await send(admin, "client", "name,unique_key\nA,C-001", "?sync=true");
    expect(notCases.status).toBe(400);
    expect(notCases.body.message).toBe("Deleting records that are absent from the file is only possible for cases.");
    expect((await send(admin, "case", `${header}\n${line("S-1")}`, "?sync=maybe")).status).toBe(400);
    await firmLimits({ max_case_deletions_on_import: 100 });
  });

  it("refuses files it cannot import, saying why", async () => {
    const admin = await as(DEMO.admin);
    const refusal = async (text: string | undefined, contentType?: string) => {
      const res = await send(admin, "client", text, "", contentType);
      return [res.status, res.body?.message];
    };
    expect(await refusal(undefined)).toEqual([400, "No file was chosen. Choose a .txt or .csv file to import."]);
    expect(await refusal("")).toEqual([400, expect.stringMatching(/^(No file was chosen|The file is empty)/)]);
    expect(await refusal("  \n\n")).toEqual([400, "The file is empty. An import file needs a header row and at least one line."]);
    expect(await refusal("name,unique_key\n")).toEqual([400, "The file has a header row but no lines to import."]);
    expect(await refusal("name;unique_key\nA;B")).toEqual([
      400,
      "The file is not comma-separated: its header row has a single column. Separate the columns with commas.",
    ]);
    expect(await refusal("name,colour\nA,red")).toEqual([
      400,
      "Unknown columns: colour. The header row can name: id, name, unique_key, reference_id, status, open_date, originating_timekeeper_id, storage_policy_id, or the column names an export writes.",
    ]);
    expect(await refusal("name,name,unique_key\nA,A,B")).toEqual([400, "These columns appear more than once: name."]);
    expect(await refusal("name,status\nA,active")).toEqual([400, "Required columns are missing: Client number."]);
    // Two names of one field are one column given twice.
    expect(await refusal("name,Name,unique_key\nA,A,B")).toEqual([400, "These columns appear more than once: Name."]);
    expect((await refusal('name,unique_key\n"open,C-9'))[0]).toBe(400);
    for (const type of ["application/xml", "image/png"]) {
      expect(await refusal("name,unique_key\nA,B", type)).toEqual([415, "Send the file as text/plain or text/csv."]);
    }
    const big = `name,unique_key\n${"x".repeat(20 * 1024 * 1024)},B`;
    expect(await refusal(big)).toEqual([413, "The file is larger than 20 MB. Split it into smaller files."]);
  });

  it("reads CSV with quotes, CRLF line ends, a byte order mark and a short line", async () => {
    const admin = await as(DEMO.admin);
    const file = '\uFEFFname,unique_key,reference_id\r\n"Quote, ""Inc.""",Q-1,\r\n"Two\r\nLines",Q-2,\r\nShort,Q-3\r\n';
    const { job, lines } = await imported(admin, "client", file, "", { contentType: "text/csv" });
    expect(job).toMatchObject({ created: 2, rejected: 1 });
    expect(lines[0]).toMatchObject({ line: 5, outcome: "rejected", reasons: { _row: ["This line has 2 values but the header row has 3 columns."] } });
    expect((await admin.get("/api/v1/client/search?filter.unique_key=Q-1")).body[0].name).toBe('Quote, "Inc."');
  });

  it("writes a file larger than one batch, reporting every line", async () => {
    const admin = await as(DEMO.admin);
    const count = BATCH_SIZE * 2 + 17;
    const rows = Array.from({ length: count }, (_, i) => `Bulk ${i},B-${String(i).padStart(4, "0")}`);
    rows[BATCH_SIZE + 3] = `,B-bad`;
    const { job } = await imported(admin, "client", ["name,unique_key", ...rows].join("\n"));
    expect(job).toMatchObject({ total: count, processed: count, created: count - 1, rejected: 1 });
    const page = await admin.get(`/api/v1/import-jobs/${job.id}/lines?max=2&offset=0`);
    expect(page.headers.get("x-total-count")).toBe(String(count));
    expect(page.body.map((l: { line: number; outcome: string }) => [l.line, l.outcome])).toEqual([
      [BATCH_SIZE + 5, "rejected"],
      [2, "created"],
    ]);
  });

  it("imports users, sending each new user an invitation once the batch is written", async () => {
    const session = await sessionOf(DEMO.admin);
    const admin = await as(DEMO.admin);
    const before = Number((await admin.get("/api/v1/outbox/search")).headers.get("x-total-count"));
    const { job } = await imported(
      admin,
      "user",
      `email,full_name,display_name,security_role_id\nNew.Person@Firm.test,New Person,New,${session.user.securityRoleId}\n${DEMO.secondAdmin},Taken,T,${session.user.securityRoleId}`,
    );
    expect(job).toMatchObject({ created: 1, rejected: 1 });
    const users = (await admin.get("/api/v1/user/search?filter.email=new.person")).body;
    expect(users.map((u: { email: string }) => u.email)).toEqual(["new.person@firm.test"]);
    const mail = await admin.get("/api/v1/outbox/search");
    expect(Number(mail.headers.get("x-total-count"))).toBe(before + 1);
    expect(mail.body[0].to_addresses).toEqual(["new.person@firm.test"]);
  });

  it("reports a job whose process stopped writing as failed", async () => {
    const admin = await as(DEMO.admin);
    const firmId = (await admin.get("/api/v1/firm")).body.id as number;
    const long = Date.now() - STALE_MS - 1000;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const db = server().ctx.database.db as unknown as Kysely<any>;
    await db
      .insertInto("import_job")
      .values({ id: "stale-job", firm_id: firmId, user_id: "u", resource: "clients", status: "running", total_rows: 10, created_at: long, updated_at: long })
      .execute();
    const job = await admin.get("/api/v1/import-jobs/stale-job");
    expect(job.body).toMatchObject({ status: "failed", processed: 0 });
    expect(job.body.message).toMatch(/^The import stopped before it finished/);
  });
  it("imports back an exported file that was changed, by the names the export writes", async () => {
    const admin = await as(DEMO.admin);
    const exported = await admin.get("/api/v1/client/export?filter.unique_key=C-00&sort=unique_key");
    const { header, rows } = readCsv(exported.text);
    expect(header).toEqual(expect.arrayContaining(["ID", "Name", "Client number", "Originating timekeeper", "Originating timekeeper (ID)", "Created"]));
    const at = (name: string) => header.indexOf(name);
    const ada = (await admin.get("/api/v1/timekeeper/search?filter.unique_key=TK-1")).body[0];
    rows[0]![at("Name")] = "Acme Round Trip";
    rows[0]![at("Originating timekeeper (ID)")] = ada.id;
    // The title beside an id column is for reading: changing it alone changes nothing.
    rows[1]![at("Originating timekeeper")] = "Somebody Else";
    const { job, lines } = await imported(admin, "client", writeCsv(header, rows), "", { contentType: "text/csv" });
    expect(job).toMatchObject({ total: rows.length, created: 0, updated: rows.length, rejected: 0 });
    expect(lines.every((l) => l.outcome === "updated")).toBe(true);
    const acme = (await admin.get(`/api/v1/client/${rows[0]![at("ID")]}`)).body;
    expect(acme).toMatchObject({ name: "Acme Round Trip", originating_timekeeper_id: ada.id });
    expect((await admin.get(`/api/v1/client/${rows[1]![at("ID")]}`)).body.originating_timekeeper_id).toBeNull();

    // The export names the referenced record by its title, and its id beside it.
    const again = readCsv((await admin.get("/api/v1/client/export?filter.unique_key=C-001")).text);
    const [acmeRow] = again.rows;
    expect(acmeRow![again.header.indexOf("Originating timekeeper")]).toBe("Ada Attorney");
    expect(acmeRow![again.header.indexOf("Originating timekeeper (ID)")]).toBe(ada.id);

    // A list of references: titles and ids joined with ";", imported back by the ids.
    const cases = readCsv((await admin.get("/api/v1/case/export?filter.unique_key=K-1")).text);
    const tk = (name: string) => cases.rows[0]![cases.header.indexOf(name)]!;
    expect(tk("Timekeepers")).toBe("Ada Attorney");
    expect(tk("Timekeepers (ID)")).toBe(ada.id);
    const bo = (await admin.get("/api/v1/timekeeper/search?filter.unique_key=TK-2")).body[0];
    cases.rows[0]![cases.header.indexOf("Timekeepers (ID)")] = `${ada.id};${bo.id}`;
    cases.rows[0]![cases.header.indexOf("Case name")] = "Acme v. Beta (round trip)";
    const caseImport = await imported(admin, "case", writeCsv(cases.header, cases.rows), "", { contentType: "text/csv" });
    expect(caseImport.job).toMatchObject({ updated: 1, rejected: 0 });
    const [stored] = (await admin.get("/api/v1/case/search?filter.unique_key=K-1")).body;
    expect(stored.name).toBe("Acme v. Beta (round trip)");
    expect([...stored.assigned_timekeepers].sort()).toEqual([ada.id, bo.id].sort());
  });

  it("takes a file written by hand with the labels people see", async () => {
    const admin = await as(DEMO.admin);
    const { job } = await imported(admin, "matter", "Name, matter number ,Client,Status\nLabelled matter,M-LBL,C-002,open");
    expect(job).toMatchObject({ created: 1, rejected: 0 });
    const [matter] = (await admin.get("/api/v1/matter/search?filter.unique_key=M-LBL")).body;
    const beta = (await admin.get("/api/v1/client/search?filter.unique_key=C-002")).body[0];
    expect(matter.client_id).toBe(beta.id);
  });

  it("accepts the header of every importable entity's export", async () => {
    const admin = await as(DEMO.admin);
    const importable = SERVER_RESOURCES.filter((r) => r.writable && isImportable(r.def));
    expect(importable.length).toBeGreaterThan(10);
    for (const res of importable) {
      const segment = res.def.apiPath.replace("/api/v1/", "");
      const exported = await admin.get(`/api/v1/${segment}/export?max=1`);
      expect(exported.status, res.def.key).toBe(200);
      const { header } = readCsv(exported.text);
      // One line naming no record: the header is what is checked; the line is rejected on its own.
      expect(header[0]).toBe("ID");
      const line = header.map((_, i) => (i === 0 ? "no-such-record" : ""));
      const started = await send(admin, segment, writeCsv(header, [line]), "", "text/csv");
      expect(started.status, `${res.def.key}: ${started.text}`).toBe(202);
      await finished(admin, started);
    }
  });

  it("rejects lines in the catalogue's words, never a validator's", async () => {
    const admin = await as(DEMO.admin);
    const { lines } = await imported(
      admin,
      "timekeeper",
      `full_name,email,unique_key,status,additional_receipt_emails\nNo Mail,not-an-address,TK-X1,active,\n${"L".repeat(300)},long@firm.test,TK-X2,active,\nBad List,list@firm.test,TK-X3,active,a@b.test;nope`,
    );
    const reasons = Object.fromEntries(lines.map((l) => [l.record, l.reasons]));
    expect(reasons["TK-X1"]).toEqual({ email: ["Enter a valid email address."] });
    expect(reasons["TK-X2"]!.full_name).toEqual([expect.stringMatching(/^Field length must be less than \d+ characters long$/)]);
    expect(reasons["TK-X3"]).toEqual({ additional_receipt_emails: ["Enter a valid email address."] });
    const words = JSON.stringify(lines.map((l) => l.reasons));
    expect(words).not.toMatch(/Expected|received|Invalid enum|Required$/);
  });
});
