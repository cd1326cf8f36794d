// What ProLaw answers, as far as ECFX reads it (tests/fixtures/openapi/prolaw/prolaw-rest.yaml).

export interface ProLawMatter {
  /** The internal key. */
  MattersId: string;
  /** The matter number people see. */
  MatterId: string;
  Description?: string;
  /** The master matter of a sub-matter; null for a matter of its own. */
  ParentMattersId?: string | null;
}

export interface ProLawFolder {
  FolderId: string;
  Name: string;
  ParentFolderId?: string | null;
}

export interface ProLawDocument {
  DocumentId: string;
  MattersId: string;
  FolderId?: string | null;
  FileName: string;
  ExternalReference?: string | null;
  WebUrl: string;
}

export interface Items<T> {
  Items: T[];
  TotalCount?: number;
}
