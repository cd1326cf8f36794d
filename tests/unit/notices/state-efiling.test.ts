// State e-filing providers' notices (fixtures of our own making after the providers' published
// formats): Tyler eFileTexas notification of service, filing accepted and rejected, and a File &
// ServeXpress service notification, each one envelope with documents, filer and service contacts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseNoticeEmail, type ParsedNotice } from "../../../server/notices";
import { tylerSubjectParts } from "../../../server/notices/state-efiling";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/notices");

async function notice(name: string): Promise<ParsedNotice> {
  const result = await parseNoticeEmail(readFileSync(path.join(fixtures, name)));
  if (result.kind !== "notice") throw new Error(`${name}: expected a notice, got ${result.kind} (${result.reason})`);
  return result.notice;
}

const entryOf = (n: ParsedNotice) => n.dockets[0]?.docket_entries[0];

describe("state e-filing notices", () => {
  it("eFileTexas notification of service: envelope, served document link, filer, service contacts, Texas courts", async () => {
    const n = await notice("tyler-efiletexas-service.eml");
    expect(n).toMatchObject({ notice_type: "TYLER_EFILE", court_id: "state-tx", appellate: false, court_host: null });
    expect(n.dockets).toHaveLength(1);
    expect(n.dockets[0]).toMatchObject({
      docket_number: "2024-CI-18817",
      case_name: "Rosalind Avery vs. Pecan Valley Builders, LLC",
      federal_dn_case_type: null,
    });
    expect(entryOf(n)).toMatchObject({
      envelope_number: "93125567",
      filing_status: "served",
      date_filed: "2024-10-08",
      short_description: "Plaintiff's Motion to Compel Discovery Responses",
      filed_by: "Marisol Quintanilla",
      document_url: "https://efiletexas.gov/ViewDocuments.aspx?FID=5c3e2a10-8b7d-4c1e-9f00-a1b2c3d4e5f6",
      documents: [
        {
          number: 0,
          description: "Plaintiff's Motion to Compel Discovery Responses",
          url: "https://efiletexas.gov/ViewDocuments.aspx?FID=5c3e2a10-8b7d-4c1e-9f00-a1b2c3d4e5f6",
          pacer_doc_id: null,
        },
      ],
    });
    expect(n.email_recipients).toEqual([
      { name: "Theo Brandvold", email_addresses: ["tbrandvold@brandvold-law.test"] },
      { name: "Docketing Department", email_addresses: ["docketing@firm.test"] },
      { name: "Ines Castellanos", email_addresses: ["icastellanos@castellanos-pc.test"] },
    ]);
  });

  it("filing accepted: the file-stamped copy and attachment, the court, the acceptance date", async () => {
    const n = await notice("tyler-filing-accepted.eml");
    expect(n).toMatchObject({ court_id: "state-tx", court_name: "Bexar County - 285th District Court" });
    const entry = entryOf(n);
    expect(entry).toMatchObject({ filing_status: "accepted", envelope_number: "93125567", entered_on: "2024-10-09", filed_by: "Marisol Quintanilla" });
    expect(entry?.description).toBe("Motion (No Fee): Plaintiff's Motion to Compel Discovery Responses (Accepted) Comments: Accepted as filed.");
    expect(entry?.documents.map((d) => [d.number, d.description])).toEqual([
      [0, "File Stamped Copy"],
      [1, "Proposed Order.pdf"],
    ]);
    expect(n.contains_attachments).toBe(true);
  });

  it("filing rejected: the reason in the docket text and no document to fetch", async () => {
    const entry = entryOf(await notice("tyler-filing-rejected.eml"));
    expect(entry).toMatchObject({ filing_status: "rejected", envelope_number: "93125601", documents: [], document_url: null });
    expect(entry?.description).toContain("Rejection reason: The proposed order must be submitted as a separate lead document.");
  });

  it("File & ServeXpress: California courts, transaction number, documents and service list, never a federal notice", async () => {
    const n = await notice("fsx-california-service.eml");
    expect(n).toMatchObject({ notice_type: "FILE_AND_SERVEXPRESS", court_id: "state-ca", court_name: "CA Superior Court County of San Francisco" });
    expect(n.dockets.map((d) => d.docket_number)).toEqual(["CGC-24-612345"]);
    expect(entryOf(n)).toMatchObject({
      envelope_number: "72834612",
      filed_by: "Sequoia Irrigation Inc.",
      short_description: "Opposition to Motion for Summary Judgment",
    });
    expect(entryOf(n)?.documents.map((d) => d.description)).toEqual(["Opposition to Motion for Summary Judgment.pdf", "Declaration of G. Montoya.pdf"]);
    expect(n.email_recipients.map((r) => r.name)).toEqual(["Amos Haverford", "Docketing Department"]);
  });

  it("reads Tyler's subjects in the forms real mail has: case, case style and envelope", () => {
    expect(tylerSubjectParts("Filing Submitted for Case: 120519758; ; Envelope Number: 88112233")).toEqual({
      kind: "Filing Submitted",
      caseNumber: "120519758",
      caseStyle: null,
      envelope: "88112233",
    });
    expect(tylerSubjectParts("Fw: Filing Submitted for Case: 120523224")).toMatchObject({ caseNumber: "120523224", envelope: null });
    expect(tylerSubjectParts("Filing Accepted for Case: 2024-CI-18817; Rosalind Avery vs. Pecan Valley Builders, LLC; Envelope Number: 93125567")).toEqual({
      kind: "Filing Accepted",
      caseNumber: "2024-CI-18817",
      caseStyle: "Rosalind Avery vs. Pecan Valley Builders, LLC",
      envelope: "93125567",
    });
    expect(
      tylerSubjectParts(
        "Notification of Service for Case: 2024-CI-18817, Rosalind Avery vs. Pecan Valley Builders, LLC for filing Motion to Compel, Envelope Number: 93125567",
      ),
    ).toMatchObject({
      kind: "Notification of Service",
      caseNumber: "2024-CI-18817",
      caseStyle: "Rosalind Avery vs. Pecan Valley Builders, LLC",
      envelope: "93125567",
    });
    expect(tylerSubjectParts("Activity in Case 1:24-cv-00001 Roe v. Doe Order")).toBeNull();
  });

  it("takes the case and envelope from the subject when the body does not print them", async () => {
    const raw = [
      "From: efilingmail@tylerhost.net",
      "Subject: Filing Submitted for Case: 120519758; ; Envelope Number: 88112233",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Your filing has been submitted. You will receive another e-mail when it has been reviewed.",
      "Filing Description: Complaint for Possession",
      "",
    ].join("\r\n");
    const result = await parseNoticeEmail(raw);
    if (result.kind !== "notice") throw new Error(`expected a notice, got ${result.kind}`);
    expect(result.notice.notice_type).toBe("TYLER_EFILE");
    expect(result.notice.dockets[0]?.docket_number).toBe("120519758");
    expect(entryOf(result.notice)).toMatchObject({ envelope_number: "88112233", filing_status: "submitted", short_description: "Complaint for Possession" });
  });

  it("Indiana: mail from tylerhost.net with a 'Case #:' list is a submitted envelope of the Indiana courts", async () => {
    const n = await notice("tyler-indiana-submitted.eml");
    expect(n).toMatchObject({ notice_type: "TYLER_EFILE", court_id: "state-in" });
    expect(n.dockets[0]).toMatchObject({ docket_number: "49D01-2403-PL-012345", case_name: "Hoosier Grain Cooperative v. Wabash Freight LLC" });
    expect(entryOf(n)).toMatchObject({ envelope_number: "88112233", filing_status: "submitted", date_filed: "2024-03-14", filed_by: "Priya Raman" });
  });

  it("a table with 'Envelope #' and 'Case No.:' (its value in the row below) and a portal named by its host", async () => {
    const n = await notice("tyler-illinois-accepted-table.eml");
    expect(n).toMatchObject({ court_id: "state-il" });
    expect(n.dockets[0]).toMatchObject({ docket_number: "2024L001234", case_name: "Prairie Mills Co. v. Lakeshore Transit Authority" });
    expect(entryOf(n)).toMatchObject({ envelope_number: "27781455", filing_status: "accepted", entered_on: "2024-05-21" });
    expect(entryOf(n)?.documents.map((d) => d.description)).toEqual(["File Stamped Copy"]);
  });

  it("File & ServeXpress 'You have been served' without a service list: served, not submitted", async () => {
    const n = await notice("fsx-you-have-been-served.eml");
    expect(n).toMatchObject({ notice_type: "FILE_AND_SERVEXPRESS", court_id: "state-de" });
    expect(n.dockets[0]?.docket_number).toBe("N24C-03-118 EMD");
    expect(entryOf(n)).toMatchObject({ filing_status: "served", envelope_number: "73001122", filed_by: "Nadia Oyelaran" });
  });
});
