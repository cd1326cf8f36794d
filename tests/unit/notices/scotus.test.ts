// The Supreme Court's docket notifications (real messages, tests/fixtures/notices/scotus): docket
// number, case title without the parties' roles, the entry text and the public documents it links.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseNoticeEmail, type ParsedNotice } from "../../../server/notices";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/notices/scotus");
const raw = (name: string) => readFileSync(path.join(fixtures, name));

async function notice(input: Buffer | string): Promise<ParsedNotice> {
  const result = await parseNoticeEmail(input);
  if (result.kind !== "notice") throw new Error(`expected a notice, got ${result.kind} (${result.reason})`);
  return result.notice;
}

describe("Supreme Court docket notifications", () => {
  it("reads the docket, the case title, the entry text and the opinion it links (quoted-printable)", async () => {
    const n = await notice(raw("25-112.eml"));
    expect(n).toMatchObject({ notice_type: "SCOTUS", court_id: "scotus", court_host: "www.supremecourt.gov", appellate: true });
    expect(n.dockets).toHaveLength(1);
    expect(n.dockets[0]).toMatchObject({ docket_number: "25-112", case_name: "Okello T. Chatrie v. United States" });
    const entry = n.dockets[0]?.docket_entries[0];
    expect(entry?.description).toMatch(
      /^Judgment VACATED and case REMANDED\. Kagan, J\., delivered the opinion of the Court, .* Barrett, J\., filed a dissenting opinion\.$/,
    );
    expect(entry?.description).toContain("Parts II–B, II–C–1, and II–C–2");
    expect(entry).toMatchObject({ short_description: "Judgment VACATED and case REMANDED.", date_filed: "2026-06-29" });
    expect(entry?.documents).toEqual([
      { number: 0, description: "Opinion", url: "https://www.supremecourt.gov/opinions/25pdf/25-112_0am4.pdf", pacer_doc_id: null },
    ]);
    expect(entry?.document_url).toBe("https://www.supremecourt.gov/opinions/25pdf/25-112_0am4.pdf");
  });

  it("reads entries without documents, drops the parties' roles and 'et al.', and dates the entry in Washington", async () => {
    const trump = await notice(raw("25-250.eml"));
    expect(trump.dockets[0]).toMatchObject({
      docket_number: "25-250",
      case_name: "Donald J. Trump, President of the United States v. V.O.S. Selections, Inc.",
    });
    // Sent 02:04 UTC on 9 October: still 8 October at the Court.
    expect(trump.dockets[0]?.docket_entries[0]).toMatchObject({
      description: "Amicus brief of Corey J. Biazzo, Esq. submitted.",
      short_description: "Amicus brief of Corey J. Biazzo, Esq. submitted.",
      date_filed: "2025-10-08",
      documents: [],
      document_url: null,
    });
    const denied = await notice(raw("25-261.eml"));
    expect(denied.dockets[0]).toMatchObject({
      docket_number: "25-261",
      case_name: "Christine Asing v. Hawaii Government Employees Association - AFSCME Local 152, AFL-CIO",
    });
    expect(denied.dockets[0]?.docket_entries[0]?.description).toBe("Petition DENIED.");
  });

  it("reads an application's docket number and a notification with no entry text", async () => {
    const n = await notice(raw("25A1208.eml"));
    expect(n.dockets[0]).toMatchObject({ docket_number: "25A1208", case_name: "GenBioPro, Inc. v. Louisiana" });
    expect(n.dockets[0]?.docket_entries[0]).toMatchObject({ description: null, documents: [], date_filed: "2026-05-04" });
  });

  it("takes the notification forwarded by a colleague, the docket number from the sentence when the case link is gone", async () => {
    const forwarded = [
      "From: Dana Clerk <dclerk@firm.test>",
      "To: docketing@firm.test",
      "Subject: Fwd: Supreme Court Electronic Filing System",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "---------- Forwarded message ---------",
      "From: no-reply@sc-us.gov",
      "Subject: Supreme Court Electronic Filing System",
      "",
      'A new docket entry, "Motion to extend the time to file a response is granted and the time is extended to and including March 2, 2026." has been added for',
      "Acme Rail Co., Petitioner v. Jane Roe, et al.. You have been signed up to receive email notifications for No. 25-901.",
      "",
    ].join("\r\n");
    const n = await notice(forwarded);
    expect(n).toMatchObject({ court_id: "scotus", notice_type: "SCOTUS" });
    expect(n.dockets[0]).toMatchObject({ docket_number: "25-901", case_name: "Acme Rail Co. v. Jane Roe" });
    expect(n.dockets[0]?.docket_entries[0]?.short_description).toBe(
      "Motion to extend the time to file a response is granted and the time is extended to and including March 2, 2026.",
    );
  });

  it("never takes the subscription confirmation for a docket entry", async () => {
    const result = await parseNoticeEmail(raw("25a561-confirmation.eml"));
    expect(result.kind).not.toBe("notice");
  });

  it("takes only the Court's own links as documents, never a link to another host", async () => {
    const mail = [
      "From: no-reply@sc-us.gov",
      "Subject: Supreme Court Electronic Filing System",
      "Content-Type: text/html; charset=utf-8",
      "",
      `A new docket entry, "Brief of respondent <a href='https://www.supremecourt.gov/DocketPDF/25/25-77/401122/20260112101010123_25-77%20Brief.pdf'>Roe</a> filed (see <a href='https://attacker.test/x.pdf'>copy</a>)." has been added for <a href='https://www.supremecourt.gov/search.aspx?filename=/docket/DocketFiles/html/Public/25-77.html'>Roe, Petitioner v. Doe</a>. You have been signed up to receive email notifications for No. 25-77.`,
    ].join("\r\n");
    const entry = (await notice(mail)).dockets[0]?.docket_entries[0];
    expect(entry?.documents.map((d) => d.url)).toEqual(["https://www.supremecourt.gov/DocketPDF/25/25-77/401122/20260112101010123_25-77%20Brief.pdf"]);
  });
});
