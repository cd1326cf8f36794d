import { DmsTargetError } from "../dms-target";
import type { DropboxClient } from "./dropbox-client";
import { DropboxRefusal } from "./dropbox-errors";
import { sharedLink as sharedLinkAnswer, sharedLinks } from "./dropbox-answers";

// The link a person opens a filed document with: a shared link, where the team allows them.
// Dropbox answers shared_link_already_exists for a file that has one (a retry's adopted copy);
// that link is used. When the team's policy refuses links (or any other trouble), the document
// is filed without a link: a filing never fails for want of one.

export interface LinkOutcome {
  link?: string;
  /** Why there is no link, in plain words. */
  refused?: string;
}

export async function sharedLink(client: DropboxClient, path: string): Promise<LinkOutcome> {
  try {
    const created = await client.call(`sharing ${path}`, sharedLinkAnswer, (dropbox) => dropbox.sharingCreateSharedLinkWithSettings({ path }));
    return { link: created.url };
  } catch (error) {
    if (!(error instanceof DmsTargetError)) throw error;
    if (!(error instanceof DropboxRefusal && /^shared_link_already_exists/.test(error.summary))) return { refused: error.message };
  }
  try {
    const { links } = await client.call(`listing the links of ${path}`, sharedLinks, (dropbox) => dropbox.sharingListSharedLinks({ path, direct_only: true }));
    return links[0] ? { link: links[0].url } : { refused: `Dropbox listed no shared link of ${path}` };
  } catch (error) {
    if (error instanceof DmsTargetError) return { refused: error.message };
    throw error;
  }
}
