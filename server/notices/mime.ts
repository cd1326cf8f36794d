// What the notice parsers need of a raw message: its subject, senders, ids,
// date, text and HTML bodies, attachments' types and attached messages.
// The MIME structure is read by mime-tree.ts in one synchronous pass; this
// module chooses the bodies the way mail readers show them and adds the
// mail-client fallback for text whose bytes are not in the charset it claims
// (see charset.ts).
import addressparser from "nodemailer/lib/addressparser";
import { stripControlCharacters } from "../lib/control-characters";
import { decodeUtf8Mixed, decodeUtf8OrLegacy, fixC1Controls } from "./charset";
import { decodedBody, decodeWordsSafely, firstValue, headerValue, readMimeTree, type HeaderLine, type MimePart } from "./mime-tree";
import { decodeCharset, decodeFlowed, mediaTypeOf } from "./mime-words";
import { BIDI_CONTROLS, findEmails } from "./text-utils";

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
  /** message/rfc822 attachments (a notice forwarded "as attachment", also as a .eml file). */
  attachedMessages: Buffer[];
  /** Text and HTML files attached (a notice saved as .txt or .html and sent on), decoded when asked for. */
  attachedTexts(): AttachedText[];
  /** Number of header fields found; 0 means the input had no RFC 822 header block. */
  headerCount: number;
  /** Message-IDs this message answers (In-Reply-To, then References), without angle brackets. */
  inReplyTo: string[];
  /** Header fields by lower-case name (first occurrence), for classification. */
  headers: { get(name: string): string | undefined; has(name: string): boolean };
}

export interface AttachedText {
  html: boolean;
  text: string;
}

const REPLACEMENT = "\ufffd";
const UTF8_LABEL = /^(?:utf-?8|us-?ascii|ascii)?$/i;
const HEADER_NAME = /^[a-z0-9][a-z0-9-]{0,75}$/i;
/**
 * A text part as a string. `legacy` re-reads a part its declared charset leaves unread (U+FFFD):
 * one declared UTF-8 (or nothing) sequence by sequence, as UTF-8 or windows-1252; another as
 * windows-1252. Parts that read as declared stay so: each part of a message may have its own charset.
 */
function partText(part: MimePart, legacy: boolean): string {
  let bytes = decodedBody(part);
  if (part.flowed) bytes = Buffer.from(decodeFlowed(bytes.toString("latin1"), part.delSp), "latin1");
  let text = decodeCharset(bytes, part.charset);
  if (legacy && text.includes(REPLACEMENT)) {
    text = UTF8_LABEL.test((part.charset ?? "").trim()) ? decodeUtf8Mixed(bytes) : decodeCharset(bytes, "windows-1252");
  }
  return text.includes("\r\n") ? text.replaceAll("\r\n", "\n") : text;
}

interface Leaf {
  part: MimePart;
  alternative: boolean;
}

/** The inline text parts in order, each with whether it sits in a multipart/alternative. */
function textLeaves(root: MimePart): Leaf[] {
  const leaves: Leaf[] = [];
  const walk = (part: MimePart, alternative: boolean) => {
    if (part.children.length === 0 && !part.contentType.startsWith("multipart/") && !part.embedded) {
      if (part.disposition === "inline" && TEXT_BODY.has(part.contentType)) leaves.push({ part, alternative });
      return;
    }
    const inAlternative = alternative || part.contentType === "multipart/alternative";
    for (const child of part.children) walk(child, inAlternative);
  };
  walk(root, false);
  return leaves;
}

/** The HTML parts joined with line breaks, as mail readers show them. */
function htmlBody(leaves: Leaf[], legacy: boolean): string | null {
  const html = leaves.filter((l) => l.part.contentType === "text/html").map((l) => partText(l.part, legacy));
  return html.length ? html.join("<br/>\n") : null;
}

/**
 * The text parts in order. An HTML part outside an alternative stands for an empty
 * text where the message also has plain text, as mail readers number them.
 */
function textBody(leaves: Leaf[], root: MimePart, legacy: boolean): string | null {
  const hasText = leaves.some((l) => l.part.contentType !== "text/html");
  const text: string[] = [];
  for (const { part, alternative } of leaves) {
    if (part.contentType !== "text/html") text.push(partText(part, legacy));
    else if ((!alternative && hasText) || (part === root && !hasText)) text.push("");
  }
  return text.length ? text.join("\n") : null;
}

const replacements = (text: string) => text.split(REPLACEMENT).length - 1;

/**
 * A body decoded as declared; where that leaves bytes unread (U+FFFD), its parts re-read as mail
 * clients show them (partText), when that reads more of it (a body that really holds U+FFFD keeps it).
 */
function decodedBodyText(read: (legacy: boolean) => string | null): string | null {
  const declared = read(false);
  if (!declared?.includes(REPLACEMENT)) return declared;
  const legacy = read(true);
  return legacy !== null && replacements(legacy) < replacements(declared) ? legacy : declared;
}

const TEXT_BODY = new Set(["text/plain", "text/html", "message/delivery-status"]);

/** Attached text files read; a notice is a few hundred KB at most. */
const MAX_ATTACHED_TEXTS = 5;
const MAX_ATTACHED_TEXT_BYTES = 4 * 1024 * 1024;

function attachments(root: MimePart): { types: string[]; messages: Buffer[]; texts: MimePart[] } {
  const types: string[] = [];
  const messages: Buffer[] = [];
  const texts: MimePart[] = [];
  const walk = (part: MimePart) => {
    if (part.children.length || part.embedded || part.contentType.startsWith("multipart/")) {
      for (const child of part.children) walk(child);
      return;
    }
    if (part.disposition === "inline" && TEXT_BODY.has(part.contentType)) return;
    let type = part.contentType;
    if (type === "application/octet-stream" && part.filename?.includes(".")) type = mediaTypeOf(part.filename.split(".").pop() ?? "");
    // A saved message is a message whatever type its sender gave the file.
    if (type === "text/plain" && /\.eml$/i.test(part.filename ?? "")) type = "message/rfc822";
    types.push(type);
    if (type === "message/rfc822") messages.push(decodedBody(part));
    if ((type === "text/plain" || type === "text/html") && texts.length < MAX_ATTACHED_TEXTS && part.body.length <= MAX_ATTACHED_TEXT_BYTES) {
      texts.push(type === part.contentType ? part : { ...part, contentType: type });
    }
  };
  walk(root);
  return { types, messages, texts };
}

function attachedText(part: MimePart): AttachedText | null {
  const text = body(decodedBodyText((legacy) => partText(part, legacy)));
  return text === null ? null : { html: part.contentType === "text/html", text };
}

function messageIds(value: string | undefined): string[] {
  return [...(value ?? "").slice(0, 8192).matchAll(/<([^<>\s]{1,500})>/g)].map((m) => m[1] ?? "").filter(Boolean);
}

/** Message-IDs of a References or In-Reply-To value; a value with no angle brackets lists bare ids. */
function idList(value: string): string[] {
  const bracketed = messageIds(value);
  if (bracketed.length || value.includes("<")) return bracketed;
  return value
    .slice(0, 8192)
    .split(/\s+/)
    .filter((token) => token.length > 0 && token.length <= 500);
}

function addresses(value: string): string[] {
  if (!value) return [];
  const out: string[] = [];
  const add = (entry: { address?: string; group?: unknown[] }) => {
    const address = entry.address ?? "";
    const decoded = address.includes("=?") ? decodeWordsSafely(address) : address;
    if (decoded) out.push(decoded.toLowerCase());
    for (const member of entry.group ?? []) add(member as { address?: string });
  };
  for (const entry of addressparser(value.slice(0, 16384))) add(entry);
  return out;
}

function headerAddresses(headers: HeaderFields, name: string): string[] {
  const value = headers.get(name);
  return value ? findEmails(value.slice(0, 4096)).map((e) => e.email.toLowerCase()) : [];
}

/** The Subject as its bytes say: UTF-8 when valid, else windows-1252, then RFC 2047 words. */
function subjectOf(lines: HeaderLine[]): string | null {
  const line = lines.find((h) => h.key === "subject")?.line;
  if (!line) return null;
  const raw = line.slice(line.indexOf(":") + 1).replace(/(?:\r?\n|\r)[ \t]*/g, " ");
  const subject = decodeWordsSafely(decodeUtf8OrLegacy(Buffer.from(raw, "latin1")).trim());
  return subject || null;
}

// Checked first, in one pass: the replacing passes would copy every body, and these are rare.
// Bidirectional controls (a right-to-left override) can make a name or subject show as another.
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const HAS_CONTROL_C1_OR_BIDI = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const cleaned = (text: string) => (HAS_CONTROL_C1_OR_BIDI.test(text) ? stripControlCharacters(fixC1Controls(text)).replace(BIDI_CONTROLS, "") : text);

/** Body text: C1 controls read as windows-1252, control characters removed, blank bodies as null. */
function body(value: string | null): string | null {
  return value !== null && value.trim() ? cleaned(value) : null;
}

/** Header fields by lower-case name (first occurrence), decoded when asked for. */
class HeaderFields {
  private readonly raw = new Map<string, string>();
  private readonly decoded = new Map<string, string>();
  count = 0;

  constructor(lines: HeaderLine[]) {
    for (const h of lines) {
      if (!HEADER_NAME.test(h.key)) continue;
      this.count++;
      if (!this.raw.has(h.key)) this.raw.set(h.key, h.line);
    }
  }

  has(name: string): boolean {
    return this.raw.has(name);
  }

  get(name: string): string | undefined {
    let value = this.decoded.get(name);
    if (value === undefined) {
      const line = this.raw.get(name);
      if (line === undefined) return undefined;
      value = headerValue(line);
      this.decoded.set(name, value);
    }
    return value;
  }
}

/** Reads a raw message. Throws only when its header block is too large to be mail. */
export function readMail(raw: Buffer): MailContent {
  const root = readMimeTree(raw);
  const leaves = textLeaves(root);
  const html = decodedBodyText((legacy) => htmlBody(leaves, legacy));
  const headers = new HeaderFields(root.headers);

  const senderAddresses = [
    ...addresses(firstValue(root.headers, "from")),
    ...headerAddresses(headers, "sender"),
    ...addresses(firstValue(root.headers, "reply-to")),
    ...headerAddresses(headers, "x-original-sender"),
    ...headerAddresses(headers, "return-path"),
  ];
  const { types, messages, texts } = attachments(root);
  const dateValue = headers.get("date");
  const date = dateValue ? new Date(dateValue) : null;
  const idValue = decodeWordsSafely(headers.get("message-id") ?? "");
  const messageId = messageIds(idValue)[0] ?? idValue.replace(/^<|>$/g, "").trim();
  const subject = subjectOf(root.headers);
  // The text body is often the plain alternative of an HTML notice, needed only when the HTML holds no notice.
  let text: string | null | undefined;
  return {
    subject: subject === null ? null : cleaned(subject),
    messageId: messageId || null,
    date: date && !Number.isNaN(date.getTime()) ? date : null,
    senderAddresses: [...new Set(senderAddresses)],
    html: body(html),
    get text() {
      if (text === undefined) text = body(decodedBodyText((legacy) => textBody(leaves, root, legacy)));
      return text;
    },
    attachmentTypes: types,
    attachedMessages: messages,
    attachedTexts: () => texts.map(attachedText).filter((t): t is AttachedText => t !== null),
    headerCount: headers.count,
    inReplyTo: [...new Set([...idList(headers.get("in-reply-to") ?? ""), ...idList(headers.get("references") ?? "").reverse()])],
    headers,
  };
}
