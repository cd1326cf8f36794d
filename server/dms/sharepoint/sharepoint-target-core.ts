import { createHash } from "node:crypto";
import { DmsTargetError, type DmsIntended, type DmsStoreRequest, type DmsStoreResult } from "../dms-target";
import { type ConnectionCheck, type ConnectionReport, type VendorTarget, runConnectionChecks } from "../vendor-target";
import { firstFreeName, sharePointFolder } from "./sharepoint-names";
import { type ProfileSettings, documentDescription, isFromFiling, profileFields } from "./sharepoint-profile";

// The filing protocol both SharePoint variants follow, over what each can do in its own API:
// intend chooses the first free name in the folder (looking only), write creates the folders,
// waits the sync delay when it created one, uploads under exactly that name, then sets the
// properties and the description that names the filing, removing the upload when that fails;
// findExisting adopts the document at the intended path only when its description names the
// same filing. A location is the document's path inside the library: "ECFX/Acme/Notice.pdf".

/** What is at a path of the library. */
export interface LibraryEntry {
  isFile: boolean;
  link?: string;
  description?: string | null;
}

export interface SharePointLibrary<Uploaded> {
  /** The credential's root folders inside the library, and the characters of its server-relative path. */
  root(): Promise<{ folders: string[]; pathLength: number }>;
  find(path: string[]): Promise<LibraryEntry | null>;
  /** Creates what is missing of `path`; says whether it created anything. */
  ensureFolder(path: string[]): Promise<{ created: boolean }>;
  /** Uploads under exactly `path`; DmsLocationTaken when something is there. */
  upload(path: string[], bytes: Buffer, contentType: string, location: string): Promise<Uploaded>;
  describe(file: Uploaded, fields: Record<string, string>, description: string, location: string): Promise<void>;
  remove(file: Uploaded): Promise<void>;
  linkOf(file: Uploaded): string | undefined;
  /** Connection test steps after signing in: each returns its plain-words detail or throws. */
  connectionSteps(): { step: string; run: () => Promise<string> }[];
}

export interface CoreSettings extends ProfileSettings {
  folder_creation_sync_delay: number;
}

export const sha256Hex = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

const splitLocation = (location: string) => location.split("/").filter(Boolean);

export function createSharePointTarget<Uploaded>(
  kind: string,
  settings: CoreSettings,
  library: SharePointLibrary<Uploaded>,
  sleep: (ms: number) => Promise<void>,
): Omit<VendorTarget, "testConnection"> & { testSteps(signIn: { step: string; run: () => Promise<string> }): Promise<ConnectionReport> } {
  async function intend(request: DmsStoreRequest, idempotencyKey: string): Promise<DmsIntended> {
    const root = await library.root();
    const folder = [...root.folders, ...sharePointFolder(request.folder)];
    const pathLength = root.pathLength + folder.slice(root.folders.length).join("/").length + 1;
    let name: string;
    try {
      name = await firstFreeName(request.name, request.extension, pathLength, async (candidate) => (await library.find([...folder, candidate])) !== null);
    } catch (error) {
      if (error instanceof RangeError) throw new DmsTargetError(kind, error.message, false, { cause: error });
      throw error;
    }
    return { location: [...folder, name].join("/"), contentHash: sha256Hex(request.bytes), idempotencyKey };
  }

  async function findExisting(intended: DmsIntended): Promise<DmsStoreResult | null> {
    const entry = await library.find(splitLocation(intended.location));
    return entry?.isFile && isFromFiling(entry.description, intended.idempotencyKey) ? { location: intended.location, link: entry.link } : null;
  }

  async function write(request: DmsStoreRequest, intended: DmsIntended): Promise<DmsStoreResult> {
    const path = splitLocation(intended.location);
    const folder = await library.ensureFolder(path.slice(0, -1));
    if (folder.created) await sleep(settings.folder_creation_sync_delay);
    const file = await library.upload(path, request.bytes, request.contentType, intended.location);
    try {
      await library.describe(file, profileFields(settings, request.properties), documentDescription(settings, intended.idempotencyKey), intended.location);
    } catch (error) {
      await library.remove(file).catch(() => undefined);
      throw error;
    }
    return { location: intended.location, link: library.linkOf(file) };
  }

  /** Runs the steps in order and stops at the first that fails; never writes. */
  function testSteps(signIn: ConnectionCheck): Promise<ConnectionReport> {
    return runConnectionChecks([signIn, ...library.connectionSteps()]);
  }

  return { kind, recognisesCopyBy: "key", intend, findExisting, write, testSteps };
}
