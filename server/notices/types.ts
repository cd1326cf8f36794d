// Result types of the court-notice e-mail parser.
//
// Field names in snake_case are the court e-mail corpus's gold format (see
// tests/fixtures/pacer-email/README.md); `toGoldShape` keeps exactly those. The fields
// marked "product" are ECFX's own additions and are dropped by `toGoldShape`.

/**
 * NEF, NDA, ACMS: federal CM/ECF; SCOTUS: the Supreme Court's electronic filing system; TYLER_EFILE, FILE_AND_SERVEXPRESS: state e-filing providers;
 * COURT_FEED: an entry of a court's docket feed, read by ECFX Track or a case retrieve.
 */
export type NoticeType = "NEF" | "NDA" | "ACMS" | "SCOTUS" | "TYLER_EFILE" | "FILE_AND_SERVEXPRESS" | "COURT_FEED";

export interface EmailRecipient {
  name: string;
  email_addresses: string[];
}

/** Product: one document listed by the notice (main document and each attachment). */
export interface NoticeDocument {
  /** 0 for the main document, 1..n for attachments in the order the notice lists them. */
  number: number;
  description: string | null;
  url: string | null;
  pacer_doc_id: string | null;
}

export interface ParsedDocketEntry {
  /** ISO date from "filed on …". */
  date_filed: string | null;
  /** Full docket text, whitespace collapsed, tags and entities resolved. */
  description: string | null;
  /** Short label, mostly taken from the Subject line. */
  short_description: string | null;
  document_number: string | null;
  document_url: string | null;
  /** Document id from the link with its 4th digit forced to 0 (the free-look flag). */
  pacer_doc_id: string | null;
  pacer_case_id: string | null;
  pacer_seq_no: string | null;
  /** magic_num (NEF), uid (classic NDA) or the document GUID (ACMS). */
  pacer_magic_num: string | null;
  /** Product: the "Filer:" row, or the "Filed by …" text of the docket entry. */
  filed_by: string | null;
  /** Product: ISO date of "entered on …" when the notice gives it. */
  entered_on: string | null;
  /** Product: the notice says the document is sealed or restricted. */
  sealed: boolean;
  /** Product: main document and attachments listed with the entry. */
  documents: NoticeDocument[];
  /** Product (state e-filing): the provider's envelope or transaction number. */
  envelope_number?: string | null;
  /** Product (state e-filing): what the message reports about the envelope. */
  filing_status?: "served" | "accepted" | "rejected" | "submitted";
}

export interface ParsedDocket {
  /** Docket number without judge-initial / defendant suffixes. */
  docket_number: string;
  federal_dn_office_code: string | null;
  federal_dn_case_type: string | null;
  federal_dn_judge_initials_assigned: string | null;
  federal_dn_judge_initials_referred: string | null;
  federal_defendant_number: string | null;
  case_name: string;
  /** Always null: a notice does not give the case's filing date. */
  date_filed: null;
  docket_entries: ParsedDocketEntry[];
  /** Product: the docket number as printed, with judge initials. */
  docket_number_full: string;
  /**
   * Product: the court of this docket when the notice prints a district code with
   * the number ("CAN/3:20-cv-01234" in multidistrict litigation notices); null when
   * the docket belongs to the notice's own court.
   */
  docket_court_id: string | null;
}

export interface ParsedNotice {
  court_id: string | null;
  appellate: boolean;
  acms: boolean;
  contains_attachments: boolean;
  email_recipients: EmailRecipient[];
  dockets: ParsedDocket[];
  /** Product: Message-ID header without angle brackets. */
  message_id: string | null;
  /** Product: the Subject header, decoded. */
  subject: string | null;
  /** Product: the Date header as an ISO timestamp. */
  sent_at: string | null;
  /** Product: host of the court server the notice links to. */
  court_host: string | null;
  /** Product: which notice layout was recognised. */
  notice_type: NoticeType;
  /** Product (state e-filing): the court as the notice names it ("Bexar County - 285th District Court"). */
  court_name?: string | null;
}

/** A notice a person passed on (answered or forwarded), and the Message-IDs the message answers. */
export interface Quotation {
  by: "reply" | "forward";
  answers: string[];
}

export type ParsedEmail =
  /** `quoted`: the notice came quoted in a person's reply or forward (linked to the original when the firm has it). */
  | { kind: "notice"; notice: ParsedNotice; quoted?: Quotation }
  /**
   * Mail that is not a docket notice and that no person needs to see: positively something else
   * (out-of-office reply, newsletter, invitation, court announcement), or mail from no court.
   * `origins`: its senders and link hosts, for the firm's own list of court senders (decision 092).
   */
  | { kind: "not_a_notice"; reason: string; origins?: string[] }
  /**
   * Court or provider mail that a person must see: a notice layout not understood, mail from a
   * court or provider that no parser reads, or a court message that may move a date (an edit
   * notice, a claims-register notice).
   */
  | { kind: "unrecognised"; reason: string }
  /** Not a readable e-mail message at all. */
  | { kind: "malformed"; reason: string };
