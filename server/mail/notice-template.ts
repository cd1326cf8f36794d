import { createHash } from "node:crypto";
import type { ServerContext } from "../context";
import { findCourt } from "../courts/federal-courts";
import { withoutControlCharacters } from "../lib/control-characters";
import type { EmailRecipient, ParsedEmail } from "../notices";
import { readMail } from "../notices/mime";
import { htmlToTextDoc, plainToTextDoc } from "../notices/text-doc";
import { firstLines, templateEngine } from "./template-engine";
import { loadCaseContext } from "../db/case-context";

// What an e-mail template about one notice can show (spec §3 EmailTemplate: matter, case, client,
// jurisdiction, date, description, filedBy, service contacts, documents, assigned timekeepers,
// docket text, original notice, weblinks, stamped by court), how it is rendered, and the
// template every firm starts with.

export interface NoticeTemplateData {
  firm: { name: string };
  recipient: { name?: string; email?: string };
  matter: { name: string; number: string };
  case: { name: string; number: string; caption: string };
  client: { name: string; number: string };
  jurisdiction: { name: string; court: string };
  /** ISO date the document was filed (or the notice was sent); `{{formatDate date}}` prints it. */
  date: string;
  description: string;
  filedBy: string;
  serviceContacts: string[];
  documents: { name: string; number: number; sealed: boolean; url?: string; attached?: boolean }[];
  assignedTimekeepers: { name: string; email: string }[];
  docketText: string;
  /** The notice's text body, as the court sent it. */
  originalNotice: string;
  weblinks: string[];
  stampedByCourt: boolean;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/** A template that does not compile or fails on the data; the message says where. */
export class TemplateRenderError extends Error {}

export const DEFAULT_TEMPLATE_NAME = "Default notice";

const MAX_WEBLINKS = 50;
const MAX_SUBJECT = 200;

export const DEFAULT_TEMPLATE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{case.number}} {{description}}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:640px;background-color:#ffffff;border:1px solid #d1d5db;border-radius:6px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2937;">
<tr><td style="padding:20px 24px;background-color:#1e3a5f;border-radius:6px 6px 0 0;color:#ffffff;">
<p style="margin:0;font-size:13px;letter-spacing:0.04em;text-transform:uppercase;color:#dbe4f0;">{{firm.name}} · Court notice</p>
<h1 style="margin:6px 0 0 0;font-size:21px;line-height:1.3;font-weight:bold;color:#ffffff;">{{description}}</h1>
</td></tr>
<tr><td style="padding:20px 24px 4px 24px;">
<p style="margin:0 0 12px 0;">{{#if recipient.name}}Dear {{recipient.name}},{{else}}Hello,{{/if}}</p>
<p style="margin:0 0 16px 0;">A new filing was received in <strong>{{case.name}}</strong>{{#if case.number}} ({{case.number}}){{/if}}.</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;font-size:14px;">
<tr><th scope="row" align="left" style="padding:6px 12px 6px 0;width:34%;color:#4b5563;font-weight:bold;vertical-align:top;">Case</th><td style="padding:6px 0;vertical-align:top;">{{case.name}}{{#if case.number}}<br>{{case.number}}{{/if}}</td></tr>
{{#if case.caption}}<tr><th scope="row" align="left" style="padding:6px 12px 6px 0;color:#4b5563;font-weight:bold;vertical-align:top;">Caption</th><td style="padding:6px 0;vertical-align:top;">{{case.caption}}</td></tr>{{/if}}
<tr><th scope="row" align="left" style="padding:6px 12px 6px 0;color:#4b5563;font-weight:bold;vertical-align:top;">Matter</th><td style="padding:6px 0;vertical-align:top;">{{#if matter.name}}{{matter.name}}{{#if matter.number}} ({{matter.number}}){{/if}}{{else}}—{{/if}}</td></tr>
<tr><th scope="row" align="left" style="padding:6px 12px 6px 0;color:#4b5563;font-weight:bold;vertical-align:top;">Client</th><td style="padding:6px 0;vertical-align:top;">{{#if client.name}}{{client.name}}{{#if client.number}} ({{client.number}}){{/if}}{{else}}—{{/if}}</td></tr>
<tr><th scope="row" align="left" style="padding:6px 12px 6px 0;color:#4b5563;font-weight:bold;vertical-align:top;">Court</th><td style="padding:6px 0;vertical-align:top;">{{jurisdiction.court}}{{#if jurisdiction.name}}<br><span style="color:#4b5563;">{{jurisdiction.name}}</span>{{/if}}</td></tr>
<tr><th scope="row" align="left" style="padding:6px 12px 6px 0;color:#4b5563;font-weight:bold;vertical-align:top;">Filed</th><td style="padding:6px 0;vertical-align:top;">{{formatDate date}}{{#if filedBy}} by {{filedBy}}{{/if}}</td></tr>
<tr><th scope="row" align="left" style="padding:6px 12px 6px 0;color:#4b5563;font-weight:bold;vertical-align:top;">Court stamp</th><td style="padding:6px 0;vertical-align:top;">{{#if stampedByCourt}}Stamped by the court{{else}}Not yet stamped by the court{{/if}}</td></tr>
</table>
</td></tr>
<tr><td style="padding:12px 24px 4px 24px;">
<h2 style="margin:0 0 8px 0;font-size:16px;color:#1e3a5f;">Docket text</h2>
<p style="margin:0;padding:12px;background-color:#f9fafb;border-left:4px solid #1e3a5f;">{{docketText}}</p>
</td></tr>
<tr><td style="padding:16px 24px 4px 24px;">
<h2 style="margin:0 0 8px 0;font-size:16px;color:#1e3a5f;">Documents</h2>
{{#if documents.length}}<ul style="margin:0;padding:0 0 0 20px;">
{{#each documents}}<li style="margin:0 0 6px 0;">{{#if url}}<a href="{{url}}" style="color:#1d4ed8;text-decoration:underline;">{{name}}</a>{{else}}{{name}}{{/if}}{{#if sealed}} <strong style="color:#991b1b;">(sealed)</strong>{{/if}}{{#if attached}} <span style="color:#4b5563;">(attached)</span>{{/if}}</li>
{{/each}}</ul>{{else}}<p style="margin:0;color:#4b5563;">The notice lists no documents.</p>{{/if}}
</td></tr>
{{#if assignedTimekeepers.length}}<tr><td style="padding:16px 24px 4px 24px;">
<h2 style="margin:0 0 8px 0;font-size:16px;color:#1e3a5f;">Assigned timekeepers</h2>
<ul style="margin:0;padding:0 0 0 20px;">
{{#each assignedTimekeepers}}<li style="margin:0 0 4px 0;">{{name}}{{#if email}} — <a href="mailto:{{email}}" style="color:#1d4ed8;">{{email}}</a>{{/if}}</li>
{{/each}}</ul>
</td></tr>{{/if}}
{{#if serviceContacts.length}}<tr><td style="padding:16px 24px 4px 24px;">
<h2 style="margin:0 0 8px 0;font-size:16px;color:#1e3a5f;">Service contacts</h2>
<ul style="margin:0;padding:0 0 0 20px;">
{{#each serviceContacts}}<li style="margin:0 0 4px 0;">{{this}}</li>
{{/each}}</ul>
</td></tr>{{/if}}
{{#if weblinks.length}}<tr><td style="padding:16px 24px 4px 24px;">
<h2 style="margin:0 0 8px 0;font-size:16px;color:#1e3a5f;">Links in the notice</h2>
<ul style="margin:0;padding:0 0 0 20px;">
{{#each weblinks}}<li style="margin:0 0 4px 0;word-break:break-all;"><a href="{{this}}" style="color:#1d4ed8;">{{this}}</a></li>
{{/each}}</ul>
</td></tr>{{/if}}
<tr><td style="padding:16px 24px 20px 24px;">
<h2 style="margin:0 0 8px 0;font-size:16px;color:#1e3a5f;">Original notice</h2>
<div style="margin:0;padding:12px;background-color:#f9fafb;border:1px solid #e5e7eb;font-family:Consolas,Menlo,monospace;font-size:12px;line-height:1.45;white-space:pre-wrap;word-break:break-word;color:#374151;">{{originalNotice}}</div>
</td></tr>
<tr><td style="padding:14px 24px;border-top:1px solid #e5e7eb;font-size:12px;color:#4b5563;">
Sent by ECFX for {{firm.name}}{{#if recipient.email}} to {{recipient.email}}{{/if}}.
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;

/** "[2:24-cv-00123] Peña Industries v. Bluebonnet — Motion to Dismiss", trimmed to one line. */
export function noticeSubject(data: NoticeTemplateData): string {
  const oneLine = (value: string) => value.replace(/\s+/g, " ").trim();
  const number = oneLine(data.case.number);
  const title = [oneLine(data.case.name), oneLine(data.description)].filter(Boolean).join(" — ");
  const subject = [number ? `[${number}]` : "", title].filter(Boolean).join(" ") || "Court notice";
  return subject.length > MAX_SUBJECT ? `${subject.slice(0, MAX_SUBJECT - 1).trimEnd()}…` : subject;
}

/** Renders a template against a notice's data. Throws TemplateRenderError with a readable message. */
export function renderNoticeMail(source: string, data: NoticeTemplateData): RenderedMail {
  let html: string;
  try {
    html = templateEngine.compile(source, { strict: false })(data);
  } catch (error) {
    throw new TemplateRenderError(firstLines(error));
  }
  return { subject: noticeSubject(data), html, text: htmlToText(html) };
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] !== "#") return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * The plain-text part of a rendered mail: blocks become lines, links keep their address,
 * invisible parts (head, styles, scripts, comments) go. Line breaks inside text are kept,
 * so a pre-wrapped original notice reads as it came.
 */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<(head|style|script|title)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<a\b[^>]*?\bhref\s*=\s*"([^"]*)"[^>]*>([\s\S]*?)<\/a\s*>/gi, (_whole, href: string, inner: string) => {
      const label = inner.replace(/<[^>]*>/g, "").trim();
      const target = decodeEntities(href).replace(/^mailto:/i, "");
      return label && decodeEntities(label) !== target ? `${label} (${target})` : target;
    })
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/?(p|div|tr|table|ul|ol|h[1-6]|blockquote|pre|section|header|footer)\b[^>]*>/gi, "\n")
    .replace(/<\/(td|th)\s*>/gi, "  ")
    .replace(/<[^>]*>/g, "");
  return decodeEntities(text)
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function contactLine(contact: EmailRecipient): string {
  const addresses = contact.email_addresses.join(", ");
  if (!contact.name) return addresses;
  return addresses ? `${contact.name} <${addresses}>` : contact.name;
}

function parseJson<T>(value: string | null, fallback: T): T {
  if (!value) return fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

/** The notice as the court wrote it (text body, else the HTML body as text) and the links in it. */
async function originalNoticeOf(raw: Buffer): Promise<{ text: string; weblinks: string[] }> {
  try {
    const mail = await readMail(raw);
    const doc = mail.html ? htmlToTextDoc(mail.html) : plainToTextDoc(mail.text ?? "");
    const weblinks = [...new Set(doc.links.map((l) => l.href).filter((href) => /^https?:\/\//i.test(href)))].slice(0, MAX_WEBLINKS);
    // Read again from the raw message, so cleaned again as the parser's output is.
    return withoutControlCharacters({ text: (mail.text ?? doc.text).trim(), weblinks });
  } catch {
    return { text: "", weblinks: [] };
  }
}

/**
 * Everything a template can show about one inbox item of this firm, or null when the item is
 * not a processed notice (not parsed as a notice, or no envelope recorded on a case).
 * `links` give documents their address (a web link delivery), `recipient` whom the mail is for.
 */
export async function buildTemplateData(
  ctx: ServerContext,
  firmId: number,
  inboxItemId: string,
  options: { links?: { documentId: string; url: string }[]; recipient?: { name?: string; email?: string } } = {},
): Promise<NoticeTemplateData | null> {
  const db = ctx.database.db;
  const item = await db
    .selectFrom("inbox_item")
    .select(["id", "parsed", "raw_content", "docket_index", "created_at"])
    .where("id", "=", inboxItemId)
    .where("firm_id", "=", firmId)
    .executeTakeFirst();
  const parsed = parseJson<ParsedEmail | null>(item?.parsed ?? null, null);
  if (!item || parsed?.kind !== "notice") return null;
  const envelope = await db.selectFrom("envelope").selectAll().where("inbox_item_id", "=", item.id).where("firm_id", "=", firmId).executeTakeFirst();
  if (!envelope) return null;
  const context = await loadCaseContext(db, firmId, envelope.case_id);
  if (!context) return null;
  const { case: kase, matter, client, jurisdiction } = context;

  const [firm, timekeepers, documents, original] = await Promise.all([
    db.selectFrom("firm").select("name").where("id", "=", firmId).executeTakeFirst(),
    db
      .selectFrom("case_timekeeper")
      .innerJoin("timekeeper", "timekeeper.id", "case_timekeeper.timekeeper_id")
      .select(["timekeeper.full_name", "timekeeper.email"])
      .where("case_timekeeper.case_id", "=", kase.id)
      .where("timekeeper.firm_id", "=", firmId)
      .orderBy("timekeeper.full_name")
      .execute(),
    db.selectFrom("document").select(["id", "name", "number", "sealed", "stamped_by_court"]).where("envelope_id", "=", envelope.id).orderBy("number").execute(),
    originalNoticeOf(item.raw_content),
  ]);

  const notice = parsed.notice;
  const docket = notice.dockets[item.docket_index ?? 0];
  const courtId = envelope.ecfx_jurisdiction_id ?? notice.court_id;
  const linkOf = new Map((options.links ?? []).map((l) => [l.documentId, l.url]));
  return {
    firm: { name: firm?.name ?? "" },
    recipient: { ...options.recipient },
    matter: { name: matter?.name ?? "", number: matter?.unique_key ?? "" },
    case: { name: kase.name || docket?.case_name || "", number: kase.case_number || docket?.docket_number_full || "", caption: kase.caption },
    client: { name: client?.name ?? "", number: client?.unique_key ?? "" },
    jurisdiction: { name: jurisdiction?.name ?? "", court: findCourt(courtId)?.name ?? courtId ?? "" },
    date: envelope.date ?? notice.sent_at ?? new Date(item.created_at).toISOString(),
    description: envelope.name,
    filedBy: envelope.filed_by,
    serviceContacts: parseJson<EmailRecipient[]>(envelope.service_contacts, []).map(contactLine).filter(Boolean),
    documents: documents.map((d) => {
      const url = linkOf.get(d.id);
      return { name: d.name, number: d.number, sealed: Boolean(d.sealed), ...(url ? { url } : {}) };
    }),
    assignedTimekeepers: timekeepers.map((t) => ({ name: t.full_name, email: t.email })),
    docketText: envelope.docket_text,
    originalNotice: original.text,
    weblinks: original.weblinks,
    stampedByCourt: documents.length > 0 && documents.every((d) => Boolean(d.stamped_by_court)),
  };
}

/** The default template's id for a firm: the same id whoever creates it, so racing callers make one row. */
function defaultTemplateId(firmId: number): string {
  const hex = createHash("sha256").update(`ecfx:default-email-template:${firmId}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The firm's default template id. A firm without one gets a "Default notice" template made from
 * DEFAULT_TEMPLATE and set as its default. Idempotent; two callers at once end with one template.
 */
export async function ensureDefaultTemplate(ctx: Pick<ServerContext, "database" | "clock">, firmId: number): Promise<string> {
  const db = ctx.database.db;
  const current = async () => {
    const firm = await db.selectFrom("firm").select("default_email_template_id").where("id", "=", firmId).executeTakeFirst();
    if (!firm) throw new Error(`No firm ${firmId}.`);
    const id = firm.default_email_template_id;
    const exists = id ? await db.selectFrom("email_template").select("id").where("id", "=", id).where("firm_id", "=", firmId).executeTakeFirst() : undefined;
    return { stored: id, valid: exists ? id : null };
  };
  const before = await current();
  if (before.valid) return before.valid;

  const id = defaultTemplateId(firmId);
  const now = ctx.clock.now();
  await db
    .insertInto("email_template")
    .values({ id, firm_id: firmId, name: DEFAULT_TEMPLATE_NAME, template: DEFAULT_TEMPLATE, created_at: now, updated_at: now, reference_id: null, unique_key: null })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  // Only where nobody has set a default meanwhile (or it still names a template that is gone).
  await db
    .updateTable("firm")
    .set({ default_email_template_id: id, updated_at: now })
    .where("id", "=", firmId)
    .where((eb) => (before.stored ? eb("default_email_template_id", "=", before.stored) : eb("default_email_template_id", "is", null)))
    .execute();
  const after = await current();
  if (!after.valid) throw new Error(`The default e-mail template of firm ${firmId} could not be set.`);
  return after.valid;
}
