// Court notice e-mail parser: raw RFC 822 message in, ParsedEmail out.
// Never throws; every input yields one of the ParsedEmail kinds.
import { parseAcms, looksLikeAcms } from "./acms";
import { autoReplyReason, hasNoticeMarkers, type NonNotice, nonNoticeReason, ordinaryMailReason, quotation } from "./classify";
import type { NoticeContext } from "./common";
import { courtOrigin, mailOrigins } from "./court-origin";
import { MAX_ATTACHED_MESSAGE_DEPTH, MAX_RAW_BYTES } from "./limits";
import { EMPTY_MESSAGE_BODY, messageBodyOf, type MessageBody } from "./message-body";
import { readMail, type MailContent } from "./mime";
import { parseNda } from "./nda";
import { parseNef } from "./nef";
import { looksLikeScotus, parseScotus } from "./scotus";
import { parseStateEfiling, stateProvider } from "./state-efiling";
import { forwardedSubject, stripSubjectPrefixes } from "./subject";
import { htmlToTextDoc, plainToTextDoc, type TextDoc } from "./text-doc";
import type { ParsedEmail, ParsedNotice } from "./types";

export type { EmailRecipient, NoticeDocument, NoticeType, ParsedDocket, ParsedDocketEntry, ParsedEmail, ParsedNotice } from "./types";
export type { MessageBody } from "./message-body";
export { toGoldShape, goldShapeOf, type GoldNotice } from "./gold-shape";

const LOOKS_LIKE_HTML = /<(?:html|body|p|div|table|br|font|span|strong|b)\b[^>]{0,200}>/i;
const NOTICE_START = /Notice of Electronic Filing|Notice of Docket Activity|(?:^|\n)[ \t]{0,20}Case (?:Name|Number)[ \t]{0,20}:/i;

function toBuffer(raw: unknown): Buffer | null {
  if (Buffer.isBuffer(raw)) return raw;
  if (raw instanceof Uint8Array) return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (typeof raw === "string") return Buffer.from(raw, "utf8");
  return null;
}

/** Text documents of the body, built lazily: the second is only needed when the first holds no notice. */
function* textDocs(html: string | null, text: string | null, htmlDoc: () => TextDoc): Generator<TextDoc> {
  if (html) yield htmlDoc();
  if (text) {
    // Some senders label an HTML body text/plain.
    if (!html && LOOKS_LIKE_HTML.test(text.slice(0, 4000))) yield htmlToTextDoc(text);
    yield plainToTextDoc(text);
  }
}

/** Subject of the court's own message: the original quoted in a forward, else the Subject header. */
function effectiveSubject(doc: TextDoc, mail: MailContent | null): string | null {
  const start = doc.text.search(NOTICE_START);
  const quoted = start > 0 ? forwardedSubject(doc.text, start) : null;
  if (quoted && /\d/.test(quoted)) {
    const inner = stripSubjectPrefixes(quoted);
    // A plain-text forward may wrap the quoted Subject line; the forwarder's
    // own Subject usually carries it whole.
    const outer = mail?.subject ? stripSubjectPrefixes(mail.subject) : "";
    return outer.length > inner.length && outer.startsWith(inner) ? outer : inner;
  }
  return mail?.subject ? stripSubjectPrefixes(mail.subject) : quoted;
}

type DocResult = { notice: ParsedNotice } | { nonNotice: NonNotice } | null;

function parseDoc(doc: TextDoc, mail: MailContent | null): DocResult {
  const ctx: NoticeContext = { mail, subject: effectiveSubject(doc, mail) };
  const reason = nonNoticeReason(ctx.subject, doc.text);
  if (reason) return { nonNotice: reason };
  if (looksLikeScotus(doc, mail?.senderAddresses ?? [])) {
    const notice = parseScotus(doc, ctx);
    if (notice) return { notice };
  }
  // State e-filing providers' mail has "Case Number:" lines too; it is told apart first.
  const provider = stateProvider(doc, mail?.senderAddresses ?? [], ctx.subject);
  if (provider) {
    const notice = parseStateEfiling(doc, ctx, provider);
    return notice ? { notice } : null;
  }
  const acms = looksLikeAcms(doc, mail?.senderAddresses ?? []);
  const nda = /Notice of Docket Activity/i.test(doc.text);
  const order = acms ? [parseAcms, parseNda, parseNef] : nda ? [parseNda, parseAcms, parseNef] : [parseNef, parseNda, parseAcms];
  for (const parse of order) {
    const notice = parse(doc, ctx);
    // A notice with no court and no court link is not a federal notice, whatever
    // its layout (e-filing providers' mail also says "Case Number:").
    if (notice?.court_id) return { notice };
  }
  return null;
}

function headerlessBody(buf: Buffer): TextDoc[] {
  const body = buf.toString("utf8");
  return LOOKS_LIKE_HTML.test(body.slice(0, 4000)) ? [htmlToTextDoc(body)] : [plainToTextDoc(body)];
}

/**
 * Version of what the parser writes. Raise it when a parser change should reach messages already
 * received: a stored result of an older version is parsed again when the message is processed.
 */
export const PARSER_VERSION = 3;

/** The message read, and its HTML body as a text document once something asked for it. */
export interface ReadMessage {
  mail: MailContent;
  htmlDoc: () => TextDoc;
}

function readMessage(mail: MailContent): ReadMessage {
  let doc: TextDoc | null = null;
  return { mail, htmlDoc: () => (doc ??= htmlToTextDoc(mail.html ?? "")) };
}

function parseMessage(buf: Buffer, depth: number, onRead?: (read: ReadMessage) => void): ParsedEmail {
  if (buf.length === 0 || (buf.length <= 65536 && buf.toString("latin1").trim() === "")) {
    return { kind: "malformed", reason: "empty input" };
  }
  if (buf.length > MAX_RAW_BYTES) return { kind: "malformed", reason: `message larger than ${MAX_RAW_BYTES} bytes` };

  let mail: MailContent;
  let read: ReadMessage;
  try {
    mail = readMail(buf);
    read = readMessage(mail);
    onRead?.(read);
  } catch (error) {
    return { kind: "malformed", reason: `MIME structure could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }

  if (mail.headerCount === 0) {
    // No header block: accept a bare notice body, otherwise it is not an e-mail.
    for (const doc of headerlessBody(buf)) {
      const result = parseDoc(doc, null);
      if (result && "notice" in result) return { kind: "notice", notice: result.notice };
    }
    return { kind: "malformed", reason: "no RFC 822 header block" };
  }

  const autoReply = autoReplyReason(mail);
  if (autoReply) return { kind: "not_a_notice", reason: autoReply };

  const docs: TextDoc[] = [];
  let nonNotice: NonNotice | null = null;
  for (const doc of textDocs(mail.html, mail.text, read.htmlDoc)) {
    docs.push(doc);
    const result = parseDoc(doc, mail);
    if (!result) continue;
    if ("notice" in result) {
      // A notice a person answered or forwarded: the pipeline links it to the original when the
      // firm has that, and processes it as the notice it is when not.
      const quoted = quotation(mail, doc.text);
      return quoted ? { kind: "notice", notice: result.notice, quoted } : { kind: "notice", notice: result.notice };
    }
    nonNotice ??= result.nonNotice;
  }
  if (nonNotice) return nonNotice.personMustSee ? { kind: "unrecognised", reason: nonNotice.reason } : { kind: "not_a_notice", reason: nonNotice.reason };

  let attachedCourtMail: ParsedEmail | null = null;
  if (depth < MAX_ATTACHED_MESSAGE_DEPTH) {
    for (const attached of mail.attachedMessages.slice(0, 5)) {
      const inner = parseMessage(attached, depth + 1);
      if (inner.kind === "notice") return { ...inner, quoted: inner.quoted ?? quotation(mail, "", true) ?? undefined };
      if (inner.kind === "not_a_notice" && docs.length === 0) return inner;
      if (inner.kind === "unrecognised") attachedCourtMail ??= inner;
    }
  }
  // A notice saved as a .txt or .html file and sent on as an attachment.
  for (const attached of mail.attachedTexts()) {
    for (const doc of textDocs(attached.html ? attached.text : null, attached.html ? null : attached.text, () => htmlToTextDoc(attached.text))) {
      docs.push(doc);
      const result = parseDoc(doc, mail);
      if (result && "notice" in result) return { kind: "notice", notice: result.notice, quoted: quotation(mail, "", true) ?? undefined };
    }
  }

  // Court and provider mail that no parser reads goes to a person; only mail that is positively
  // something else is ignored (decision 092).
  const origins = mailOrigins(mail, docs);
  const court = courtOrigin(origins);
  const ordinary = ordinaryMailReason(mail, docs, court !== null);
  if (ordinary) return { kind: "not_a_notice", reason: ordinary };
  const subject = mail.subject ?? null;
  if (docs.some((d) => hasNoticeMarkers(subject, d.text)) || (docs.length === 0 && hasNoticeMarkers(subject, ""))) {
    return { kind: "unrecognised", reason: "court notice markers found but no docket could be read" };
  }
  if (attachedCourtMail) return attachedCourtMail;
  if (court) return { kind: "unrecognised", reason: `mail from a court or e-filing provider (${court}) that no parser reads` };
  if (docs.length === 0) return { kind: "not_a_notice", reason: "message has no text body", origins };
  return { kind: "not_a_notice", reason: "no court notice found", origins };
}

/** Parse one raw e-mail (RFC 822 bytes). Resolves for every input; never rejects. */
export async function parseNoticeEmail(raw: Buffer | string): Promise<ParsedEmail> {
  return parseRaw(raw);
}

function parseRaw(raw: unknown, onRead?: (read: ReadMessage) => void): ParsedEmail {
  try {
    const buf = toBuffer(raw);
    if (!buf) return { kind: "malformed", reason: "input is neither a Buffer nor a string" };
    return parseMessage(buf, 0, onRead);
  } catch (error) {
    return { kind: "malformed", reason: `unexpected parse failure: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export interface ParsedMessage {
  parsed: ParsedEmail;
  /** The message's readable body, read in the same pass (empty when the MIME could not be read). */
  body: MessageBody;
}

/** Parse one raw e-mail and keep its readable body, so nothing needs to read the raw message again. */
export async function parseNoticeMessage(raw: Buffer | string): Promise<ParsedMessage> {
  let read: ReadMessage | null = null;
  const parsed = parseRaw(raw, (r) => {
    read ??= r;
  });
  let body = EMPTY_MESSAGE_BODY;
  try {
    if (read) body = messageBodyOf((read as ReadMessage).mail, (read as ReadMessage).htmlDoc);
  } catch {
    // The parse result stands without the readable body.
  }
  return { parsed, body };
}
