import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pacerCharge, pageCount, recordPacerDocument } from "../../server/billing/court-costs";
import { CREATE_ORDER, minimalBody, readOnlyRow } from "./contract-fixtures";
import { type RunningApi, DEMO, api, backends, creator, sessionsOf, startApi } from "./harness";
import { ledes1998bErrors } from "./ledes-1998b";

// The cost load and the time export of /billing (decision 113): PACER's charge per document
// (pages × $0.10, capped at $3.00, transcripts in full) on the case, matter and client with the
// firm's cost code, 'Cost Code required' until the firm has one; the review time of billable
// timekeepers; LEDES 1998B files the checker written from the published specification accepts.

describe.each(backends)("billing exports (%s)", (backend) => {
  let running: RunningApi;
  let firmId: number;
  const ids: Record<string, string> = {};
  const sessionOf = sessionsOf(() => running);
  const as = async (email: string) => api(running.url, (await sessionOf(email)).access_token);
  const db = () => running.ctx.database.db;
  const SEPT = { from: "2026-09-01", to: "2026-09-30" };
  /** An export as the console asks for it: a post of the period, the filters and the format. */
  const exportOf = async (kind: "costs" | "time", extra: Record<string, string> = {}, email: string = DEMO.admin) =>
    (await as(email)).post(`/api/v1/billing/${kind}/export`, { ...SEPT, ...extra });

  beforeAll(async () => {
    running = await startApi({ backend });
    firmId = (await db().selectFrom("firm").select("id").where("is_default", "=", 1).executeTakeFirstOrThrow()).id;
    const admin = await as(DEMO.admin);
    const post = creator(admin);
    for (const key of CREATE_ORDER.slice(0, CREATE_ORDER.indexOf("cases") + 1)) {
      const path = { timekeepers: "/api/v1/timekeeper", clients: "/api/v1/client", matters: "/api/v1/matter", cases: "/api/v1/case" }[key as string];
      const body = minimalBody(key, "Exp", ids, "");
      if (path)
        ids[key] = await post(
          path,
          key === "timekeepers"
            ? { ...body, title: "Senior Partner", billable: true }
            : key === "clients"
              ? { ...body, reference_id: "ACME" }
              : key === "matters"
                ? { ...body, reference_id: "ACME-001" }
                : body,
        );
      else ids[key] = await post(`/api/v1/${key === "practice-groups" ? "practice-group" : key.replace(/s$/, "")}`, body);
    }
  });

  afterAll(async () => {
    await running?.close();
  });

  it("charges a PACER document its pages at $0.10 up to $3.00, a transcript every page, and counts the pages of the PDF", async () => {
    expect(pacerCharge(3, false)).toBe(30);
    expect(pacerCharge(45, false)).toBe(300);
    expect(pacerCharge(45, true)).toBe(450);
    expect(pacerCharge(null, false)).toBe(300);
    const pdf = await PDFDocument.create();
    for (let i = 0; i < 4; i++) pdf.addPage();
    expect(await pageCount(Buffer.from(await pdf.save()))).toBe(4);
    expect(await pageCount(Buffer.from(await pdf.save({ useObjectStreams: true })))).toBe(4);
    expect(await pageCount(Buffer.from("not a pdf"))).toBeNull();
  });

  it("says 'Cost Code required' until the firm sets one, then downloads the period's costs as LEDES 1998B and CSV", async () => {
    const admin = await as(DEMO.admin);
    const at = Date.UTC(2026, 8, 10);
    await recordPacerDocument(db(), {
      firmId,
      documentId: "doc-a",
      caseId: ids.cases!,
      name: "Motion to dismiss",
      docketText: "MOTION to Dismiss",
      pages: 45,
      at,
    });
    await recordPacerDocument(db(), {
      firmId,
      documentId: "doc-b",
      caseId: ids.cases!,
      name: "Transcript of hearing",
      docketText: "TRANSCRIPT",
      pages: 45,
      at: at + 1,
    });
    // A second record of the same document changes nothing.
    await recordPacerDocument(db(), { firmId, documentId: "doc-a", caseId: ids.cases!, name: "Motion to dismiss", docketText: "", pages: 45, at });

    const refused = await exportOf("costs");
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("Cost Code required");
    const settings = await admin.get("/api/v1/billing/settings");
    expect(settings.body).toMatchObject({ cost_code: null, can_change: true });

    const viewOnly = await as(DEMO.viewOnly);
    expect((await viewOnly.put("/api/v1/billing/settings", { cost_code: "E106" })).status).toBe(403);
    const saved = await admin.put("/api/v1/billing/settings", { cost_code: "E106", law_firm_id: "12-3456789" });
    expect(saved.status).toBe(200);

    const ledes = await exportOf("costs", { format: "ledes" });
    expect(ledes.status).toBe(200);
    expect(ledes.headers.get("content-disposition")).toContain("costload-2026-09-01_2026-09-30.txt");
    expect(ledes1998bErrors(ledes.text)).toEqual([]);
    const rows = ledes.text.trim().split("\r\n").slice(2);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^20260930\|C20260901-1\|ACME\|ACME-001\|7\.50\|20260901\|20260930\|Court costs\|1\|E\|1\|0\.00\|3\.00\|20260910\|\|E106\|/);
    expect(rows[1]).toContain("|4.50|");

    const csv = await exportOf("costs", { format: "csv" });
    expect(csv.text.split("\r\n")[0]).toBe("date,client,client_name,matter,matter_name,case,kind,description,pages,amount,currency,cost_code");
    expect(csv.text).toContain(",45,3.00,USD,E106");
    // Filtered by another client: nothing.
    const other = await exportOf("costs", { format: "csv", client_id: "no-such-client" });
    expect(other.text.trim().split("\r\n")).toHaveLength(1);
    // Bad input is a 400, never a 500.
    expect((await exportOf("costs", { from: "September" })).status).toBe(400);
    expect((await exportOf("costs", { format: "timeslips" })).status).toBe(400);

    const events = await db().selectFrom("event_log").select("event").where("firm_id", "=", firmId).where("event", "=", "costs exported").execute();
    expect(events).toHaveLength(3);
  });

  it("leaves out of a walled reader's cost load the matters a wall keeps them out of", async () => {
    const admin = await as(DEMO.admin);
    const wall = await creator(admin)("/api/v1/ethical-wall", {
      name: "Keep out",
      type: "exclusionary",
      matter_id: ids.matters,
      timekeepers: [ids.timekeepers],
    });
    expect((await admin.put("/api/v1/firm/internal-walls", { enabled: true })).status).toBe(200);
    await db().updateTable("app_user").set({ timekeeper_id: ids.timekeepers! }).where("email", "=", DEMO.manager).execute();
    try {
      const walled = await exportOf("costs", { format: "csv" }, DEMO.manager);
      expect(walled.status).toBe(200);
      expect(walled.text.trim().split("\r\n")).toHaveLength(1);
      expect((await exportOf("costs", { format: "csv" })).text.trim().split("\r\n")).toHaveLength(3);
    } finally {
      await db().updateTable("app_user").set({ timekeeper_id: null }).where("email", "=", DEMO.manager).execute();
      expect((await admin.put("/api/v1/firm/internal-walls", { enabled: false })).status).toBe(200);
      expect((await admin.request("DELETE", `/api/v1/ethical-wall/${wall}`)).status).toBeLessThan(300);
    }
  });

  it("records review time only once the firm sets minutes for a title, and exports it as LEDES 1998B and for Timeslips", async () => {
    const admin = await as(DEMO.admin);
    const itemId = await readOnlyRow(running, "inbox-items", firmId, (await sessionOf(DEMO.admin)).access_token, "Exp", ids);
    await db().updateTable("inbox_item").set({ case_id: ids.cases!, subject: "Order granting motion" }).where("id", "=", itemId).execute();
    const notified = Date.UTC(2026, 8, 12, 15);
    for (const [n, email] of [
      [1, "a@example.test"],
      [2, "b@example.test"],
    ] as const) {
      await db()
        .insertInto("notification")
        .values({
          id: `notification-${n}`,
          firm_id: firmId,
          inbox_item_id: itemId,
          timekeeper_id: ids.timekeepers!,
          timekeeper_group_id: null,
          email,
          cadence: "REALTIME",
          delivery_method: "PDF",
          status: "sent",
          reason: "",
          outbound_mail_id: null,
          digest_run_id: null,
          created_at: notified,
          sent_at: notified,
        })
        .execute();
    }
    const off = await exportOf("time");
    expect(off.text.trim().split("\r\n")).toHaveLength(2);

    expect((await admin.put("/api/v1/billing/settings", { review_minutes: { "senior partner": 7 } })).status).toBe(200);
    const ledes = await exportOf("time");
    expect(ledes1998bErrors(ledes.text)).toEqual([]);
    const rows = ledes.text.trim().split("\r\n").slice(2);
    // Two addresses of one timekeeper for one notice: one entry.
    expect(rows).toHaveLength(1);
    expect(rows[0]!.split("|").slice(9, 11)).toEqual(["F", "0.1167"]);
    expect(rows[0]).toContain("|PT|");

    const slips = await exportOf("time", { format: "timeslips" });
    const [header, line] = slips.text.split("\r\n");
    expect(header).toBe("Timekeeper Nickname 1,Client Nickname 1,Activity Nickname 1,Transaction Date,Time Spent,Description");
    // No notice text leaves in a time entry: the case number says what was reviewed.
    expect(line).toMatch(/^[^,]+,ACME-001,REVIEW,09\/12\/2026,0\.1167,"Review of a court notice, case 1:24-cv-\d+"$/);
  });

  it("the checker refuses what LEDES 1998B does not allow", () => {
    const head =
      "LEDES1998B[]\r\nINVOICE_DATE|INVOICE_NUMBER|CLIENT_ID|LAW_FIRM_MATTER_ID|INVOICE_TOTAL|BILLING_START_DATE|BILLING_END_DATE|INVOICE_DESCRIPTION|LINE_ITEM_NUMBER|EXP/FEE/INV_ADJ_TYPE|LINE_ITEM_NUMBER_OF_UNITS|LINE_ITEM_ADJUSTMENT_AMOUNT|LINE_ITEM_TOTAL|LINE_ITEM_DATE|LINE_ITEM_TASK_CODE|LINE_ITEM_EXPENSE_CODE|LINE_ITEM_ACTIVITY_CODE|TIMEKEEPER_ID|LINE_ITEM_DESCRIPTION|LAW_FIRM_ID|LINE_ITEM_UNIT_COST|TIMEKEEPER_NAME|TIMEKEEPER_CLASSIFICATION|CLIENT_MATTER_ID[]\r\n";
    const good = "20260930|C1|ACME|M1|3.00|20260901|20260930|Costs|1|E|1|0.00|3.00|20260910||E106|||PACER|LF1|3.00|||[]\r\n";
    expect(ledes1998bErrors(head + good)).toEqual([]);
    expect(ledes1998bErrors(head + good.replace("|3.00|20260901", "|4.00|20260901"))).toEqual([
      "invoice C1: INVOICE_TOTAL 4.00 is not the sum of its LINE_ITEM_TOTALs",
    ]);
    expect(ledes1998bErrors(head + good.replace("20260910", "20260931"))).toHaveLength(1);
    expect(ledes1998bErrors(head + good.replace("|E|", "|X|"))).toHaveLength(1);
    expect(ledes1998bErrors(head + good.replace("[]\r\n", "\r\n"))).toHaveLength(1);
    expect(ledes1998bErrors(head.replace("LEDES1998B[]", "LEDES98B[]") + good)).toHaveLength(1);
  });
});
