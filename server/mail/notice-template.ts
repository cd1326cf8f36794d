import type { Kysely } from "kysely";
import { boundedCache } from "../../app/common/bounded-cache";
import { type Caller, fieldLevel } from "../auth/caller";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { findCourt } from "../jurisdictions/federal-courts";
import { loadMessageBody } from "../stored-mail/stored-message";
import type { ParsedEmail } from "../notices";
import { firstLines, readTemplateFile, templateEngine } from "./template-engine";
import { loadNoticeContext } from "../db/case-context";
import { idOfName } from "../lib/ids";
import { message } from "../lib/messages";

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

export const DEFAULT_TEMPLATE_NAME = message("notice:defaultTemplateName");

const MAX_SUBJECT = 200;

/** The template every firm starts with, read once at start from the file beside this module. */
export const DEFAULT_TEMPLATE = readTemplateFile("default-notice.hbs");

/** "[2:24-cv-00123] Peña Industries v. Bluebonnet — Motion to Dismiss", trimmed to one line. */
export function noticeSubject(data: NoticeTemplateData): string {
  const oneLine = (value: string) => value.replace(/\s+/g, " ").trim();
  const number = oneLine(data.case.number);
  const title = [oneLine(data.case.name), oneLine(data.description)].filter(Boolean).join(" — ");
  const subject = [number ? `[${number}]` : "", title].filter(Boolean).join(" ") || message("notice:untitled");
  return subject.length > MAX_SUBJECT ? `${subject.slice(0, MAX_SUBJECT - 1).trimEnd()}…` : subject;
}

// A firm has a handful of templates and every notice mail renders one: each is compiled once.
const compiled = boundedCache<HandlebarsTemplateDelegate>({ max: 200 });

function compiledTemplate(source: string): HandlebarsTemplateDelegate {
  return compiled.keep(source, () => templateEngine.compile(source, { strict: false }));
}

/** Renders a template against a notice's data. Throws TemplateRenderError with a readable message. */
export function renderNoticeMail(source: string, data: NoticeTemplateData): RenderedMail {
  let html: string;
  try {
    html = compiledTemplate(source)(data);
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

function parseJson<T>(value: string | null, fallback: T): T {
  if (!value) return fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

/** The read of the item's own columns a template shows, with the firm's name. */
export function templateItemRead(db: Kysely<DB>, firmId: number, inboxItemId: string) {
  return (
    db
      .selectFrom("inbox_item")
      .select(["id", "parsed", "docket_index", "created_at", "message_body"])
      // The firm's name, read with its item.
      .select((eb) => eb.selectFrom("firm").select("firm.name").where("firm.id", "=", firmId).as("firm_name"))
      .where("id", "=", inboxItemId)
      .where("firm_id", "=", firmId)
  );
}

/** What templateItemRead reads. */
export type TemplateItem = NonNullable<Awaited<ReturnType<ReturnType<typeof templateItemRead>["executeTakeFirst"]>>>;

type TemplateOptions = { links?: { documentId: string; url: string }[]; recipient?: { name?: string; email?: string } };

/**
 * Everything a template can show about one inbox item of this firm, or null when the item is
 * not a processed notice (not parsed as a notice, or no envelope recorded on a case).
 * `links` give documents their address (a web link delivery), `recipient` whom the mail is for.
 */
export async function buildTemplateData(
  ctx: ServerContext,
  firmId: number,
  inboxItemId: string,
  options: TemplateOptions = {},
): Promise<NoticeTemplateData | null> {
  return templateDataOf(ctx, firmId, await templateItemRead(ctx.database.db, firmId, inboxItemId).executeTakeFirst(), options);
}

/** buildTemplateData from its item read already (none: no such item of the firm). */
export async function templateDataOf(
  ctx: ServerContext,
  firmId: number,
  item: TemplateItem | undefined,
  options: TemplateOptions = {},
): Promise<NoticeTemplateData | null> {
  const db = ctx.database.db;
  const parsed = parseJson<ParsedEmail | null>(item?.parsed ?? null, null);
  if (!item || parsed?.kind !== "notice") return null;
  const context = await loadNoticeContext(ctx.database, firmId, item.id);
  if (!context?.envelope) return null;
  const { case: kase, matter, client, jurisdiction, envelope, documents } = context;
  const original = await loadMessageBody(db, firmId, item.id, item);

  const notice = parsed.notice;
  const docket = notice.dockets[item.docket_index ?? 0];
  const courtId = envelope.ecfx_jurisdiction_id ?? notice.court_id;
  const linkOf = new Map((options.links ?? []).map((l) => [l.documentId, l.url]));
  return {
    firm: { name: item.firm_name ?? "" },
    recipient: { ...options.recipient },
    matter: { name: matter?.name ?? "", number: matter?.unique_key ?? "" },
    case: { name: kase.name || docket?.case_name || "", number: kase.case_number || docket?.docket_number_full || "", caption: kase.caption },
    client: { name: client?.name ?? "", number: client?.unique_key ?? "" },
    jurisdiction: { name: jurisdiction?.name ?? "", court: findCourt(courtId)?.name ?? courtId ?? "" },
    date: envelope.date ?? notice.sent_at ?? new Date(item.created_at).toISOString(),
    description: envelope.name,
    filedBy: envelope.filed_by,
    serviceContacts: context.serviceContacts,
    documents: documents.map((d) => {
      const url = linkOf.get(d.id);
      return { name: d.name, number: d.number, sealed: Boolean(d.sealed), ...(url ? { url } : {}) };
    }),
    assignedTimekeepers: context.timekeepers,
    docketText: envelope.docket_text,
    originalNotice: original?.text ?? "",
    weblinks: original?.weblinks ?? [],
    stampedByCourt: documents.length > 0 && documents.every((d) => Boolean(d.stamped_by_court)),
  };
}

/**
 * The data as a person may read it (a preview): what comes from a field their role may not read
 * is left empty, as the generic read leaves the field out. The message body stands for the raw
 * message it was read from.
 */
export function readableTemplateData(caller: Caller, data: NoticeTemplateData): NoticeTemplateData {
  const denied = (resource: string, field: string) => fieldLevel(caller, resource, field) === "DENY";
  return {
    ...data,
    description: denied("envelope", "name") ? "" : data.description,
    filedBy: denied("envelope", "filed_by") ? "" : data.filedBy,
    serviceContacts: denied("envelope", "service_contacts") ? [] : data.serviceContacts,
    docketText: denied("envelope", "docket_text") ? "" : data.docketText,
    originalNotice: denied("inbox_item", "raw_content") ? "" : data.originalNotice,
    weblinks: denied("inbox_item", "raw_content") ? [] : data.weblinks,
  };
}

/** The default template's id for a firm: the same id whoever creates it, so racing callers make one row. */
const defaultTemplateId = (firmId: number): string => idOfName(`ecfx:default-email-template:${firmId}`);

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
    .values({
      id,
      firm_id: firmId,
      name: DEFAULT_TEMPLATE_NAME,
      template: DEFAULT_TEMPLATE,
      created_at: now,
      updated_at: now,
      reference_id: null,
      unique_key: null,
    })
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
