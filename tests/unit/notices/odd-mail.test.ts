// Odd but readable mail: the same court notice sent with bare-CR line ends, with only an HTML
// part, as an attachment (message/rfc822, a .eml, .txt or .html file), with bidirectional control
// characters in names and subject, and with charsets mixed in one message, is read as the notice
// it is, never as "no text body".
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseNoticeEmail, parseNoticeMessage, type ParsedNotice } from "../../../server/notices";
import { decodeUtf8Mixed } from "../../../server/notices/charset";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/notices");
const NOTICE = readFileSync(path.join(fixtures, "nef-member-suffix-plain.eml"), "latin1").replace(/\r?\n/g, "\r\n");
const [NOTICE_HEAD = "", NOTICE_BODY = ""] = NOTICE.split(/\r\n\r\n([^]*)/);
const CASE_NAME = "IN RE: Lakeshore Kettle Products Liability Litigation";

async function notice(raw: string | Buffer): Promise<ParsedNotice> {
  const result = await parseNoticeEmail(raw);
  if (result.kind !== "notice") throw new Error(`expected a notice, got ${result.kind} (${result.reason})`);
  return result.notice;
}

const expectTheNotice = (n: ParsedNotice) => {
  expect(n.court_id).toBe("ilnd");
  expect(n.dockets[0]).toMatchObject({ docket_number: "1:24-cv-07001", case_name: CASE_NAME });
};

/** A colleague's message carrying the notice as an attachment of the given part headers. */
const forwardedAsAttachment = (partHeaders: string[], body: string) =>
  [
    "From: Dana Clerk <dclerk@firm.test>",
    "To: docketing@firm.test",
    "Subject: notice for the Lakeshore file",
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="outer"',
    "",
    "--outer",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Please docket the attached.",
    "--outer",
    ...partHeaders,
    "",
    body,
    "--outer--",
    "",
  ].join("\r\n");

const htmlOf = (text: string) => `<html><body><div>${text.replace(/&/g, "&amp;").replace(/</g, "&lt;").split("\r\n").join("<br>\r\n")}</div></body></html>`;

describe("odd but readable mail", () => {
  it("reads a message whose lines end in a bare CR", async () => {
    const n = await notice(NOTICE.replace(/\r\n/g, "\r"));
    expectTheNotice(n);
    expect(n.subject).toBe(`Activity in Case 1:24-cv-07001 ${CASE_NAME} Transferred Case Opened`);
    expect(n.dockets[0]?.docket_entries[0]?.document_number).toBe("58");
  });

  it("reads a message with bare-CR line ends in a quoted-printable part", async () => {
    const head = NOTICE_HEAD.replace(
      "Content-Type: text/plain; charset=us-ascii",
      "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable",
    );
    const body = NOTICE_BODY.replace(/\r\n/g, "\r").replace("Lakeshore Kettle", "Lake=\rshore Kettle");
    expectTheNotice(await notice(`${head}\r\n\r\n${body}`));
  });

  it("reads the HTML part when the text part is missing or empty", async () => {
    const head = NOTICE_HEAD.replace("Content-Type: text/plain; charset=us-ascii", 'Content-Type: multipart/alternative; boundary="alt"');
    const emptyText = `${head}\r\n\r\n--alt\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\r\n--alt\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${htmlOf(NOTICE_BODY)}\r\n--alt--\r\n`;
    expectTheNotice(await notice(emptyText));
    const onlyHtml = `${head.replace("multipart/alternative", "multipart/related")}\r\n\r\n--alt\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${htmlOf(NOTICE_BODY)}\r\n--alt--\r\n`;
    expectTheNotice(await notice(onlyHtml));
    // A plain-text notice sent as HTML keeps its lines in <pre>.
    const pre = `<html><body><pre>${NOTICE_BODY.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</pre></body></html>`;
    expectTheNotice(await notice(`${head}\r\n\r\n--alt\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${pre}\r\n--alt--\r\n`));
  });

  it("reads a notice attached as a message, a .eml file, a .txt file or an .html file", async () => {
    expectTheNotice(await notice(forwardedAsAttachment(["Content-Type: message/rfc822", "Content-Disposition: attachment"], NOTICE)));
    const base64 = Buffer.from(NOTICE, "latin1").toString("base64").replace(/.{76}/g, "$&\r\n");
    expectTheNotice(
      await notice(
        forwardedAsAttachment(
          [
            "Content-Type: application/octet-stream; name=notice.eml",
            "Content-Transfer-Encoding: base64",
            'Content-Disposition: attachment; filename="notice.eml"',
          ],
          base64,
        ),
      ),
    );
    // A .eml file sent as text is read as the message it is: the court's Message-ID and subject.
    const saved = await notice(
      forwardedAsAttachment(["Content-Type: text/plain; charset=us-ascii", 'Content-Disposition: attachment; filename="notice.eml"'], NOTICE),
    );
    expectTheNotice(saved);
    expect(saved.message_id).toBe("7781200@ilnd.uscourts.test");
    expectTheNotice(
      await notice(
        forwardedAsAttachment(["Content-Type: text/plain; charset=us-ascii", 'Content-Disposition: attachment; filename="notice.txt"'], NOTICE_BODY),
      ),
    );
    expectTheNotice(
      await notice(
        forwardedAsAttachment(["Content-Type: text/html; charset=utf-8", 'Content-Disposition: attachment; filename="notice.html"'], htmlOf(NOTICE_BODY)),
      ),
    );
  });

  it("reads an attached notice when the message has no text body of its own", async () => {
    const raw = [
      "From: scanner@firm.test",
      "Subject: scan",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="outer"',
      "",
      "--outer",
      "Content-Type: text/html; charset=utf-8",
      'Content-Disposition: attachment; filename="NEF.htm"',
      "",
      htmlOf(NOTICE_BODY),
      "--outer--",
      "",
    ].join("\r\n");
    const { parsed, body } = await parseNoticeMessage(raw);
    expect(parsed.kind).toBe("notice");
    expect(body.text).toContain("Notice of Electronic Filing");
  });

  it("strips right-to-left overrides and other bidirectional controls from the subject and names", async () => {
    const bidi = NOTICE.replace(/Lakeshore Kettle/g, "Lake\u202eshore\u202c Kettle\u200f").replace("Activity in Case", "\u2067Activity\u2069 in Case");
    const n = await notice(bidi);
    expectTheNotice(n);
    expect(n.subject).toBe(`Activity in Case 1:24-cv-07001 ${CASE_NAME} Transferred Case Opened`);
    expect(JSON.stringify(n)).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
  });

  it("reads UTF-8 and windows-1252 bytes mixed in one part, and parts in different charsets", async () => {
    const head = NOTICE_HEAD.replace("charset=us-ascii", "charset=utf-8").replace(
      /Subject: .*/,
      "Subject: =?iso-8859-1?Q?Pe=F1a?= =?utf-8?B?4oCT?= Activity in Case 1:24-cv-07001",
    );
    // "Peña" in UTF-8, then "§ 1983" and an en dash as windows-1252 bytes, in one part declared UTF-8.
    const body = Buffer.concat([
      Buffer.from(NOTICE_BODY.replace("Docket Text:", "Docket Text:\r\nPe\u00f1a MARKER-A").split("MARKER-A")[0] ?? "", "utf8"),
      Buffer.from(" claim under \u00a7 1983 \u2013 ", "latin1").map((b) => (b === 0x13 ? 0x96 : b)),
      Buffer.from(NOTICE_BODY.replace("Docket Text:", "Docket Text:\r\nPe\u00f1a MARKER-A").split("MARKER-A")[1] ?? "", "utf8"),
    ]);
    const n = await notice(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, "latin1"), body]));
    expectTheNotice(n);
    expect(n.subject).toBe("Peña– Activity in Case 1:24-cv-07001");
    expect(n.dockets[0]?.docket_entries[0]?.description).toMatch(/^Peña claim under § 1983 – /);
  });

  it("reads each byte sequence as UTF-8 where it is valid UTF-8 and as windows-1252 where it is not", () => {
    const bytes = (...b: number[]) => Buffer.from(b);
    expect(decodeUtf8Mixed(bytes(0x50, 0x65, 0xc3, 0xb1, 0x61))).toBe("Peña");
    expect(decodeUtf8Mixed(bytes(0xa7, 0x20, 0x96, 0x20, 0x80))).toBe("§ – €");
    expect(decodeUtf8Mixed(bytes(0xf0, 0x9f, 0x98, 0x80, 0xe9))).toBe("😀é");
    // Overlong forms, surrogates and cut-off sequences are not UTF-8.
    expect(decodeUtf8Mixed(bytes(0xc0, 0xaf))).toBe("À¯");
    expect(decodeUtf8Mixed(bytes(0xed, 0xa0, 0x80))).toBe("í\u00a0€");
    expect(decodeUtf8Mixed(bytes(0xe2, 0x80))).toBe("â€");
  });
});
