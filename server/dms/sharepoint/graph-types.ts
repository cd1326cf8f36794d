// Graph's answers as the client reads them, and the library a credential names.

export interface DriveItem {
  id: string;
  name: string;
  webUrl?: string;
  description?: string;
  folder?: { childCount?: number };
  file?: { mimeType?: string };
  size?: number;
  /** The item's row in the library, when asked for with $expand=listItem($expand=fields). */
  listItem?: { fields?: Record<string, unknown> };
}

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
