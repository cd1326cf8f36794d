import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import type { FieldDef } from "../../common/resources/types";
import { DELIVERY_METHODS, EVENT_LEVELS, type FirmRecord, type FirmUpdate, NOTIFICATION_CADENCES, firmUpdateSchema } from "../../common/firm-schema";
import { splitList } from "../fields/form-values";

// The firm settings form: which fields it shows, in which section, and how their posted text is
// read before the API's own schema (firmUpdateSchema) validates it.

export type FirmFieldName = keyof FirmUpdate;

export interface FirmField extends FieldDef {
  name: FirmFieldName;
  /** Options loaded with the page (templates, time zones) instead of a fixed list. */
  source?: "templates" | "timeZones";
  /** Colour inputs get a swatch and the contrast warning. */
  color?: boolean;
}

export interface FirmSection {
  key: string;
  fields: FirmField[];
}

export const FIRM_SECTIONS: FirmSection[] = [
  {
    key: "general",
    fields: [
      { name: "name", kind: "text", required: true },
      { name: "reply_to_email", kind: "email" },
      { name: "signon_type", kind: "select", options: ["local", "saml", "oidc"] },
      { name: "public_document_access", kind: "boolean" },
    ],
  },
  {
    key: "notifications",
    fields: [
      { name: "default_delivery_method", kind: "select", options: DELIVERY_METHODS },
      { name: "default_email_template_id", kind: "select", source: "templates" },
      { name: "default_time_zone", kind: "select", source: "timeZones" },
      { name: "default_notification_cadence", kind: "select", options: NOTIFICATION_CADENCES },
      { name: "default_daily_cadence_delivery_time", kind: "text" },
      { name: "extract_document_web_links", kind: "boolean" },
      { name: "prefers_combined_documents", kind: "boolean" },
      { name: "wait_for_dms_attempt_to_notify", kind: "boolean" },
    ],
  },
  {
    key: "notices",
    fields: [
      { name: "store_notice_as_docket_text", kind: "boolean" },
      { name: "max_email_attachment_size", kind: "number" },
      { name: "max_case_deletions_on_import", kind: "number" },
      { name: "import_warning_threshold", kind: "number" },
      { name: "max_import_size", kind: "number" },
      { name: "minutes_saved_per_notice", kind: "number" },
      { name: "missed_notice_hours", kind: "number" },
      { name: "accepted_email_domains", kind: "emails", hintKey: "wizard:domainsHint" },
      { name: "ignored_email_domains", kind: "emails", hintKey: "wizard:domainsHint" },
      { name: "court_mail_senders", kind: "emails", hintKey: "wizard:courtSendersHint" },
    ],
  },
  {
    key: "recipients",
    fields: [
      { name: "additional_receipt_emails", kind: "emails" },
      { name: "error_notification_emails", kind: "emails" },
      { name: "error_notification_level", kind: "select", options: EVENT_LEVELS },
      { name: "case_not_found_report_emails", kind: "emails" },
      { name: "dms_failure_report_emails", kind: "emails" },
      { name: "missed_notice_report_emails", kind: "emails" },
    ],
  },
  {
    key: "branding",
    fields: [
      { name: "primary_color", kind: "text", color: true },
      { name: "secondary_color", kind: "text", color: true },
    ],
  },
];

/** A page of firm settings: where it is, and the sections it shows and saves. */
export interface FirmSettingsPage {
  path: string;
  sections: FirmSection[];
}

export const FIRM_INFORMATION_PAGE: FirmSettingsPage = { path: "/firm-information", sections: FIRM_SECTIONS };

/** Spec §2 /special-handling: notices held for a person to process, and who is told about them. */
export const SPECIAL_HANDLING_PAGE: FirmSettingsPage = {
  path: "/special-handling",
  sections: [
    {
      key: "specialHandling",
      fields: [
        { name: "manually_process_notices", kind: "boolean" },
        { name: "manual_process_emails", kind: "emails" },
      ],
    },
  ],
};

export const fieldsOf = (page: FirmSettingsPage): FirmField[] => page.sections.flatMap((s) => s.fields);

const asList = (value: unknown) => {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return splitList(value);
  return Array.isArray(value) ? value.flatMap((v) => (typeof v === "string" ? splitList(v) : [v])) : value;
};

/**
 * How a posted value reaches the API's rule. The form is parsed without Conform's coercion, so
 * an emptied box stays "" and the rule's own message speaks (an empty reply-to is allowed);
 * a list box is read as its items, an unticked box as false, an empty number as missing (not
 * 0) and an empty template choice as none.
 */
function formRule(field: FirmField, rule: z.ZodTypeAny): z.ZodTypeAny {
  if (field.kind === "emails") return z.preprocess(asList, rule);
  if (field.kind === "boolean") return z.preprocess((v) => v === true || v === "on", rule);
  if (field.kind === "number") return z.preprocess((v) => (v === "" ? undefined : v), rule);
  if (field.name === "default_email_template_id") return z.preprocess((v) => v || null, rule);
  return z.preprocess((v) => v ?? "", rule);
}

const shape = firmUpdateSchema.shape as Record<FirmFieldName, z.ZodTypeAny>;

type FirmFormSchema = z.ZodObject<Record<FirmFieldName, z.ZodTypeAny>>;
const schemas = new Map<string, FirmFormSchema>();

/** The API's schema for the fields a page shows, reading posted text as above. */
function firmFormSchema(page: FirmSettingsPage): FirmFormSchema {
  let schema = schemas.get(page.path);
  if (!schema) {
    schema = z.object(Object.fromEntries(fieldsOf(page).map((f) => [f.name, formRule(f, shape[f.name])])) as Record<FirmFieldName, z.ZodTypeAny>);
    schemas.set(page.path, schema);
  }
  return schema;
}

/** A page's posted settings, validated by the API's rules (on the page and again in the action). */
export const parseFirmForm = (formData: FormData, page: FirmSettingsPage) =>
  parseWithZod(formData, { schema: firmFormSchema(page), disableAutoCoercion: true });

/** The record as the PUT wants it: every updatable field, the hidden ones unchanged. */
export function firmUpdateOf(record: FirmRecord, posted: Partial<FirmUpdate>): Record<string, unknown> {
  const current = Object.fromEntries(Object.keys(firmUpdateSchema.shape).map((name) => [name, record[name as FirmFieldName]]));
  return { ...current, ...posted };
}
