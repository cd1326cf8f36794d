// Reading raw messages: the bodies, subject and attachments the notice parsers get are the ones
// mailparser (the mail library the parser used before) reads, on every fixture, and the MIME
// rules that matter for court mail hold on small messages.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { fixC1Controls } from "../../../server/notices/charset";
import { stripControlCharacters } from "../../../server/lib/control-characters";
import { readMail } from "../../../server/notices/mime";
import { decodeFlowed, decodeWords, parseHeaderValue } from "../../../server/notices/mime-words";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures");

function messages(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return messages(file);
    return /\.(txt|eml)$/.test(name) ? [file] : [];
  });
}

/** A body as the parser keeps it: windows-1252 for C1 controls, no control characters, blank as null. */
const kept = (value: string | false | undefined) => (typeof value === "string" && value.trim() ? stripControlCharacters(fixC1Controls(value)) : null);

const mail = (lines: string[]) => readMail(Buffer.from(lines.join("\r\n"), "latin1"));

describe("reading messages", () => {
  it("reads the bodies, subject and attachments of every fixture as mailparser does", async () => {
    const files = messages(fixtures);
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const raw = readFileSync(file);
      const ours = readMail(raw);
      const theirs = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true, keepCidLinks: true });
      // Bodies whose bytes are not in their charset are read as windows-1252 here, on purpose.
      if (typeof theirs.html === "string" && !theirs.html.includes("\ufffd")) expect(ours.html, file).toBe(kept(theirs.html));
      if (theirs.text !== undefined && !theirs.text.includes("\ufffd")) expect(ours.text, file).toBe(kept(theirs.text));
      if (theirs.subject && !theirs.subject.includes("\ufffd")) expect(ours.subject, file).toBe(kept(theirs.subject));
      expect(ours.attachmentTypes, file).toEqual(theirs.attachments.map((a) => a.contentType.toLowerCase()));
    }
  });

  it("takes a multipart delimiter only as a whole line", () => {
    const read = mail([
      "Subject: x",
      'Content-Type: multipart/alternative; boundary="b"',
      "",
      "--b",
      "Content-Type: text/plain",
      "",
      "one",
      "--b not a delimiter",
      "--bb",
      "--b",
      "Content-Type: text/html; charset=iso-8859-1",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "<p>caf=E9 =",
      "au lait</p>",
      "--b--",
      "epilogue",
    ]);
    expect(read.text).toBe("one\n--b not a delimiter\n--bb");
    expect(read.html).toBe("<p>café au lait</p>");
  });

  it("follows forwarded messages attached as message/rfc822", () => {
    const read = mail([
      "Subject: Fwd",
      'Content-Type: multipart/mixed; boundary="m"',
      "",
      "--m",
      "Content-Type: text/plain",
      "",
      "see attached",
      "--m",
      "Content-Type: message/rfc822",
      "Content-Disposition: attachment",
      "",
      "Subject: inner",
      "",
      "inner body",
      "--m--",
    ]);
    expect(read.attachmentTypes).toEqual(["message/rfc822"]);
    expect(read.attachedMessages.map((m) => m.toString())).toEqual(["Subject: inner\r\n\r\ninner body"]);
  });

  it("counts no header block for a bare body", () => {
    expect(readMail(Buffer.from("Notice of Electronic Filing\n\nThe following transaction was entered")).headerCount).toBe(0);
  });

  it("decodes encoded words, joining a character split between two of them", () => {
    expect(decodeWords("=?utf-8?B?w6k=?= =?utf-8?Q?t=C3?= =?utf-8?Q?=A9?= plain")).toBe("été plain");
    expect(decodeWords("=?windows-1252?Q?=93quoted=94?=")).toBe("\u201cquoted\u201d");
  });

  it("reads header parameters, quoted and continued", () => {
    const header = parseHeaderValue(`attachment; filename*0*=utf-8''caf%C3%A9; filename*1=".ics"; size="1;2"`);
    expect(header).toEqual({ value: "attachment", params: { filename: "café.ics", size: "1;2" } });
  });

  it("joins format=flowed lines", () => {
    expect(decodeFlowed("Case Name: Roe \r\nv. Doe\r\n-- \r\n sig", false)).toBe("Case Name: Roe v. Doe\n-- \nsig");
  });
});
