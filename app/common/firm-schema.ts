import { z } from "zod";
import { MAX_IMPORT_BYTES } from "./import/format";
import { addressOrDomainList, domainList, emailList, requiredText } from "./validation";

export const DELIVERY_METHODS = ["PDF", "WEB_LINK", "DMS_LINK", "PDF_AND_DMS_LINK", "INHERIT_METHOD", "PDF_NO_EMAIL", "PDF_AND_DMS_LINK_NO_EMAIL"] as const;
export const NOTIFICATION_CADENCES = ["REALTIME", "DAILY", "NEVER", "DAILY_AND_REALTIME", "INHERIT_CADENCE"] as const;
export const EVENT_LEVELS = ["INFO", "AUDIT", "WARNING", "ERROR", "CRITICAL"] as const;
export const HIERARCHY_LEVELS = ["firm", "location", "practice_group", "client", "matter", "case"] as const;
export const INTERNAL_WALLS_STATES = ["applied", "applying", "unapplied"] as const;
export const DEFAULT_PRIMARY_COLOR = "#1c4f8a";
export const DEFAULT_SECONDARY_COLOR = "#c8a24a";

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** '#ABC' or 'abc' → '#aabbcc'; anything else → null. */
export function normaliseColor(value: string | null | undefined): string | null {
  const m = value?.trim().match(HEX);
  if (!m) return null;
  const hex = m[1]!.toLowerCase();
  return `#${
    hex.length === 3
      ? hex
          .split("")
          .map((c) => c + c)
          .join("")
      : hex
  }`;
}

export const colorField = () =>
  z.string().transform((v, ctx) => {
    const color = normaliseColor(v);
    if (!color) {
      ctx.addIssue({ code: "custom", message: "errors:invalidColor" });
      return z.NEVER;
    }
    return color;
  });

// Spaces are allowed beside the spec's list: every real firm name has them.
export const firmName = () => requiredText(60).regex(/^[A-Za-z0-9 ,:\-+.&]+$/, "errors:firmNameCharacters");

/** The longest a firm may wait for a tracked entry's e-mail notice: a week. */
export const MAX_MISSED_NOTICE_HOURS = 168;

const count = () => z.coerce.number({ invalid_type_error: "errors:required" }).int().min(0);
const time = () => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "errors:required");

/** The firm settings a save may change (ids, timestamps and the logo have their own paths). */
export const firmUpdateSchema = z.object({
  name: firmName(),
  signon_type: z.enum(["local", "saml", "oidc"]),
  max_case_deletions_on_import: count(),
  default_daily_cadence_delivery_time: time(),
  public_document_access: z.boolean(),
  manually_process_notices: z.boolean(),
  manual_process_emails: emailList(),
  store_notice_as_docket_text: z.boolean(),
  max_email_attachment_size: count(),
  primary_color: colorField(),
  secondary_color: colorField(),
  default_delivery_method: z.enum(DELIVERY_METHODS),
  default_notification_cadence: z.enum(NOTIFICATION_CADENCES),
  internal_walls_enabled: z.boolean(),
  storage_policy_hierarchy: z.array(z.enum(HIERARCHY_LEVELS)),
  storage_policy_id: z.string().nullable(),
  prefers_combined_documents: z.boolean(),
  default_email_template_id: z.string().nullable(),
  additional_receipt_emails: emailList(),
  error_notification_emails: emailList(),
  error_notification_level: z.enum(EVENT_LEVELS),
  ignored_case_statuses: z.array(z.string().trim().min(1)),
  reply_to_email: z.union([z.literal(""), z.string().trim().toLowerCase().email("errors:invalidEmail")]),
  wait_for_dms_attempt_to_notify: z.boolean(),
  case_not_found_report_emails: emailList(),
  web_preferences: z.string().max(10_000),
  default_time_zone: z.string().min(1),
  dms_failure_report_emails: emailList(),
  import_warning_threshold: count(),
  // Optional so that a save from before the setting existed keeps the stored value.
  max_import_size: count().min(1024, "errors:importSizeRange").max(MAX_IMPORT_BYTES, "errors:importSizeRange").optional(),
  entitled_features: z.array(z.string()),
  accepted_email_domains: domainList(),
  ignored_email_domains: domainList(),
  // Optional so that a client which does not know the field yet keeps the stored value.
  court_mail_senders: addressOrDomainList().optional(),
  extract_document_web_links: z.boolean(),
  host_names: z.array(z.string().transform(normaliseHostName).pipe(z.string().min(1, "errors:hostNameInvalid"))).transform((hosts) => [...new Set(hosts)]),
  // Optional so that a client which does not know the field yet keeps the stored value.
  minutes_saved_per_notice: count().max(1440, "errors:minutesSavedRange").optional(),
  // ECFX Track's missed-notice reconciliation (decision 095); optional as the two above.
  missed_notice_hours: count().min(1, "errors:missedNoticeHoursRange").max(MAX_MISSED_NOTICE_HOURS, "errors:missedNoticeHoursRange").optional(),
  missed_notice_report_emails: emailList().optional(),
});

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * A host as the browser sends it, "" for what is no host name. "Chair.Example.TEST:8443" and
 * "chair.example.test." are "chair.example.test"; a Unicode name is its UTS 46 (IDNA) ASCII form,
 * and an IPv4 address written any way a browser reads it ("2130706433", "0x7f.1", "127.1") is its
 * dotted form. The URL parser does both, as the browser's own does.
 */
export function normaliseHostName(host: string): string {
  const text = host.trim();
  if (!text || /[\s/\\?#@]/.test(text)) return "";
  let name: string;
  try {
    name = new URL(`http://${text}`).hostname.replace(/\.$/, "");
  } catch {
    return "";
  }
  if (isAddressLiteral(name)) return name;
  const labels = name.split(".");
  return name.length <= 253 && labels.every((label) => LABEL.test(label)) ? name : "";
}

/** An IP address rather than a name, in the URL parser's form ("127.0.0.1", "[::1]"). */
export function isAddressLiteral(host: string): boolean {
  return host.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(host);
}

export type FirmUpdate = z.infer<typeof firmUpdateSchema>;

export interface FirmRecord extends FirmUpdate {
  id: number;
  created_at: number;
  updated_at: number;
  has_logo: boolean;
  internal_walls_state: (typeof INTERNAL_WALLS_STATES)[number];
}

/** What anyone may see of a firm, signed in or not: its branding. */
export interface FirmBranding {
  id: number;
  name: string;
  primary_color: string;
  secondary_color: string;
  has_logo: boolean;
  /** The firm's default time zone: the console writes every moment in it. */
  time_zone: string;
  signon_type: string;
  entitled_features: string[];
  updated_at: number;
}
