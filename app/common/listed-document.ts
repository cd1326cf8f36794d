/** A document as `GET /api/v1/document/list` answers it, for the case and ECF notification pages. */
export interface ListedDocument {
  id: string;
  name: string;
  number: number;
  sealed: boolean;
  stored: boolean;
  envelope_id: string;
  envelope_name: string;
  inbox_item_id: string | null;
}
