import { createHash } from "node:crypto";
import { DmsLocationTaken, DmsTargetError, type DmsIntended, type DmsStoreRequest, type DmsStoreResult } from "../dms-target";
import { type ConnectionReport, type VendorContext, type VendorTarget, runConnectionChecks } from "../vendor-target";
import { DropboxClient } from "./dropbox-client";
import { type FileMetadata, account } from "./dropbox-answers";
import { DROPBOX_KIND, DropboxRefusal } from "./dropbox-errors";
import { ensureFolder, folderPath, listFolder, metadataOrNull, parentOf } from "./dropbox-folders";
import { sharedLink } from "./dropbox-links";
import { dropboxFileName } from "./dropbox-names";
import { KEY_FIELD, SHA256_FIELD, ensureTemplate, filingFields, findTemplate, groupValues } from "./dropbox-properties";
import type { DropboxSettings } from "./dropbox-settings";
import { uploadFile } from "./dropbox-upload";

// Dropbox as a DMS target (docs/dms/dropbox.md). Documents go to <root_path>/<policy folders>/
// <name>.<ext>; a name taken (in any case) becomes "name (2).ext". The intended location is that
// path; the filing's idempotency key and SHA-256 travel with the upload as a property group, so a
// retry finds its own copy at the intended path by them. The link is a shared link where the
// team allows one.

export { DROPBOX_KIND } from "./dropbox-errors";
export { DROPBOX_DEFAULT_BASE_URL } from "./dropbox-hosts";
export type { DropboxSettings } from "./dropbox-settings";

/** Past this many copies of one name something is wrong (a loop filing the same document). */
const MAX_COPIES = 1000;

/** A stored document, and why it has no link when Dropbox would not share it. */
export interface DropboxStoreResult extends DmsStoreResult {
  linkRefused?: string;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

export function createDropboxTarget(settings: DropboxSettings, ctx: VendorContext): VendorTarget {
  const client = new DropboxClient(settings, ctx);

  async function stored(path: string, metadata: FileMetadata): Promise<DropboxStoreResult> {
    const { link, refused } = await sharedLink(client, metadata.path_lower ?? path);
    return { location: metadata.path_display ?? path, ...(link ? { link } : { linkRefused: refused }) };
  }

  async function intend(request: DmsStoreRequest, idempotencyKey: string): Promise<DmsIntended> {
    const folder = folderPath(settings.root_path, request.folder);
    for (let copy = 1; copy <= MAX_COPIES; copy++) {
      const location = `${folder}/${dropboxFileName(request.name, request.extension, copy)}`;
      if ((await metadataOrNull(client, location)) === null) return { location, contentHash: sha256(request.bytes), idempotencyKey };
    }
    throw new DmsTargetError(DROPBOX_KIND, `More than ${MAX_COPIES} documents in ${folder || "/"} are named ${request.name}`, false);
  }

  async function findExisting(intended: DmsIntended): Promise<DmsStoreResult | null> {
    const template = await findTemplate(client);
    if (!template) return null;
    const metadata = await metadataOrNull(client, intended.location, template.id);
    if (metadata?.[".tag"] !== "file") return null;
    const values = groupValues(metadata.property_groups, template.id);
    if (values[KEY_FIELD] !== intended.idempotencyKey || values[SHA256_FIELD] !== intended.contentHash) return null;
    return stored(intended.location, metadata);
  }

  async function write(request: DmsStoreRequest, intended: DmsIntended): Promise<DmsStoreResult> {
    if (sha256(request.bytes) !== intended.contentHash)
      throw new DmsTargetError(DROPBOX_KIND, `The bytes to file are not those intended for ${intended.location}`, false);
    const fields = filingFields(intended.idempotencyKey, intended.contentHash, request.properties);
    if (await ensureFolder(client, parentOf(intended.location))) {
      // Dropbox-synced tools watching the folder may need a moment before a file lands in it.
      if (settings.folder_creation_sync_delay > 0) await ctx.sleep(settings.folder_creation_sync_delay);
    }
    const templateId = await ensureTemplate(
      client,
      fields.map((field) => field.name),
    );
    let metadata: FileMetadata;
    try {
      metadata = await uploadFile(client, intended.location, request.bytes, [{ template_id: templateId, fields }]);
    } catch (error) {
      if (error instanceof DropboxRefusal && /^path\/conflict/.test(error.summary)) throw new DmsLocationTaken(DROPBOX_KIND, intended.location);
      throw error;
    }
    return stored(intended.location, metadata);
  }

  function testConnection(): Promise<ConnectionReport> {
    const root = folderPath(settings.root_path, []);
    // Only Dropbox's own refusals are a failed step; anything else is a fault of ours, thrown on.
    const describe = (error: unknown) => {
      if (!(error instanceof DmsTargetError)) throw error;
      return error.message;
    };
    return runConnectionChecks([
      {
        step: "Sign in",
        describe,
        run: async () => {
          await client.tokens.renew();
          const signedIn = await client.call("reading the signed-in account", account, (dropbox) => dropbox.usersGetCurrentAccount());
          return `Signed in as ${signedIn.name.display_name} (${signedIn.email})`;
        },
      },
      {
        step: "List the root folder",
        describe,
        run: async () => {
          const listing = await listFolder(client, root);
          const where = root || "the app's root folder";
          if (!listing) return `${where} does not exist yet: it is created with the first document`;
          return `Listed ${listing.entries.length}${listing.has_more ? "+" : ""} items in ${where}`;
        },
      },
    ]);
  }

  return { kind: DROPBOX_KIND, recognisesCopyBy: "key", intend, findExisting, write, testConnection };
}
