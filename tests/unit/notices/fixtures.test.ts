// Hand-written fixtures (fictitious parties, .test addresses), one per
// variation the parser has to cope with.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseNoticeEmail, toGoldShape, type ParsedEmail, type ParsedNotice } from "../../../server/notices";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/notices");

async function parseFixture(name: string): Promise<ParsedEmail> {
  return parseNoticeEmail(readFileSync(path.join(fixtures, name)));
}

async function notice(name: string): Promise<ParsedNotice> {
  const result = await parseFixture(name);
  if (result.kind !== "notice") throw new Error(`${name}: expected a notice, got ${result.kind} (${result.reason})`);
  return result.notice;
}

function entry(n: ParsedNotice, docket = 0) {
  const e = n.dockets[docket]?.docket_entries[0];
  if (!e) throw new Error("no docket entry");
  return e;
}

describe("notice fixtures", () => {
  it("district NEF, HTML, UTF-8 quoted-printable with soft breaks inside links", async () => {
    const n = await notice("nef-district-qp-utf8.eml");
    expect(n).toMatchObject({
      court_id: "txed",
      court_host: "ecf.txed.uscourts.gov",
      notice_type: "NEF",
      appellate: false,
      acms: false,
      contains_attachments: true,
      message_id: "4100001@txed.uscourts.test",
      sent_at: "2024-03-05T17:42:31.000Z",
    });
    expect(n.dockets).toHaveLength(1);
    expect(n.dockets[0]).toMatchObject({
      docket_number: "2:24-cv-00123",
      docket_number_full: "2:24-cv-00123-JRG-RSP",
      federal_dn_office_code: "2",
      federal_dn_case_type: "cv",
      federal_dn_judge_initials_assigned: "JRG",
      federal_dn_judge_initials_referred: "RSP",
      federal_defendant_number: null,
      case_name: "Peña Industries, LLC v. Bluebonnet Widgets Inc.",
      date_filed: null,
    });
    expect(entry(n)).toEqual({
      date_filed: "2024-03-05",
      description:
        "MOTION to Dismiss for Failure to State a Claim Under Rule 12(b)(6) by Bluebonnet Widgets Inc.. (Attachments: (1) Proposed Order, (2) Exhibit A – Declaration of José Núñez)(Okafor, Adaeze)",
      short_description: "Motion to Dismiss",
      document_number: "31",
      document_url: "https://ecf.txed.uscourts.gov/doc1/175135791113?caseid=212345&de_seq_num=88&magic_num=12345678",
      pacer_doc_id: "175035791113",
      pacer_case_id: "212345",
      pacer_seq_no: "88",
      pacer_magic_num: "12345678",
      filed_by: "Bluebonnet Widgets Inc.",
      entered_on: "2024-03-05",
      sealed: false,
      documents: [
        {
          number: 0,
          description: "Main Document",
          url: "https://ecf.txed.uscourts.gov/doc1/175135791113?caseid=212345&de_seq_num=88&magic_num=12345678",
          pacer_doc_id: "175035791113",
        },
        { number: 1, description: "Proposed Order", url: null, pacer_doc_id: null },
        { number: 2, description: "Exhibit A – Declaration of José Núñez", url: null, pacer_doc_id: null },
      ],
    });
    expect(n.email_recipients).toEqual([
      { name: "Adaeze Okafor", email_addresses: ["aokafor@lawfirm.test", "docket@lawfirm.test"] },
      { name: "Marcus T. Bell Jr", email_addresses: ["mbell@bellpc.test"] },
    ]);
  });

  it("bankruptcy NEF, HTML, base64, personName recipients, chapter prefix in subject", async () => {
    const n = await notice("nef-bankruptcy-base64.eml");
    expect(n.court_id).toBe("mieb");
    expect(n.contains_attachments).toBe(true);
    expect(n.dockets[0]).toMatchObject({
      docket_number: "24-40123",
      docket_number_full: "24-40123-mar",
      federal_dn_office_code: null,
      federal_dn_case_type: null,
      federal_dn_judge_initials_assigned: "mar",
      case_name: "Harbor Lights Marine, LLC",
    });
    expect(entry(n)).toMatchObject({
      date_filed: "2024-06-14",
      description:
        "Motion for Relief from Stay as to 2019 Sea Ray Sundancer Fee Amount $ 199. Filed by Priya Raman on behalf of Great Lakes Boat Finance Co. (Attachments: (1) Exhibit A (2) Proposed Order) (Raman, Priya)",
      short_description: "Motion for Relief From Stay",
      document_number: "57",
      pacer_doc_id: "09105123456",
      pacer_case_id: "456789",
      pacer_seq_no: "210",
      pacer_magic_num: "55501234",
      filed_by: "Priya Raman",
    });
    expect(entry(n).documents.map((d) => d.description)).toEqual(["Main Document", "Exhibit A", "Proposed Order"]);
    expect(n.email_recipients).toEqual([
      { name: "Priya Raman", email_addresses: ["praman@raman-law.test", "ecf@raman-law.test"] },
      { name: "United States Trustee", email_addresses: ["ustp.region09@ustrustee.test"] },
    ]);
  });

  it("plain-text NEF in ISO-8859-1 quoted-printable", async () => {
    const n = await notice("nef-plain-iso-8859-1.eml");
    expect(n.court_id).toBe("cod");
    expect(n.subject).toBe(
      "Activity in Case 1:24-cv-01234-RMR-SBP Café Société LLC v. Rocky Ridge Holdings Inc. Order on Motion for Extension of Time to Answer",
    );
    expect(n.dockets[0]).toMatchObject({ docket_number: "1:24-cv-01234", case_name: "Café Société LLC v. Rocky Ridge Holdings Inc." });
    expect(entry(n)).toMatchObject({
      date_filed: "2024-03-11",
      description:
        "ORDER granting [15] Motion for Extension of Time to Answer. Answer due by 4/1/2024. Signed by Magistrate Judge Ana Lucía Ortega on 3/11/2024. (sbp1)",
      short_description: "Order on Motion for Extension of Time to Answer",
      document_number: "18",
      document_url: "https://ecf.cod.uscourts.gov/doc1/03918765432?caseid=223344&de_seq_num=61&magic_num=44556677",
      pacer_doc_id: "03908765432",
      pacer_case_id: "223344",
      filed_by: null,
    });
    expect(n.email_recipients).toEqual([
      { name: "Hélène Dubois", email_addresses: ["hdubois@cafe-law.test"] },
      { name: "Tom Reyes", email_addresses: ["treyes@rockyridge.test", "paralegal@rockyridge.test"] },
    ]);
  });

  it("HTML NEF in windows-1252 (8bit smart quotes) with a windows-1252 encoded-word subject", async () => {
    const n = await notice("nef-html-windows-1252.eml");
    expect(n.court_id).toBe("paed");
    expect(n.dockets[0]?.case_name).toBe("O\u2019Connor v. Keystone Freight Lines, Inc.");
    expect(entry(n)).toMatchObject({
      description: "RESPONSE in Opposition re [19] MOTION to Compel \u201cFull and Complete\u201d Answers \u2013 filed by Liam O\u2019Connor. (Brennan, Maeve)",
      short_description: "Response in Opposition to Motion",
      filed_by: "Liam O\u2019Connor",
    });
  });

  it("HTML NEF without a charset, unquoted attributes and entities without semicolons, criminal defendant number", async () => {
    const n = await notice("nef-html-no-charset.eml");
    expect(n.court_id).toBe("gand");
    expect(n.dockets[0]).toMatchObject({
      docket_number: "1:24-cr-00077",
      federal_dn_case_type: "cr",
      federal_dn_judge_initials_assigned: "LMM",
      federal_defendant_number: "2",
      case_name: "United States v. Marsh",
    });
    expect(entry(n)).toMatchObject({
      description: "NOTICE OF ATTORNEY APPEARANCE: Rosa Delgado appearing for Kevin Marsh & co-counsel (Delgado, Rosa)",
      short_description: "Notice of Attorney Appearance - Defendant",
      document_number: "46",
      pacer_magic_num: "99887766",
    });
    expect(n.email_recipients.map((r) => r.name)).toEqual(["Rosa Delgado", "Samuel Ortiz"]);
  });

  it("NEF forwarded by a person, Outlook plain text with -----Original Message-----", async () => {
    const n = await notice("nef-forwarded-outlook.eml");
    expect(n.court_id).toBe("ared");
    expect(n.subject).toMatch(/^FW: /);
    expect(n.dockets[0]).toMatchObject({ docket_number: "4:24-cv-00321", case_name: "Lindqvist v. Ozark Timber Co." });
    expect(entry(n)).toMatchObject({
      short_description: "Scheduling Order",
      document_number: "12",
      document_url: "https://ecf.ared.uscourts.gov/doc1/02715512345?caseid=134567&de_seq_num=40&magic_num=76543210",
      pacer_doc_id: "02705512345",
      pacer_case_id: "134567",
      date_filed: "2024-05-07",
    });
    expect(n.email_recipients).toEqual([
      { name: "Erik Lindqvist", email_addresses: ["elindqvist@lindqvist-law.test"] },
      { name: "Jordan Avery", email_addresses: ["javery@lawfirm.test", "docket@lawfirm.test"] },
    ]);
  });

  it("NEF forwarded by a person, Gmail multipart/alternative with ---------- Forwarded message ---------", async () => {
    const n = await notice("nef-forwarded-gmail.eml");
    expect(n.court_id).toBe("txsb");
    expect(n.dockets[0]).toMatchObject({ docket_number: "24-90001", case_name: "Gulf Breeze Energy Partners, L.P." });
    expect(entry(n)).toMatchObject({
      short_description: "Motion to Extend Exclusivity Period",
      document_number: "301",
      pacer_case_id: "998877",
      pacer_seq_no: "1200",
      pacer_magic_num: "31415926",
      filed_by: "Debtor Gulf Breeze Energy Partners, L.P.",
    });
    expect(n.email_recipients).toEqual([{ name: "Dana Whitaker", email_addresses: ["dwhitaker@gulfbreeze-law.test"] }]);
  });

  it("folded subject with split encoded words, folded headers and wrapped plain-text body", async () => {
    const n = await notice("nef-folded-subject.eml");
    expect(n.subject).toBe("Activity in Case 3:24-cv-00456-AB Martínez v. Pacific Coast Shipping Corp. Motion for Summary Judgment");
    expect(n.message_id).toBe("6600123@cand.uscourts.test");
    expect(n.sent_at).toBe("2024-07-02T17:20:59.000Z");
    expect(n.dockets[0]).toMatchObject({ docket_number: "3:24-cv-00456", case_name: "Martínez v. Pacific Coast Shipping Corp." });
    expect(entry(n)).toMatchObject({
      date_filed: "2024-07-02",
      short_description: "Motion for Summary Judgment",
      document_number: "37",
      pacer_case_id: "431234",
      description:
        "MOTION for Summary Judgment filed by Pacific Coast Shipping Corp.. Motion Hearing set for 8/15/2024 10:00 AM in San Francisco, Courtroom 11, 19th Floor before Judge Example. Responses due by 7/16/2024. (Hale, Corinne) (Filed on 7/2/2024)",
      filed_by: "Pacific Coast Shipping Corp.",
    });
    expect(n.email_recipients.map((r) => r.name)).toEqual(["Corinne Hale", "Luis Martínez"]);
  });

  it("multi-docket NEF (lead and member case)", async () => {
    const n = await notice("nef-multi-docket.eml");
    expect(n.court_id).toBe("nysd");
    expect(n.dockets.map((d) => d.docket_number)).toEqual(["1:24-cv-02001", "1:24-cv-02950"]);
    expect(n.dockets.map((d) => d.case_name)).toEqual(["Harmon v. Northwind Logistics LLC", "Quill v. Northwind Logistics LLC"]);
    expect(entry(n, 0)).toMatchObject({
      document_number: "18",
      pacer_case_id: "611001",
      pacer_seq_no: "55",
      pacer_magic_num: "87654321",
      short_description: "Order",
    });
    expect(entry(n, 1)).toMatchObject({ document_number: "9", pacer_case_id: "612345", pacer_seq_no: "23", pacer_magic_num: null, short_description: "Order" });
    expect(entry(n, 0).pacer_doc_id).toBe(entry(n, 1).pacer_doc_id);
    expect(n.email_recipients).toEqual([
      { name: "Helen Harmon", email_addresses: ["hharmon@harmonlaw.test"] },
      { name: "Victor Quill", email_addresses: ["vquill@quill-law.test", "assistant@quill-law.test"] },
    ]);
  });

  it("sealed document notice", async () => {
    const n = await notice("nef-sealed.eml");
    expect(n.court_id).toBe("caed");
    expect(n.dockets[0]).toMatchObject({ docket_number: "2:24-cr-00190", case_name: "United States v. Vance" });
    expect(entry(n)).toMatchObject({ sealed: true, document_number: "27", document_url: null, pacer_doc_id: null, pacer_case_id: "420042" });
    expect(n.contains_attachments).toBe(true);
  });

  it("ACMS appellate notice", async () => {
    const n = await notice("acms.eml");
    expect(n).toMatchObject({ court_id: "ca2", notice_type: "ACMS", appellate: true, acms: true, contains_attachments: true });
    expect(n.dockets[0]).toMatchObject({
      docket_number: "25-1187",
      federal_dn_office_code: null,
      federal_dn_case_type: null,
      case_name: "Riverside Tenants Union v. Halvorsen Properties LLC",
    });
    expect(entry(n)).toMatchObject({
      date_filed: "2025-02-03",
      entered_on: "2025-02-03",
      description:
        "MOTION to extend time to file the opening brief, on behalf of Appellant Riverside Tenants Union, FILED. Service date 02/03/2025 by ACMS. [Entered: 02/03/2025 04:45 PM]",
      short_description: "Motion to Extend Time",
      document_number: "12",
      document_url: "https://ca2-showdoc.azurewebsites.us/NDA/0f1e2d3c-4b5a-6978-8695-a4b3c2d1e0f9",
      pacer_doc_id: null,
      pacer_case_id: null,
      pacer_seq_no: null,
      pacer_magic_num: "0f1e2d3c-4b5a-6978-8695-a4b3c2d1e0f9",
    });
    expect(entry(n).documents.map((d) => d.description)).toEqual(["Motion", "Exhibit"]);
    expect(n.email_recipients.map((r) => r.name)).toEqual(["Nadia Castellanos", "Peter Halvorsen"]);
  });

  it("classic appellate NDA", async () => {
    const n = await notice("nda.eml");
    expect(n).toMatchObject({ court_id: "ca3", notice_type: "NDA", appellate: true, acms: false, contains_attachments: false });
    expect(n.dockets[0]).toMatchObject({ docket_number: "24-2345", case_name: "Fairmont Dairy Cooperative v. Commissioner of Agriculture" });
    expect(entry(n)).toMatchObject({
      date_filed: "2024-09-16",
      entered_on: "2024-09-16",
      short_description: "Appellant Brief",
      document_number: null,
      document_url: "https://ecf.ca3.uscourts.gov/docs1/003114556677?uid=a1b2c3d4e5f60718",
      pacer_doc_id: "003014556677",
      pacer_case_id: "123987",
      pacer_seq_no: null,
      pacer_magic_num: "a1b2c3d4e5f60718",
    });
    expect(n.email_recipients).toEqual([
      { name: "Grace Whitfield", email_addresses: ["gwhitfield@dairylaw.test", "docketing@dairylaw.test"] },
      { name: "Omar Haddad", email_addresses: ["ohaddad@clerk-office.test"] },
    ]);
  });

  it("notice forwarded as a message/rfc822 attachment", async () => {
    const n = await notice("nef-attached-message.eml");
    expect(n.court_id).toBe("mnd");
    expect(n.dockets[0]).toMatchObject({ docket_number: "0:24-cv-01999", federal_dn_office_code: "0" });
    expect(entry(n)).toMatchObject({ short_description: "Answer to Complaint", document_number: "9" });
  });

  it("court announcement is not a notice", async () => {
    expect(await parseFixture("court-announcement.eml")).toEqual({ kind: "not_a_notice", reason: "court announcement" });
  });

  it("court-looking mail in an unknown layout is unrecognised", async () => {
    const result = await parseFixture("unrecognised-layout.eml");
    expect(result.kind).toBe("unrecognised");
  });

  it("toGoldShape keeps exactly the scorer's fields", async () => {
    const gold = toGoldShape(await notice("nef-district-qp-utf8.eml"));
    expect(Object.keys(gold).sort()).toEqual(["acms", "appellate", "contains_attachments", "court_id", "dockets", "email_recipients"]);
    expect(Object.keys(gold.dockets[0] ?? {}).sort()).toEqual([
      "case_name",
      "date_filed",
      "docket_entries",
      "docket_number",
      "federal_defendant_number",
      "federal_dn_case_type",
      "federal_dn_judge_initials_assigned",
      "federal_dn_judge_initials_referred",
      "federal_dn_office_code",
    ]);
    expect(Object.keys(gold.dockets[0]?.docket_entries[0] ?? {}).sort()).toEqual([
      "date_filed",
      "description",
      "document_number",
      "document_url",
      "pacer_case_id",
      "pacer_doc_id",
      "pacer_magic_num",
      "pacer_seq_no",
      "short_description",
    ]);
  });
});
