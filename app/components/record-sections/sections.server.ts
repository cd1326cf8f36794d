import { type AccessKey, allows } from "../../common/access";
import type { RetrieveView, TrackingView } from "../../common/case-tracking";
import type { ProductPart } from "../../common/entitled-features";
import type { RecordSection, ResourceDef } from "../../common/resources/types";
import { ApiError } from "../../utils/api.server";
import type { ApiClient, Me } from "../../utils/auth.server";
import { previewTemplate } from "../templates/template-editor.server";
import type { WebhookDeliveryPage } from "../../common/resources/webhooks";
import type { LoadedSections } from "./types";

// What a record page shows under a case, an ECF notification or a template. The API scopes the
// lists to the firm and its ethical walls; a role that may not read notices or documents gets no
// list at all.

/** Notices on one case page; more are a filter away in the inbox. */
const NOTICES_MAX = 100;

const q = encodeURIComponent;

async function readList<T>(api: ApiClient, path: string): Promise<T[] | null> {
  try {
    return (await api.json<T[]>(path)).data;
  } catch (error) {
    // Refused or gone: the page shows the record without the list, and says so.
    if (error instanceof ApiError && error.status < 500) return null;
    throw error;
  }
}

type Record_ = Record<string, unknown>;

/** The host the browser reached, which decides whether case retrieve is offered (spec §6). */
export const browserHost = (request: Request) => new URL(request.url).host;

interface Source<S extends RecordSection> {
  access: AccessKey;
  /** A part of the product the firm must have on this host (decision 048). */
  part?: ProductPart;
  load: (api: ApiClient, id: string, record: Record_, request: Request) => Promise<LoadedSections[S]>;
}

/** What each section needs of the role and of the firm, and how it is loaded. */
const SOURCES: { [S in RecordSection]: Source<S> } = {
  caseNotices: {
    access: "inboxItemAccess",
    load: (api, id) => readList(api, `/api/v1/inbox-item/search?max=${NOTICES_MAX}&sort=-created_at&filter.case_id=${q(id)}`),
  },
  caseDocuments: { access: "documentAccess", load: (api, id) => readList(api, `/api/v1/document/list?case_id=${q(id)}`) },
  caseTracking: {
    access: "caseAccess",
    part: "ECFX_TRACK",
    load: async (api, id) => (await api.json<TrackingView>(`/api/v1/case/${q(id)}/tracking`)).data,
  },
  caseRetrieve: {
    access: "caseAccess",
    part: "RETRIEVE",
    load: async (api, id, _record, request) => (await api.json<RetrieveView>(`/api/v1/case/${q(id)}/retrieve`, { forwardedHost: browserHost(request) })).data,
  },
  envelopeDocuments: { access: "documentAccess", load: (api, id) => readList(api, `/api/v1/document/list?envelope_id=${q(id)}`) },
  templatePreview: { access: "emailTemplateAccess", load: (api, _id, record) => previewTemplate(api, String(record.template ?? "")) },
  webhookDeliveries: {
    access: "firmAccess",
    load: async (api, id) => {
      const { data } = await api.json<WebhookDeliveryPage>(`/api/v1/webhook/${q(id)}/deliveries?size=5`);
      return { webhookId: id, rows: data.rows };
    },
  },
};

export async function loadRecordSections(
  request: Request,
  api: ApiClient,
  me: Me,
  parts: readonly ProductPart[],
  def: ResourceDef,
  id: string,
  record: Record_,
): Promise<LoadedSections> {
  const shown = (def.sections ?? []).filter((section) => {
    const source: Source<RecordSection> = SOURCES[section];
    return allows(me.userRole[source.access], "read") && (!source.part || parts.includes(source.part));
  });
  const loaded = await Promise.all(shown.map((section) => (SOURCES[section] as Source<RecordSection>).load(api, id, record, request)));
  return Object.fromEntries(shown.map((section, i) => [section, loaded[i]]));
}
