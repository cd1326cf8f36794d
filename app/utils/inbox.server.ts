import type { InboxCard } from "../common/inbox-card";
import type { ApiClient } from "./auth.server";

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
