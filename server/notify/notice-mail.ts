import { type RawBuilder, sql } from "kysely";
import type { FirmRecord } from "../../app/common/firm-schema";
import type { ServerContext } from "../context";
import {
  DEFAULT_TEMPLATE,
  type NoticeTemplateData,
  type RenderedMail,
  TemplateRenderError,
  ensureDefaultTemplate,
  renderNoticeMail,
} from "../mail/notice-template";
import { type DeliveryDocument, type MailDelivery, buildDelivery } from "./delivery";

// One real-time notice mail for one recipient: the group's template (else the firm's, else the
// default), the documents as the delivery method says, links signed for this recipient.

/** A template chosen for a preference group: its id (null when neither the group nor the firm names one) and its text. */
export interface TemplateChoice {
  group_id: string | null;
  id: string | null;
  template: string | null;
}

/**
 * On PostgreSQL, the select of the template chosen for the group `groupId` (a value or a column)
 * with its text: the group's, else the firm's default, as `TemplateSources` chooses.
 */
export function templateChoice(firm: FirmRecord, groupId: RawBuilder<unknown> | string) {
  return sql`select chosen.id, (select template from email_template where id = chosen.id and firm_id = ${firm.id}) as template
    from (select coalesce(
      nullif((select email_template_id from timekeeper_group where id = ${groupId} and firm_id = ${firm.id}), ''),
      nullif(${firm.default_email_template_id ?? ""}, '')) as id) chosen`;
}

/** Template sources by preference group, read once per job. */
export class TemplateSources {
  private readonly byGroup = new Map<string, Promise<string>>();

  constructor(
    private readonly ctx: ServerContext,
    private readonly firm: FirmRecord,
  ) {}

  /** Takes the templates already read with their choice; one that names none is left to the reads below. */
  know(choices: TemplateChoice[]): this {
    for (const choice of choices) if (choice.id) this.byGroup.set(choice.group_id ?? "", Promise.resolve(choice.template ?? DEFAULT_TEMPLATE));
    return this;
  }

  forGroup(groupId: string | null): Promise<string> {
    const key = groupId ?? "";
    let source = this.byGroup.get(key);
    if (!source) {
      source = this.load(groupId);
      this.byGroup.set(key, source);
    }
    return source;
  }

  private async load(groupId: string | null): Promise<string> {
    const db = this.ctx.database.db;
    if (groupId && this.ctx.database.dialect === "postgres") {
      // The group's template (else the firm's) and its text in one statement; neither named: the default's, as below.
      const { rows } = await templateChoice(this.firm, groupId).execute(db);
      const [chosen] = rows as Omit<TemplateChoice, "group_id">[];
      if (chosen?.id) return chosen.template ?? DEFAULT_TEMPLATE;
    }
    const group = groupId
      ? await db.selectFrom("timekeeper_group").select("email_template_id").where("id", "=", groupId).where("firm_id", "=", this.firm.id).executeTakeFirst()
      : undefined;
    const templateId = group?.email_template_id || this.firm.default_email_template_id || (await ensureDefaultTemplate(this.ctx, this.firm.id));
    const row = await db.selectFrom("email_template").select("template").where("id", "=", templateId).where("firm_id", "=", this.firm.id).executeTakeFirst();
    return row?.template ?? DEFAULT_TEMPLATE;
  }
}

export interface ComposedNotice {
  mail: RenderedMail;
  delivery: MailDelivery;
  /** Why the firm's template could not be used, when the default one stood in. */
  templateProblem: string | null;
}

/** Renders with the chosen template; a template that fails on this notice gives way to the default. */
function renderWithFallback(source: string, data: NoticeTemplateData): { mail: RenderedMail; problem: string | null } {
  try {
    return { mail: renderNoticeMail(source, data), problem: null };
  } catch (error) {
    if (!(error instanceof TemplateRenderError) || source === DEFAULT_TEMPLATE) throw error;
    return { mail: renderNoticeMail(DEFAULT_TEMPLATE, data), problem: error.message };
  }
}

/** The item's template data for one recipient: their name and address, their links, what is attached. */
function personalise(
  base: NoticeTemplateData,
  documents: DeliveryDocument[],
  delivery: MailDelivery,
  recipient: { email: string; name?: string },
): NoticeTemplateData {
  const urlByNumber = new Map(delivery.links.map((l) => [documents.find((d) => d.id === l.documentId)?.number, l.url]));
  const attachedNumbers = new Set(documents.filter((d) => delivery.attachedIds.has(d.id)).map((d) => d.number));
  return {
    ...base,
    recipient: { email: recipient.email, ...(recipient.name ? { name: recipient.name } : {}) },
    documents: base.documents.map((d) => {
      const url = urlByNumber.get(d.number);
      return { ...d, ...(url ? { url } : {}), ...(attachedNumbers.has(d.number) ? { attached: true } : {}) };
    }),
  };
}

export async function composeNotice(
  ctx: ServerContext,
  options: {
    firm: FirmRecord;
    data: NoticeTemplateData;
    documents: DeliveryDocument[];
    method: string;
    recipient: { email: string; name?: string; timekeeperId: string | null };
    templateSource: string;
  },
): Promise<ComposedNotice> {
  const { firm } = options;
  const delivery = await buildDelivery(ctx, {
    firm,
    documents: options.documents,
    method: options.method,
    timekeeperId: options.recipient.timekeeperId,
    budget: firm.max_email_attachment_size,
  });
  const { mail, problem } = renderWithFallback(options.templateSource, personalise(options.data, options.documents, delivery, options.recipient));
  return { mail, delivery, templateProblem: problem };
}
