// MIME decoding is left to mailparser (headers, RFC 2047 words, folding,
// quoted-printable/base64, charsets, multipart trees). This module only picks
// out what the notice parsers need.
import { simpleParser, type AddressObject, type ParsedMail } from "mailparser";
import { findEmails } from "./text-utils";

export interface MailContent {
  subject: string | null;
  messageId: string | null;
  date: Date | null;
  /** Addresses from From, Sender, Reply-To and similar headers, lower-cased. */
  senderAddresses: string[];
  html: string | null;
  text: string | null;
  /** Content types of attachments, lower-cased. */
  attachmentTypes: string[];
  /** message/rfc822 attachments (a notice forwarded "as attachment"). */
  attachedMessages: Buffer[];
  /** Number of header fields found; 0 means the input had no RFC 822 header block. */
  headerCount: number;
}

// The parser needs neither mailparser's HTML/text conversions nor inline
// images turned into data: URIs; skipping them saves most of its time on
// large forwarded messages.
const PARSER_OPTIONS = {
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
  keepCidLinks: true,
} as const;

function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  const out: string[] = [];
  for (const obj of Array.isArray(value) ? value : value ? [value] : []) {
    for (const entry of obj.value ?? []) {
      if (entry.address) out.push(entry.address.toLowerCase());
      for (const member of entry.group ?? []) if (member.address) out.push(member.address.toLowerCase());
    }
  }
  return out;
}

function headerAddresses(mail: ParsedMail, name: string): string[] {
  const value = mail.headers.get(name);
  if (!value) return [];
  if (typeof value === "string") return findEmails(value.slice(0, 4096)).map((e) => e.email.toLowerCase());
  if (typeof value === "object" && "value" in value && Array.isArray((value as AddressObject).value)) {
    return addresses(value as AddressObject);
  }
  return [];
}

export async function readMail(raw: Buffer): Promise<MailContent> {
  const mail = await simpleParser(raw, PARSER_OPTIONS);
  const senderAddresses = [
    ...addresses(mail.from),
    ...headerAddresses(mail, "sender"),
    ...addresses(mail.replyTo),
    ...headerAddresses(mail, "x-original-sender"),
    ...headerAddresses(mail, "return-path"),
  ];
  const attachmentTypes: string[] = [];
  const attachedMessages: Buffer[] = [];
  for (const att of mail.attachments ?? []) {
    const type = (att.contentType || "").toLowerCase();
    attachmentTypes.push(type);
    if (type === "message/rfc822" && Buffer.isBuffer(att.content)) attachedMessages.push(att.content);
  }
  const date = mail.date instanceof Date && !Number.isNaN(mail.date.getTime()) ? mail.date : null;
  return {
    subject: typeof mail.subject === "string" ? mail.subject : null,
    messageId: typeof mail.messageId === "string" ? mail.messageId.replace(/^<|>$/g, "").trim() || null : null,
    date,
    senderAddresses: [...new Set(senderAddresses)],
    html: typeof mail.html === "string" && mail.html.trim() ? mail.html : null,
    text: typeof mail.text === "string" && mail.text.trim() ? mail.text : null,
    attachmentTypes,
    attachedMessages,
    headerCount: (mail.headerLines ?? []).filter((h) => /^[a-z0-9][a-z0-9-]{0,75}$/i.test(h.key)).length,
  };
}
