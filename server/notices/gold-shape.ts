// The corpus gold format: exactly the fields the scorer compares, so that
// `ecfx parse` output can be scored directly. Product fields are dropped.
import type { ParsedEmail, ParsedNotice } from "./types";

export interface GoldDocketEntry {
  date_filed: string | null;
  description: string | null;
  short_description: string | null;
  document_number: string | null;
  document_url: string | null;
  pacer_doc_id: string | null;
  pacer_case_id: string | null;
  pacer_seq_no: string | null;
  pacer_magic_num: string | null;
}

export interface GoldDocket {
  docket_number: string;
  federal_dn_office_code: string | null;
  federal_dn_case_type: string | null;
  federal_dn_judge_initials_assigned: string | null;
  federal_dn_judge_initials_referred: string | null;
  federal_defendant_number: string | null;
  case_name: string;
  date_filed: null;
  docket_entries: GoldDocketEntry[];
}

export interface GoldNotice {
  court_id: string | null;
  appellate: boolean;
  acms: boolean;
  contains_attachments: boolean;
  email_recipients: { name: string; email_addresses: string[] }[];
  dockets: GoldDocket[];
}

export function toGoldShape(notice: ParsedNotice): GoldNotice {
  return {
    court_id: notice.court_id,
    appellate: notice.appellate,
    acms: notice.acms,
    contains_attachments: notice.contains_attachments,
    email_recipients: notice.email_recipients.map((r) => ({ name: r.name, email_addresses: [...r.email_addresses] })),
    dockets: notice.dockets.map((d) => ({
      docket_number: d.docket_number,
      federal_dn_office_code: d.federal_dn_office_code,
      federal_dn_case_type: d.federal_dn_case_type,
      federal_dn_judge_initials_assigned: d.federal_dn_judge_initials_assigned,
      federal_dn_judge_initials_referred: d.federal_dn_judge_initials_referred,
      federal_defendant_number: d.federal_defendant_number,
      case_name: d.case_name,
      date_filed: null,
      docket_entries: d.docket_entries.map((e) => ({
        date_filed: e.date_filed,
        description: e.description,
        short_description: e.short_description,
        document_number: e.document_number,
        document_url: e.document_url,
        pacer_doc_id: e.pacer_doc_id,
        pacer_case_id: e.pacer_case_id,
        pacer_seq_no: e.pacer_seq_no,
        pacer_magic_num: e.pacer_magic_num,
      })),
    })),
  };
}

/** Gold shape of any parse result: `{}` for everything that is not a notice. */
export function goldShapeOf(result: ParsedEmail): GoldNotice | Record<string, never> {
  return result.kind === "notice" ? toGoldShape(result.notice) : {};
}
