import type { FirmBranding, FirmRecord, FirmUpdate } from "../../app/common/firm-schema";
import { DEFAULT_PRIMARY_COLOR, DEFAULT_SECONDARY_COLOR, INTERNAL_WALLS_STATES, normaliseColor } from "../../app/common/firm-schema";
import type { FirmRow, FirmUpdate as FirmRowUpdate } from "../db/schema";

// The firm row stores booleans as 0/1 and lists as JSON; these are the only conversions.
const BOOLEAN_FIELDS = [
  "public_document_access",
  "manually_process_notices",
  "store_notice_as_docket_text",
  "internal_walls_enabled",
  "prefers_combined_documents",
  "wait_for_dms_attempt_to_notify",
  "extract_document_web_links",
] as const;

const LIST_FIELDS = [
  "host_names",
  "manual_process_emails",
  "storage_policy_hierarchy",
  "additional_receipt_emails",
  "error_notification_emails",
  "ignored_case_statuses",
  "case_not_found_report_emails",
  "dms_failure_report_emails",
  "missed_notice_report_emails",
  "entitled_features",
  "accepted_email_domains",
  "ignored_email_domains",
  "court_mail_senders",
] as const;

function parseList(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

export function firmRecord(row: FirmRow & { has_logo: number | boolean }): FirmRecord {
  const { is_default: _default, ...rest } = row;
  const record: Record<string, unknown> = { ...rest, has_logo: Boolean(row.has_logo) };
  for (const f of BOOLEAN_FIELDS) record[f] = Boolean(row[f]);
  for (const f of LIST_FIELDS) record[f] = parseList(row[f]);
  const walls = row.internal_walls_state as FirmRecord["internal_walls_state"];
  record.internal_walls_state = INTERNAL_WALLS_STATES.includes(walls) ? walls : "unapplied";
  return record as unknown as FirmRecord;
}

export function firmRowUpdate(update: FirmUpdate, now: number): FirmRowUpdate {
  const row: Record<string, unknown> = { ...update, updated_at: now };
  for (const f of BOOLEAN_FIELDS) row[f] = update[f] ? 1 : 0;
  for (const f of LIST_FIELDS) row[f] = JSON.stringify(update[f]);
  return row as FirmRowUpdate;
}

/** Branding with colours that are always usable: an invalid stored colour falls back. */
export function firmBranding(firm: FirmRecord): FirmBranding {
  return {
    id: firm.id,
    name: firm.name,
    primary_color: normaliseColor(firm.primary_color) ?? DEFAULT_PRIMARY_COLOR,
    secondary_color: normaliseColor(firm.secondary_color) ?? DEFAULT_SECONDARY_COLOR,
    has_logo: firm.has_logo,
    time_zone: firm.default_time_zone,
    signon_type: firm.signon_type,
    entitled_features: firm.entitled_features,
    updated_at: firm.updated_at,
  };
}
