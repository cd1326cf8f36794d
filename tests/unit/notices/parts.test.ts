// Unit tests of the building blocks: docket numbers, links, HTML/text
// conversion, recipients, subjects, sealed detection.
import { describe, expect, it } from "vitest";
import { cleanCaseName } from "../../../server/notices/case-name";
import { cleanDescription, filedByFromDescription } from "../../../server/notices/common";
import { firstDocketNumber, parseAppellateDocketNumber, parseDocketNumber } from "../../../server/notices/docket-number";
import { looksSealed } from "../../../server/notices/documents";
import { normalisePacerDocId, parseCourtLink, unwrapGatewayUrl } from "../../../server/notices/links";
import { parseRecipientLines } from "../../../server/notices/recipients";
import { acmsSubjectParts, nefShortDescription, ndaSubjectDescription, stripSubjectPrefixes } from "../../../server/notices/subject";
import { htmlToTextDoc, plainToTextDoc } from "../../../server/notices/text-doc";
import { findEmails, usDateToIso } from "../../../server/notices/text-utils";

describe("docket numbers", () => {
  it.each([
    ["1:20-cv-00572-WS-MU", "1:20-cv-00572", "1", "cv", "WS", "MU", null],
    ["1:17-cr-00201-ABJ-2", "1:17-cr-00201", "1", "cr", "ABJ", null, "2"],
    ["6:22-bk-13768-MH", "6:22-bk-13768", "6", "bk", "MH", null, null],
    ["1:24-bk-70535", "1:24-bk-70535", "1", "bk", null, null, null],
    ["22-00105-5-JNC", "22-00105", "5", null, "JNC", null, null],
    ["24-04888-CL7", "24-04888", null, null, "CL", null, null],
    ["24-04888-7", "24-04888", null, null, null, null, null],
    ["25-03768-JMC-13", "25-03768", null, null, "JMC", null, null],
    ["22-30500-swe7", "22-30500", null, null, "swe", null, null],
    ["1-23-42603-nhl", "1-23-42603", null, null, "nhl", null, null],
    ["23-20091", "23-20091", null, null, null, null, null],
    ["MDL No. 2741", "MDL No. 2741", null, null, null, null, null],
  ])("%s", (full, dn, office, type, assigned, referred, defendant) => {
    expect(parseDocketNumber(full)).toEqual({
      docket_number: dn,
      federal_dn_office_code: office,
      federal_dn_case_type: type,
      federal_dn_judge_initials_assigned: assigned,
      federal_dn_judge_initials_referred: referred,
      federal_defendant_number: defendant,
      full,
      court_code: null,
    });
  });

  it("rejects text that is not a docket number", () => {
    expect(parseDocketNumber("hello")).toBeNull();
    expect(parseDocketNumber("")).toBeNull();
    expect(parseDocketNumber(null)).toBeNull();
  });

  it("keeps appellate numbers bare", () => {
    expect(parseAppellateDocketNumber("22-11299-W")).toMatchObject({ docket_number: "22-11299", federal_dn_judge_initials_assigned: null, full: "22-11299-W" });
    expect(parseAppellateDocketNumber("22-7")?.docket_number).toBe("22-7");
  });

  it("finds the first docket number in a cell", () => {
    expect(firstDocketNumber("1:17-cr-00201-ABJ https://ecf.dcd.uscourts.gov/cgi-bin/DktRpt.pl?190596")).toBe("1:17-cr-00201-ABJ");
    expect(firstDocketNumber(" 4:24-cv-00321-KGB<https://ecf.ared.uscourts.gov/x>")).toBe("4:24-cv-00321-KGB");
    expect(firstDocketNumber("no number here 8/11/2021")).toBeNull();
  });
});

describe("links", () => {
  it("forces the 4th digit of document ids to 0", () => {
    expect(normalisePacerDocId("02113212100")).toBe("02103212100");
    expect(normalisePacerDocId("1760")).toBe("1760");
    expect(normalisePacerDocId("176")).toBe("176");
    expect(normalisePacerDocId(null)).toBeNull();
  });

  it("reads NEF document links", () => {
    expect(parseCourtLink("https://ecf.alsd.uscourts.gov/doc1/02113212100?caseid=67619&de_seq_num=99&magic_num=95052604")).toMatchObject({
      kind: "document",
      host: "ecf.alsd.uscourts.gov",
      doc_id: "02113212100",
      pacer_doc_id: "02103212100",
      pacer_case_id: "67619",
      pacer_seq_no: "99",
      pacer_magic_num: "95052604",
    });
    expect(parseCourtLink("https://ecf.nysd.uscourts.gov/doc1/127132041950?caseid=550445&de_seq_num=479&magic_num=MAGIC").pacer_magic_num).toBeNull();
    expect(parseCourtLink("https://ecf.arwb.uscourts.gov/doc1/028014329650?pdf_header=&magic_num=8174049&de_seq_num=146&caseid=175501")).toMatchObject({
      pacer_case_id: "175501",
      pacer_seq_no: "146",
      pacer_magic_num: "8174049",
    });
  });

  it("reads appellate, ACMS and docket-report links", () => {
    expect(parseCourtLink("https://ecf.ca2.uscourts.gov/docs1/00208883934?uid=4a800555f691be89")).toMatchObject({
      kind: "document",
      pacer_doc_id: "00208883934",
      pacer_magic_num: "4a800555f691be89",
      pacer_seq_no: null,
    });
    expect(parseCourtLink("https://ca9-showdoc.azurewebsites.us/NDA/e663b724-b14c-f011-877a-001dd806079d")).toMatchObject({
      kind: "acms_document",
      pacer_magic_num: "e663b724-b14c-f011-877a-001dd806079d",
      pacer_doc_id: null,
    });
    expect(parseCourtLink("https://ca9-showdoc.azurewebsites.us/24-2883").kind).toBe("acms_case");
    expect(parseCourtLink("https://ecf.alsd.uscourts.gov/cgi-bin/DktRpt.pl?67619")).toMatchObject({ kind: "docket", pacer_case_id: "67619" });
    expect(parseCourtLink("https://ecf.ca11.uscourts.gov/n/beam/servlet/TransportRoom?servlet=DocketReportFilter.jsp&caseId=78099")).toMatchObject({
      kind: "docket",
      pacer_case_id: "78099",
    });
    expect(parseCourtLink("not a url").kind).toBe("other");
  });

  it("unwraps mail security gateway links", () => {
    const target = "https://ecf.nysd.uscourts.gov/doc1/127031741309?caseid=546923&de_seq_num=2463&magic_num=25849322";
    expect(unwrapGatewayUrl(`https://nam02.safelinks.protection.outlook.com/?url=${encodeURIComponent(target)}&data=x`)).toBe(target);
    expect(unwrapGatewayUrl(`https://urldefense.com/v3/__${target}__;!!abc$`)).toBe(target);
    expect(parseCourtLink(`https://nam02.safelinks.protection.outlook.com/?url=${encodeURIComponent(target)}`).pacer_case_id).toBe("546923");
  });
});

describe("text documents", () => {
  it("turns HTML into lines and keeps link positions", () => {
    const doc = htmlToTextDoc(
      "<table><tr><td><strong>Case Number:</strong></td><td><A HREF=https://ecf.x.uscourts.gov/cgi-bin/DktRpt.pl?1>1:20-cv-1</A></td></tr></table><p>a &nbsp &nbsp b&#036;<script>no</script><style>p{}</style>c</p>",
    );
    expect(doc.text).toBe("Case Number: 1:20-cv-1\na b$c");
    expect(doc.links).toHaveLength(1);
    const link = doc.links[0];
    expect(link?.href).toBe("https://ecf.x.uscourts.gov/cgi-bin/DktRpt.pl?1");
    expect(link?.text).toBe("1:20-cv-1");
    expect(doc.text.slice(link?.start, link?.end)).toBe("1:20-cv-1");
  });

  it("decodes entities in attributes", () => {
    const doc = htmlToTextDoc('<a href="https://e.test/doc1/1?caseid=2&amp;de_seq_num=3">9</a>');
    expect(doc.links[0]?.href).toBe("https://e.test/doc1/1?caseid=2&de_seq_num=3");
  });

  it("cleans plain text and finds URLs", () => {
    const doc = plainToTextDoc(
      "> Case Name:   A  v. B\r\n>\r\nDocket Text:\r\nJoint  STATUS REPORT <i></i> by USA\r\nsee https://ecf.x.uscourts.gov/doc1/123?caseid=1.",
    );
    expect(doc.text).toBe("Case Name: A v. B\nDocket Text:\nJoint STATUS REPORT by USA\nsee https://ecf.x.uscourts.gov/doc1/123?caseid=1.");
    expect(doc.links.map((l) => l.href)).toEqual(["https://ecf.x.uscourts.gov/doc1/123?caseid=1"]);
  });
});

describe("small helpers", () => {
  it("converts US dates", () => {
    expect(usDateToIso("filed on 8/11/2021")).toBe("2021-08-11");
    expect(usDateToIso("08/10/22")).toBe("2022-08-10");
    expect(usDateToIso("2/30/2024")).toBeNull();
    expect(usDateToIso("13/1/2024")).toBeNull();
    expect(usDateToIso(null)).toBeNull();
  });

  it("finds e-mail addresses without regular-expression backtracking", () => {
    expect(findEmails("a@b.co, x.y+z@sub.example_1.com;bad@nodot <c@d.org>").map((e) => e.email)).toEqual(["a@b.co", "x.y+z@sub.example_1.com", "c@d.org"]);
    expect(findEmails("@@@ a@ @b.c")).toEqual([]);
  });

  it("cleans case names", () => {
    expect(cleanCaseName("USA v. MANAFORT et al")).toBe("United States v. MANAFORT");
    expect(cleanCaseName("National TPS Alliance, et al. v. Noem, et al.")).toBe("National TPS Alliance v. Noem");
    expect(cleanCaseName("Mackenzie  Brown, et al v. State of Arizona, et al")).toBe("Mackenzie Brown v. State of Arizona");
    expect(cleanCaseName("")).toBe("Unknown Case Title");
  });

  it("cleans docket text", () => {
    expect(cleanDescription("MOTION  for X (Attachments: # (1) Exhibit A, # (2) Order)\n(Related Doc # [75])")).toBe(
      "MOTION for X (Attachments: (1) Exhibit A, (2) Order) (Related Doc [75])",
    );
    expect(cleanDescription("see zoom/.\n, Set/Reset")).toBe("see zoom/., Set/Reset");
    expect(cleanDescription("   ")).toBeNull();
  });

  it("reads the filer from docket text", () => {
    expect(filedByFromDescription("Motion to Extend, filed by  James S. Livermon III  on behalf of Reboot, Inc.")).toBe("James S. Livermon III");
    expect(filedByFromDescription("Motion. Filed by Compass Washington, LLC, Compass, Inc.. (Ramsey, Jay)")).toBe("Compass Washington, LLC, Compass, Inc.");
    expect(filedByFromDescription("ORDER granting motion")).toBeNull();
  });

  it("detects sealed documents but not motions to seal", () => {
    expect(looksSealed("SEALED MOTION for Protective Order")).toBe(true);
    expect(looksSealed("***SEALED*** Document")).toBe(true);
    expect(looksSealed("Exhibit A filed under seal by Plaintiff")).toBe(true);
    expect(looksSealed("Notice", ["Sealed Document"])).toBe(true);
    expect(looksSealed("MOTION for Leave to File Under Seal")).toBe(false);
    expect(looksSealed("MOTION for Leave to File Sealed Document")).toBe(false);
    expect(looksSealed("ORDER granting Motion to Seal; UNSEALED version attached")).toBe(false);
  });
});

describe("recipients", () => {
  it("reads the district, plain-text, bankruptcy, appellate and ACMS layouts", () => {
    expect(parseRecipientLines("Cecily L. Kaffer clk@k.test, ddn@k.test\nFrank Daniel Wood , Jr fdw@k.test")).toEqual([
      { name: "Cecily L. Kaffer", email_addresses: ["clk@k.test", "ddn@k.test"] },
      { name: "Frank Daniel Wood Jr", email_addresses: ["fdw@k.test"] },
    ]);
    expect(parseRecipientLines("Adam C. Jed\nacj@doj.test\nAndrew Weissmann\naaw@doj.test, ees@doj.test")).toEqual([
      { name: "Adam C. Jed", email_addresses: ["acj@doj.test"] },
      { name: "Andrew Weissmann", email_addresses: ["aaw@doj.test", "ees@doj.test"] },
    ]);
    expect(parseRecipientLines("Jane Roe on behalf of Debtor Acme LLC\njroe@x.test, office@x.test\nUS Trustee - Greenbelt ust@x.test,\nmore@x.test")).toEqual([
      { name: "Jane Roe", email_addresses: ["jroe@x.test", "office@x.test"] },
      { name: "US Trustee - Greenbelt", email_addresses: ["ust@x.test", "more@x.test"] },
    ]);
    expect(parseRecipientLines("Recipient One, -: one@x.test\nRecipient Five, Deputy Clerk: five@x.test\nNo Address Person")).toEqual([
      { name: "Recipient One", email_addresses: ["one@x.test"] },
      { name: "Recipient Five", email_addresses: ["five@x.test"] },
    ]);
    expect(parseRecipientLines("User Example ; user@x.test")).toEqual([{ name: "User Example", email_addresses: ["user@x.test"] }]);
  });
});

describe("subjects", () => {
  const c = (docketNumber: string, rawName: string) => ({ docketNumber, rawName, cleanName: cleanCaseName(rawName) });

  it.each([
    [
      "Activity in Case 1:20-cv-00572-WS-MU Autrey v. Harrigan Lumber Co., Inc. et al Notice of Settlement",
      [c("1:20-cv-00572", "Autrey v. Harrigan Lumber Co., Inc. et al")],
      "Notice of Settlement",
    ],
    [
      "Activity in OKND case 4:18-cv-00499-JED-CDL Wilson v. Filtrex Service Group Inc et al - Joint Status Report",
      [c("4:18-cv-00499", "Wilson v. Filtrex Service Group Inc et al")],
      "Joint Status Report",
    ],
    ["Ch-7 1:24-bk-70535 Notice of Appearance; Lowry Farms, Inc.", [c("1:24-bk-70535", "Lowry Farms, Inc.")], "Notice of Appearance"],
    ["23-00285-ELG CH11 Hearing Held (BK) - Avamere NPS Stables LLC", [c("23-00285", "Avamere NPS Stables LLC")], "Hearing Held (BK)"],
    ["Ch-7 5:21-bk-00329-MJC -Maria Victoria Dir Motion to Reopen Case", [c("5:21-bk-00329", "Maria Victoria Diri")], "Motion to Reopen Case"],
    [
      "Docket Order - Continue Hearing (Auto) Ch 13 Jeffery Wayne Lovell 1:24-bk-01377",
      [c("1:24-bk-01377", "Jeffery Wayne Lovell")],
      "Docket Order - Continue Hearing (Auto)",
    ],
    ["20-18680 Response - CH7 - Charles Martin", [c("20-18680", "Charles Martin")], "Response"],
    ["21-10245-BAH Chapter 13 Mykle Lepene  Chapter 13 Trustee's Report", [c("21-10245", "Mykle Lepene")], "Chapter 13 Trustee's Report"],
    ["24-04888-7 Chapter 7 Voluntary Petition", [c("24-04888", "Omar Alegria")], "Chapter 7 Voluntary Petition"],
    [
      "NEF: 22-22507-cgm Ch13 Notice of Adjournment of Hearing Re: Gerasimos Stefanitsis",
      [c("22-22507", "Gerasimos Stefanitsis")],
      "Notice of Adjournment of Hearing",
    ],
    ['Multiple Cases "Close Adversary Case" - AP -', [c("22-00193", "Jefferson v. Alter")], "Close Adversary Case"],
    [
      "FW: Activity in Case 4:20-cv-01091-BRW Taylor v. Envolve LLC Notice of Appearance",
      [c("4:20-cv-01091", "Taylor v. Envolve LLC")],
      "Notice of Appearance",
    ],
    [
      "Activity in Case 4:22-cv-05541-JST Simon et al v. City of San Francisco et al ",
      [c("4:22-cv-05541", "Simon et al v. City of San Francisco et al")],
      null,
    ],
  ])("%s", (subject, cases, expected) => {
    expect(nefShortDescription(subject, cases)).toBe(expected);
  });

  it("reads appellate and ACMS subjects", () => {
    expect(ndaSubjectDescription('21-1975 New York State Telecommunicati v. James "Letter RECEIVED"')).toBe("Letter RECEIVED");
    expect(acmsSubjectParts("Vasquez Perdomo, et al. v. Noem, et al. 25-4312 - 063 - Corrected Chambers Order", "25-4312")).toEqual({
      documentNumber: "63",
      description: "Corrected Chambers Order",
    });
    expect(acmsSubjectParts("National TPS Alliance v. Noem 25-2120 - Reply Brief Submitted for Filing - 490133", "25-2120")).toEqual({
      documentNumber: null,
      description: "Reply Brief Submitted for Filing",
    });
    expect(stripSubjectPrefixes("Re-send: FW: [EXTERNAL] x")).toBe("x");
  });
});
