import type { RetrieveView, TrackingView } from "../../common/case-tracking";
import type { ListedDocument } from "../../common/listed-document";
import type { PreviewOutcome } from "../../common/template-preview";
import type { WebhookDeliveryRow } from "../../common/resources/webhooks";

/** A notice as a case page lists it: enough to recognise it and open its card. */
export interface RelatedNotice {
  id: string;
  created_at: number;
  status: string;
  subject?: string;
}

/** A document as GET /api/v1/document/list answers it. */
export type RelatedDocument = ListedDocument;

/** The sections the role may see, by kind; a list is null when the API refused it. */
export interface LoadedSections {
  caseNotices?: RelatedNotice[] | null;
  caseDocuments?: RelatedDocument[] | null;
  envelopeDocuments?: RelatedDocument[] | null;
  /** Only for a firm entitled to ECFX Track. */
  caseTracking?: TrackingView;
  /** Only on an installation that turns case retrieve on (ECFX_CASE_RETRIEVE). */
  caseRetrieve?: RetrieveView;
  templatePreview?: PreviewOutcome;
  webhookDeliveries?: { webhookId: string; rows: WebhookDeliveryRow[] } | null;
}
