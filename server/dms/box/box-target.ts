import { boxAnswer, folderCount, user } from "./box-answers";
import { createHash } from "node:crypto";
import type { BoxClient } from "box-node-sdk";
import { DmsLocationTaken, DmsTargetError, type DmsIntended, type DmsStoreRequest, type DmsStoreResult } from "../dms-target";
import { type VendorContext, type VendorTarget, runConnectionChecks } from "../vendor-target";
import { BOX_KIND, nameInUse, toDmsError } from "./box-errors";
import { BOX_ROOT_FOLDER_ID, listItems, resolveFolder } from "./box-folders";
import { METADATA_FIELD, filingMetadata, isFilingCopy } from "./box-metadata";
import { boxSafeName, firstFreeName } from "./box-names";
import { type BoxSettings, boxClient } from "./box-session";
import { isTemporaryName, removeLeftovers, uploadUnderName } from "./box-upload";

// The "Box client-credential grant" DMS target: documents go into folders below the Box
// subject's root folder ("All Files"), named by Box's rules, tagged with Box metadata, and
// linked by their web URL. See docs/dms/box.md.

export { BOX_KIND } from "./box-errors";
export { BOX_DEFAULT_BASE_URL } from "./box-hosts";
export type { BoxSettings } from "./box-session";

/** Where a person opens a Box file: its web URL (no shared link is created, so Box's own permissions apply). */
export const boxFileLink = (id: string): string => `https://app.box.com/file/${id}`;

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** The folder path as Box may name it. */
const boxFolderPath = (folder: string[]) => folder.map((segment) => boxSafeName(segment));

/** "/Matters/Smith v Jones/Notice.pdf": the folder path below the root and the file name. */
const locationOf = (folder: string[], name: string) => `/${[...folder, name].join("/")}`;
const folderLabel = (folder: string[]) => `/${folder.join("/")}`;

/** The folder path and name of an intended location (names never hold "/"). */
function parseLocation(location: string): { folder: string[]; name: string } {
  const segments = location.split("/").filter(Boolean);
  return { folder: segments.slice(0, -1), name: segments.at(-1) ?? "" };
}

const result = (id: string): DmsStoreResult => ({ location: id, link: boxFileLink(id) });

export function createBoxTarget(settings: BoxSettings, ctx: VendorContext): VendorTarget {
  const client: BoxClient = boxClient(settings, ctx);

  async function intend(request: DmsStoreRequest, idempotencyKey: string): Promise<DmsIntended> {
    const folder = boxFolderPath(request.folder);
    const found = await resolveFolder(client, folder, false);
    let taken: string[] = [];
    try {
      if (found) taken = (await listItems(client, found.id)).map((item) => item.name);
    } catch (error) {
      throw toDmsError(error, `Box refused to list folder ${folderLabel(folder)}`);
    }
    let name: string;
    try {
      name = firstFreeName(request.name, request.extension, taken);
    } catch (error) {
      throw new DmsTargetError(BOX_KIND, `No free name in ${folderLabel(folder)}: ${(error as Error).message}`, false, { cause: error });
    }
    return { location: locationOf(folder, name), contentHash: sha256(request.bytes), idempotencyKey };
  }

  async function findExisting(intended: DmsIntended): Promise<DmsStoreResult | null> {
    const { folder } = parseLocation(intended.location);
    const found = await resolveFolder(client, folder, false);
    if (!found) return null;
    try {
      const items = await listItems(client, found.id, [METADATA_FIELD]);
      // A temporary upload carries the metadata before its rename: only a renamed one was filed.
      const copy = items.find((item) => !isTemporaryName(item.name) && isFilingCopy(item, intended.idempotencyKey, intended.contentHash));
      return copy ? result(copy.id) : null;
    } catch (error) {
      throw toDmsError(error, `Box refused to list folder ${folderLabel(folder)}`);
    }
  }

  async function write(request: DmsStoreRequest, intended: DmsIntended): Promise<DmsStoreResult> {
    const { folder, name } = parseLocation(intended.location);
    const target = await resolveFolder(client, folder, true);
    // Box serves a new folder to uploads only after a while on some accounts.
    if (target.created) await ctx.sleep(settings.folder_creation_sync_delay);
    try {
      await removeLeftovers(client, target.id, intended.idempotencyKey);
      // Box's preflight check: the name, the permissions and the quota, before any byte is sent.
      await client.uploads.preflightFileUploadCheck({ name, size: request.bytes.length, parent: { id: target.id } });
    } catch (error) {
      if (nameInUse(error)) throw new DmsLocationTaken(BOX_KIND, intended.location);
      throw toDmsError(error, "Box refused the upload");
    }
    let uploaded: Awaited<ReturnType<typeof uploadUnderName>>;
    try {
      uploaded = await uploadUnderName(client, ctx, {
        folderId: target.id,
        name,
        bytes: request.bytes,
        contentType: request.contentType,
        metadata: filingMetadata(request.properties, intended.idempotencyKey, intended.contentHash),
        idempotencyKey: intended.idempotencyKey,
      });
    } catch (error) {
      throw toDmsError(error, "Box refused the upload");
    }
    if (uploaded === "taken") throw new DmsLocationTaken(BOX_KIND, intended.location);
    return result(uploaded.id);
  }

  function testConnection() {
    return runConnectionChecks([
      {
        step: "Sign in",
        describe: (error) => toDmsError(error, "Box refused the sign-in").message,
        run: async () => {
          const me = boxAnswer(user, await client.users.getUserMe(), "the sign-in");
          return `Signed in as ${me.name ?? me.id}${me.login ? ` (${me.login})` : ""}`;
        },
      },
      {
        step: "List the root folder",
        describe: (error) => toDmsError(error, "Box refused to list the root folder").message,
        run: async () => {
          const page = await client.folders.getFolderItems(BOX_ROOT_FOLDER_ID, { queryParams: { fields: ["name"], limit: 100 } });
          const listed = boxAnswer(folderCount, page, "listing the root folder");
          const count = listed.total_count ?? listed.entries?.length ?? 0;
          return `Listed ${count} ${count === 1 ? "item" : "items"} in All Files`;
        },
      },
    ]);
  }

  return { kind: BOX_KIND, recognisesCopyBy: "key", intend, findExisting, write, testConnection };
}
