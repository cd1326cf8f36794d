import { z } from "zod";

// Graph's answers as the client reads them (zod schemas of the parts of Graph's types it uses:
// site, drive, driveItem, list, listItem, columnDefinition), and the library a credential names.

const optionalText = z.string().nullish();

export const driveItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  webUrl: optionalText,
  folder: z.object({ childCount: z.number().nullish() }).nullish(),
  file: z.object({ mimeType: optionalText }).nullish(),
  size: z.number().nullish(),
  /** The item's row in the library, when asked for with $expand=listItem($expand=fields). */
  listItem: z.object({ fields: z.record(z.unknown()).nullish() }).nullish(),
});
export type DriveItem = z.infer<typeof driveItemSchema>;

export const siteSchema = z.object({ id: z.string(), displayName: optionalText, webUrl: optionalText });
export const drivesSchema = z.object({ value: z.array(z.object({ id: z.string(), name: z.string(), webUrl: optionalText })) });
export const listSchema = z.object({ id: z.string() });
export const childrenSchema = z.object({ value: z.array(driveItemSchema) });
export const columnsSchema = z.object({
  value: z.array(z.object({ name: z.string(), personOrGroup: z.object({ allowMultipleSelection: z.boolean().nullish() }).nullish() })),
});
export const siteUsersSchema = z.object({
  value: z.array(z.object({ id: z.string(), fields: z.object({ Title: optionalText, EMail: optionalText }).nullish() })),
});
export const uploadSessionSchema = z.object({ uploadUrl: z.string().url() });
/** An answer whose body is not read beyond being JSON. */
export const anyAnswer = z.unknown();

export interface Library {
  siteName: string;
  siteId: string;
  /** The list behind the drive: where the library's columns are. */
  listId: string;
  driveId: string;
  driveName: string;
  /** Folders inside the drive that are the credential's root. */
  root: string[];
  /** Characters of the server-relative path up to and including the root, for SharePoint's 400-character limit. */
  rootPathLength: number;
}
