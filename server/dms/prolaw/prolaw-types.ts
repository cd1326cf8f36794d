import { z } from "zod";

// What ProLaw answers, as far as ECFX reads it (tests/fixtures/openapi/prolaw/prolaw-rest.yaml),
// as zod schemas the answers are parsed with.

export const proLawMatterSchema = z.object({
  /** The internal key. */
  MattersId: z.string(),
  /** The matter number people see. */
  MatterId: z.string(),
  Description: z.string().nullish(),
  /** The master matter of a sub-matter; null for a matter of its own. */
  ParentMattersId: z.string().nullish(),
});
export type ProLawMatter = z.infer<typeof proLawMatterSchema>;

export const proLawFolderSchema = z.object({
  FolderId: z.string(),
  Name: z.string(),
  ParentFolderId: z.string().nullish(),
});
export type ProLawFolder = z.infer<typeof proLawFolderSchema>;

export const proLawDocumentSchema = z.object({
  DocumentId: z.string(),
  MattersId: z.string(),
  FolderId: z.string().nullish(),
  FileName: z.string(),
  ExternalReference: z.string().nullish(),
  WebUrl: z.string(),
});
export type ProLawDocument = z.infer<typeof proLawDocumentSchema>;

/** A page of items. */
export const itemsOf = <T extends z.ZodTypeAny>(item: T) => z.object({ Items: z.array(item), TotalCount: z.number().int().nullish() });
export interface Items<T> {
  Items: T[];
  TotalCount?: number | null;
}
