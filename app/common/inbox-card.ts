import type { ActionRequired, Disposition, InboxStatus } from "./resources/inbox";

// The inbox card as the API answers it (GET /api/v1/inbox/:id/card), declared once: the server
// builds it to this type (server/pipeline/inbox-card.ts) and the console draws it.

/** A row as the API answers it: each field the caller's role may not read is left out (all of them when it may not read the rows' type). */
export type FieldLevelled<T> = Partial<T>;

export interface InboxCardItem {
  id: string;
  created_at: number;
  status: InboxStatus;
  action_required: ActionRequired;
  disposition: Disposition;
  disposition_text: string;
  reason: string;
  source: string;
  /** The envelope sender (SMTP MAIL FROM). */
  sender: string;
  /** The message's From header address; empty for messages received before it was kept. */
  from_address: string;
  recipients: string[];
  subject: string;
  snippet: string;
  parent_id: string | null;
  duplicate_of_id: string | null;
  case_id: string | null;
  dms_status: string;
  hidden: boolean;
  raw_size: number;
  /** The parsed notice; null when the role may read neither the message nor the docket text. */
  parsed: { kind: string; reason?: string; notice?: ParsedNoticeView } | null;
}

export interface InboxCardEnvelope {
  id: string;
  name: string;
  date: string | null;
  filed_by: string;
  docket_text: string;
  ecfx_jurisdiction_id: string | null;
}

export interface InboxCardDocument {
  id: string;
  envelope_id: string;
  number: number;
  name: string;
  sealed: boolean;
  fetch_status: string;
  fetch_error: string | null;
  /** Whether the title extraction provider named it: pending, extracted or failed; null when not asked. */
  title_extraction: "pending" | "extracted" | "failed" | null;
  title_extraction_error: string | null;
  stored: boolean;
}

/** A sibling docket's notice or a duplicate, when the caller's scope lets them read it. */
export interface InboxCardLinked {
  id: string;
  status: InboxStatus;
  disposition: Disposition;
  subject: string;
  snippet: string;
  created_at: number;
  parent_id: string | null;
  duplicate_of_id: string | null;
}

export interface InboxCard {
  /** The item the caller was admitted to: its id is always there. */
  item: FieldLevelled<InboxCardItem> & Pick<InboxCardItem, "id">;
  case: { id: string; name: string; case_number: string } | null;
  /** The notice's case title, number and the firm's jurisdiction of its court, while it has no case. */
  caseDraft: { name: string; case_number: string; jurisdiction_id: string | null } | null;
  /** The jurisdiction preference that applied to the notice; null too for a role kept from them. */
  preference: { id: string; name: string } | null;
  events: { created_at: number; level: string; event: string; detail: string }[];
  envelopes: FieldLevelled<InboxCardEnvelope>[];
  documents: FieldLevelled<InboxCardDocument>[];
  linked: FieldLevelled<InboxCardLinked>[];
  /** What was filed in the DMS for the item, one row per file. */
  dms: {
    id: string;
    what: string;
    document_name: string | null;
    storage_policy_name: string | null;
    status: string;
    location: string | null;
    error: string | null;
    attempts: number;
  }[];
  /** Every message sent about the item. */
  mail: { id: string; purpose: string; to_addresses: string[]; subject: string; status: string; error: string | null; created_at: number }[];
}

export interface ParsedNoticeView {
  court_id: string | null;
  notice_type: string;
  dockets: {
    docket_number_full: string;
    case_name: string;
    docket_entries: { date_filed: string | null; short_description: string | null; description: string | null; filed_by: string | null }[];
  }[];
}
