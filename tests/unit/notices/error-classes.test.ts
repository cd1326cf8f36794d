// One fixture of our own making per class of error found on court e-mail the
// parser had not seen: court-coded member case numbers, edit notices,
// "Multiple Cases" subjects, undeclared 8-bit charsets, NUL bytes, ordinary
// mail, replies quoting a notice, and e-filing mail that is not federal.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseNoticeEmail, type ParsedEmail, type ParsedNotice } from "../../../server/notices";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/notices");

async function parseFixture(name: string): Promise<ParsedEmail> {
  return parseNoticeEmail(readFileSync(path.join(fixtures, name)));
}

async function notice(name: string): Promise<ParsedNotice> {
  const result = await parseFixture(name);
  if (result.kind !== "notice") throw new Error(`${name}: expected a notice, got ${result.kind} (${result.reason})`);
  return result.notice;
}

const recipientNames = (n: ParsedNotice) => n.email_recipients.map((r) => r.name);

describe("case numbers printed with a district code", () => {
  it("JPML notice: MDL lead and member cases 'CAN/3:24-cv-05512' keep their blocks and recipients", async () => {
    const n = await notice("nef-jpml-mdl-members.eml");
    expect(n.court_id).toBe("jpml");
    expect(n.dockets.map((d) => [d.docket_number, d.docket_number_full, d.docket_court_id])).toEqual([
      ["MDL No. 3121", "MDL No. 3121", null],
      ["3:24-cv-05512", "CAN/3:24-cv-05512", "cand"],
      ["1:24-cv-08830", "ILN/1:24-cv-08830", "ilnd"],
    ]);
    expect(n.dockets.map((d) => d.case_name)).toEqual([
      "IN RE: Lakeshore Kettle Products Liability Litigation",
      "Okonkwo v. Lakeshore Home Goods, Inc.",
      "Brandt v. Lakeshore Home Goods, Inc.",
    ]);
    expect(n.dockets.map((d) => d.docket_entries[0]?.document_number)).toEqual(["212", "3", "2"]);
    expect(n.dockets.every((d) => d.docket_entries[0]?.short_description === "Conditional Transfer Order (CTO-4)")).toBe(true);
    expect(n.email_recipients).toEqual([
      { name: "Renata Szabo", email_addresses: ["rszabo@szabo-mdl.test"] },
      { name: "Chidi Okonkwo", email_addresses: ["cokonkwo@okonkwo-law.test", "filings@okonkwo-law.test"] },
      { name: "Paula Brandt-Reyes", email_addresses: ["pbr@brandtreyes.test"] },
    ]);
  });

  it("transferee district notice: member case '3:24-cv-05512 (CAN)' in plain text", async () => {
    const n = await notice("nef-member-suffix-plain.eml");
    expect(n.court_id).toBe("ilnd");
    expect(n.dockets.map((d) => [d.docket_number, d.docket_court_id])).toEqual([
      ["1:24-cv-07001", null],
      ["3:24-cv-05512", "cand"],
    ]);
    expect(n.dockets[0]?.docket_entries[0]?.short_description).toBe("Transferred Case Opened");
    expect(recipientNames(n)).toEqual(["Renata Szabo", "Chidi Okonkwo"]);
  });
});

describe("edit notices", () => {
  it.each([["edit-notice.eml"], ["edit-notice-entry-number.eml"], ["edit-notice-transaction-edited.eml"]])(
    "%s is not a new notice, and is put before a person (an edit can move a date)",
    async (name) => {
      expect(await parseFixture(name)).toEqual({ kind: "unrecognised", reason: "docket entry edit notice" });
    },
  );
});

describe("subjects", () => {
  it('Multiple Cases "<number> <name cut short> <label>" keeps only the label', async () => {
    const n = await notice("nef-multiple-cases-numbered.eml");
    expect(n.dockets.map((d) => d.docket_number)).toEqual(["24-17702", "24-17703"]);
    expect(n.dockets.map((d) => d.docket_entries[0]?.short_description)).toEqual(["Motion for Relief from Stay", "Motion for Relief from Stay"]);
  });
});

describe("characters", () => {
  it("an 8-bit body without a charset is read as windows-1252, a raw UTF-8 subject as UTF-8", async () => {
    const n = await notice("nef-plain-8bit-undeclared.eml");
    const entry = n.dockets[0]?.docket_entries[0];
    expect(n.subject).toBe("Activity in Case 1:24-cv-01188-RP Peña v. Martínez Roofing Co. Order");
    expect(n.dockets[0]?.case_name).toBe("Peña v. Martínez Roofing Co.");
    expect(entry?.description).toContain("28 U.S.C. § 1447(c)");
    expect(entry?.description).toContain("Judge Núñez");
    expect(recipientNames(n)).toEqual(["Ana Peña"]);
    expect(JSON.stringify(n)).not.toContain("\ufffd");
  });

  it("NUL bytes never reach case names, descriptions or the subject", async () => {
    const n = await notice("nef-nul-bytes.eml");
    expect(n.dockets[0]?.case_name).toBe("Corvallis Data LLC v. Tidewater Systems Inc.");
    expect(n.dockets[0]?.docket_entries[0]?.description).toBe("MOTION to Dismiss for Lack of Jurisdiction by Tidewater Systems Inc.. (Reyes, Omar)");
    expect(n.dockets[0]?.docket_entries[0]?.short_description).toBe("Motion to Dismiss");
    expect(JSON.stringify(n)).not.toContain("\\u0000");
  });
});

describe("ordinary mail", () => {
  it.each([
    ["newsletter.eml", "newsletter or mailing-list message"],
    ["out-of-office.eml", "automatic reply"],
    ["calendar-invitation.eml", "calendar invitation"],
  ])("%s is recognised as not a notice (%s), even when it quotes one", async (name, reason) => {
    expect(await parseFixture(name)).toEqual({ kind: "not_a_notice", reason });
  });

  it("a person's reply quoting a notice is the notice it quotes, marked as a reply with the message it answers", async () => {
    const result = await parseFixture("reply-quoting-notice.eml");
    expect(result.kind === "notice" && [result.notice.dockets[0]?.docket_number, result.quoted]).toEqual([
      "1:24-cv-07001",
      { by: "reply", answers: ["7781200@ilnd.uscourts.test"] },
    ]);
  });

  it.each([
    ["nef-forwarded-outlook.eml", "forward"],
    ["nef-forwarded-gmail.eml", "forward"],
    ["nef-attached-message.eml", "forward"],
    ["nef-district-qp-utf8.eml", undefined],
  ])("%s is a notice passed on by a person: %s", async (name, by) => {
    const result = await parseFixture(name);
    expect(result.kind === "notice" && result.quoted?.by).toBe(by);
  });
});

describe("no court, no federal notice", () => {
  it("a CM/ECF-like layout with no court link, court sender or court heading is not read as a federal notice", async () => {
    const raw = [
      "From: notices@provider.test",
      "Subject: Activity in Case 24-1234 Doe v. Roe Order",
      "Content-Type: text/plain",
      "",
      "Case Name: Doe v. Roe",
      "Case Number: 24-1234",
      "Docket Text: ORDER",
    ].join("\r\n");
    const result = await parseNoticeEmail(raw);
    expect(result.kind).not.toBe("notice");
  });
});
