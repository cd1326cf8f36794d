// What the API answers about an import job (GET /api/v1/import-jobs/{id} and its /lines).

export type ImportJobStatus = "running" | "done" | "failed";
export type ImportLineOutcome = "created" | "updated" | "rejected";

export interface ImportJobReport {
  id: string;
  /** Registry key of the entity imported. */
  resource: string;
  status: ImportJobStatus;
  sync: boolean;
  total: number;
  processed: number;
  created: number;
  updated: number;
  rejected: number;
  deleted: number;
  message: string | null;
  created_at: number;
  finished_at: number | null;
}

export interface ImportLineReport {
  line: number;
  outcome: ImportLineOutcome;
  /** The record's number, reference or title, as the line gave it. */
  record: string;
  /** Why the line was rejected, by field ("_row" for the line as a whole). */
  reasons: Record<string, string[]>;
}

/** The answer to a file over the firm's warning threshold: nothing is imported yet. */
export interface ImportConfirmation {
  confirmationRequired: true;
  rows: number;
  threshold: number;
  message: string;
}
