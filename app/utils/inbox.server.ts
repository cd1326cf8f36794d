import type { ApiClient } from "./auth.server";

export interface InboxCard {
  item: {
    id: string;
    created_at: number;
    status: string;
    action_required: string;
    disposition: string;
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
    parsed: { kind: string; reason?: string; notice?: ParsedNoticeView } | null;
  };
  case: { id: string; name: string; case_number: string } | null;
  /** The notice's case title, number and the firm's jurisdiction of its court, while it has no case. */
  caseDraft: { name: string; case_number: string; jurisdiction_id: string | null } | null;
  preference: { id: string; name: string } | null;
  events: { created_at: number; level: string; event: string; detail: string }[];
  envelopes: { id: string; name: string; date: string | null; filed_by: string; docket_text: string; ecfx_jurisdiction_id: string | null }[];
  documents: {
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
  }[];
  linked: {
    id: string;
    status: string;
    disposition: string;
    subject: string;
    snippet: string;
    created_at: number;
    parent_id: string | null;
    duplicate_of_id: string | null;
  }[];
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

export async function loadInboxCard(api: ApiClient, id: string): Promise<InboxCard> {
  return (await api.json<InboxCard>(`/api/v1/inbox/${encodeURIComponent(id)}/card`)).data;
}

/** The original message for display: its HTML (shown only in a sandboxed frame), its text and its source, cut to a readable size. */
export interface OriginalEmail {
  html: string | null;
  text: string;
  source: string;
  truncated: boolean;
}

export async function loadOriginalEmail(api: ApiClient, id: string): Promise<OriginalEmail | null> {
  const response = await api.raw(`/api/v1/inbox/${encodeURIComponent(id)}/original`);
  if (!response.ok) return null;
  return (await response.json()) as OriginalEmail;
}
