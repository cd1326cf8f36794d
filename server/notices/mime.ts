// MIME decoding is left to mailparser (headers, RFC 2047 words, folding,
// quoted-printable/base64, charsets, multipart trees). This module picks out
// what the notice parsers need and adds the mail-client fallback for text
// whose bytes are not in the charset it claims (see charset.ts).
import libmime from "libmime";
import { simpleParser, type AddressObject, type ParsedMail } from "mailparser";
import { stripControlCharacters } from "../lib/control-characters";
import { decodeUtf8OrLegacy, fixC1Controls, hasEightBit } from "./charset";
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
  /** Message-IDs this message answers (In-Reply-To, then References), without angle brackets. */
  inReplyTo: string[];
  /** Header fields by lower-case name (first occurrence), for classification. */
  headers: ReadonlyMap<string, string>;
}

const REPLACEMENT = "\ufffd";
const HEADER_NAME = /^[a-z0-9][a-z0-9-]{0,75}$/i;

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

function headerAddresses(headers: ReadonlyMap<string, string>, name: string): string[] {
  const value = headers.get(name);
  return value ? findEmails(value.slice(0, 4096)).map((e) => e.email.toLowerCase()) : [];
}

function messageIds(value: string | undefined): string[] {
  return [...(value ?? "").slice(0, 8192).matchAll(/<([^<>\s]{1,500})>/g)].map((m) => m[1] ?? "").filter(Boolean);
}

/** End of the top-level header block (index of the blank line), or -1. */
function headerBlockEnd(raw: Buffer): number {
  const crlf = raw.indexOf("\r\n\r\n");
  const lf = raw.indexOf("\n\n");
  if (crlf < 0) return lf;
  if (lf < 0) return crlf;
  return Math.min(crlf, lf);
}

/**
 * A header as its raw bytes say, for headers sent as raw 8-bit text: UTF-8
 * when the bytes are valid UTF-8, else windows-1252, then RFC 2047 words.
 */
function rawHeader(raw: Buffer, name: string): string | null {
  const end = headerBlockEnd(raw);
  const head = raw.subarray(0, end < 0 ? Math.min(raw.length, 256 * 1024) : end);
  const view = head.toString("latin1");
  const m = new RegExp(`(?:^|\\n)${name}[ \\t]*:[ \\t]*`, "i").exec(view);
  if (!m) return null;
  const start = m.index + m[0].length;
  let stop = start;
  for (;;) {
    const nl = view.indexOf("\n", stop);
    if (nl < 0) {
      stop = view.length;
      break;
    }
    stop = nl;
    if (view[nl + 1] !== " " && view[nl + 1] !== "\t") break;
    stop = nl + 1;
  }
  const bytes = head.subarray(start, stop);
  if (!hasEightBit(bytes)) return null;
  const text = decodeUtf8OrLegacy(bytes)
    .replace(/\r?\n[ \t]+/g, " ")
    .trim();
  try {
    return libmime.decodeWords(text);
  } catch {
    return text;
  }
}

/**
 * The message again with every text part declared windows-1252: mailparser
 * then decodes 8-bit bodies the way mail clients show undeclared text. Used
 * only when the first decoding produced U+FFFD.
 */
function withLegacyTextCharset(raw: Buffer): Buffer {
  const source = raw.toString("latin1");
  let out = source.replace(/(^|\n)(Content-Type[ \t]*:[ \t]*text\/(?:plain|html))[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*/gi, "$1$2; charset=windows-1252");
  const end = out.search(/\r?\n\r?\n/);
  const head = end < 0 ? out : out.slice(0, end);
  if (!/(^|\n)Content-Type[ \t]*:/i.test(head)) out = `Content-Type: text/plain; charset=windows-1252\r\n${out}`;
  return Buffer.from(out, "latin1");
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

function parse(raw: Buffer): Promise<ParsedMail> {
  return simpleParser(raw, PARSER_OPTIONS);
}

function headerText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && "text" in value && typeof value.text === "string") return value.text;
  return undefined;
}

/** Body text: control characters removed, blank bodies as null. */
// Checked first: the replacing pass would copy every body, and control characters are rare.
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const HAS_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const withoutControls = (text: string) => (HAS_CONTROL.test(text) ? stripControlCharacters(text) : text);

function body(value: string | undefined): string | null {
  return typeof value === "string" && value.trim() ? withoutControls(fixC1Controls(value)) : null;
}

export async function readMail(raw: Buffer): Promise<MailContent> {
  const mail = await parse(raw);
  let html = typeof mail.html === "string" ? mail.html : undefined;
  let text = mail.text;
  if (html?.includes(REPLACEMENT) || text?.includes(REPLACEMENT)) {
    const legacy = await parse(withLegacyTextCharset(raw)).catch(() => null);
    // Only where the fallback read every byte: a body that really holds U+FFFD keeps it.
    if (legacy && html?.includes(REPLACEMENT) && typeof legacy.html === "string" && !legacy.html.includes(REPLACEMENT)) html = legacy.html;
    if (legacy && text?.includes(REPLACEMENT) && legacy.text && !legacy.text.includes(REPLACEMENT)) text = legacy.text;
  }

  const headers = new Map<string, string>();
  let headerCount = 0;
  for (const h of mail.headerLines ?? []) {
    if (!HEADER_NAME.test(h.key)) continue;
    headerCount++;
    const value = headerText(mail.headers.get(h.key)) ?? h.line.slice(h.line.indexOf(":") + 1).trim();
    if (!headers.has(h.key)) headers.set(h.key, value);
  }

  let subject = typeof mail.subject === "string" ? mail.subject : null;
  if (subject?.includes(REPLACEMENT)) subject = rawHeader(raw, "Subject") ?? subject;

  const senderAddresses = [
    ...addresses(mail.from),
    ...headerAddresses(headers, "sender"),
    ...addresses(mail.replyTo),
    ...headerAddresses(headers, "x-original-sender"),
    ...headerAddresses(headers, "return-path"),
  ];
  const attachmentTypes: string[] = [];
  const attachedMessages: Buffer[] = [];
  for (const att of mail.attachments ?? []) {
    const type = (att.contentType || "").toLowerCase();
    attachmentTypes.push(type);
    if (type === "message/rfc822" && Buffer.isBuffer(att.content)) attachedMessages.push(att.content);
  }
  const date = mail.date instanceof Date ? mail.date : null;
  const messageId = messageIds(mail.messageId)[0] ?? (mail.messageId ?? "").replace(/^<|>$/g, "").trim();
  return {
    subject: subject === null ? null : withoutControls(fixC1Controls(subject)),
    messageId: messageId || null,
    date: date && !Number.isNaN(date.getTime()) ? date : null,
    senderAddresses: [...new Set(senderAddresses)],
    html: body(html),
    text: body(text),
    attachmentTypes,
    attachedMessages,
    headerCount,
    inReplyTo: [...new Set([...messageIds(mail.inReplyTo), ...messageIds([mail.references ?? []].flat().join(" ")).reverse()])],
    headers,
  };
}
