import fs from "node:fs";
import path from "node:path";
import type { ServerContext } from "../context";
import { DmsTargetError, type DmsStoreResult, type DmsTarget } from "./dms-target";
import { FILE_SYSTEM_KIND, createFileSystemTarget } from "./file-system-target";
import { message } from "../lib/messages";
import type { DmsCredentialKind } from "../../app/common/resources/credentials";
import { vendorTargetFor } from "./vendor-targets";

// From a storage policy's credential to the place files go. Each firm has a root of its own,
// `<ECFX_FILE_STORE_ROOT>/firm-<id>`; a generic credential names a folder inside its firm's root:
// the file-system target. No value (".", "/", "..", another firm's folder, a symlink) leads out.
// Other DMS types plug in here.

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return !relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative);
}

const outside = (field: string) => new DmsTargetError(FILE_SYSTEM_KIND, message("filing:folderOutsideRoot", { folder: field }), false);

/** The firm's own storage root: every file the firm stores lies below it. */
export function firmStorageRoot(storeRoot: string, firmId: number): string {
  if (!Number.isSafeInteger(firmId) || firmId < 0) throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:noFirmRoot", { firm: firmId }), false);
  return path.join(path.resolve(storeRoot), `firm-${firmId}`);
}

/** `<firm root>/<field>` by name alone; a field that leads outside the firm root is refused. */
export function fileSystemRootFor(firmRoot: string, field: string): string {
  const root = path.resolve(firmRoot);
  const folder = path.resolve(root, `.${path.sep}${field.trim()}`);
  if (!field.trim() || !isInside(root, folder)) throw outside(field);
  return folder;
}

/**
 * The folder a credential names, created when missing and resolved through any symlink: its real
 * path must still be inside the firm's real root. Answers it relative to the firm root, which is
 * what a stored record keeps.
 */
export async function resolveCredentialFolder(firmRoot: string, field: string): Promise<{ folder: string; relative: string }> {
  const named = fileSystemRootFor(firmRoot, field);
  try {
    await fs.promises.mkdir(firmRoot, { recursive: true, mode: 0o700 });
    await fs.promises.mkdir(named, { recursive: true, mode: 0o700 });
    const realRoot = await fs.promises.realpath(firmRoot);
    const real = await fs.promises.realpath(named);
    if (!isInside(realRoot, real)) throw outside(field);
    return { folder: real, relative: path.relative(realRoot, real).split(path.sep).join("/") };
  } catch (error) {
    if (error instanceof DmsTargetError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ENOTDIR")
      throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:rootNotFolder", { folder: named }), false, { cause: error });
    throw new DmsTargetError(
      FILE_SYSTEM_KIND,
      message("filing:folderUnusable", { folder: field, reason: code ?? String(error) }),
      code === "EIO" || code === "ENOSPC",
      { cause: error },
    );
  }
}

export interface CredentialTarget {
  target: DmsTarget;
  /** Opens a stored file by the location `store` returned; null when it is not there (any more). */
  open(location: string): Promise<OpenedFile | null>;
}

export interface OpenedFile {
  stream: fs.ReadStream;
  size: number;
}

async function credentialField(ctx: ServerContext, firmId: number, credentialId: string): Promise<string> {
  const credential = await ctx.database.db
    .selectFrom("generic_credential")
    .select(["id", "field"])
    .where("id", "=", credentialId)
    .where("firm_id", "=", firmId)
    .executeTakeFirst();
  if (!credential) throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:credentialsMissing"), false);
  return credential.field;
}

/** Which type of credential an id names within the firm, or null when it names none. */
export async function credentialKind(ctx: ServerContext, firmId: number, credentialId: string): Promise<DmsCredentialKind | null> {
  const found = await ctx.database.db
    .selectFrom("dms_credential_directory")
    .select("kind")
    .where("id", "=", credentialId)
    .where("firm_id", "=", firmId)
    .executeTakeFirst();
  return (found?.kind as DmsCredentialKind | undefined) ?? null;
}

/** A credential as read already with other rows: its type, and a generic credential's folder (null for other types). */
export interface KnownCredential {
  kind: DmsCredentialKind;
  field: string | null;
}

/**
 * The target a firm's credential names; throws DmsTargetError when it names none that works.
 * `known` is the credential when read already (null: the firm has none with this id).
 */
export async function targetForCredential(ctx: ServerContext, firmId: number, credentialId: string, known?: KnownCredential | null): Promise<CredentialTarget> {
  const kind = known === undefined ? await credentialKind(ctx, firmId, credentialId) : (known?.kind ?? null);
  if (kind === null) throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:credentialsMissing"), false);
  // A vendor keeps the files: the product opens none of them itself, people follow the stored link.
  if (kind !== "generic_credential") return { target: await vendorTargetFor(ctx, firmId, kind, credentialId), open: async () => null };
  const field = known?.field ?? (await credentialField(ctx, firmId, credentialId));
  const firmRoot = firmStorageRoot(ctx.config.fileStoreRoot, firmId);
  const { folder, relative } = await resolveCredentialFolder(firmRoot, field);
  const files = createFileSystemTarget(folder, { firmFolder: relative });
  // Each stored file says which folder of the firm root its location is relative to.
  const withRoot = (stored: DmsStoreResult | null): DmsStoreResult | null => stored && { location: stored.location, root: relative };
  const target: DmsTarget = {
    kind: files.kind,
    recognisesCopyBy: files.recognisesCopyBy,
    intend: (request, idempotencyKey, held) => files.intend(request, idempotencyKey, held),
    findExisting: async (intended) => withRoot(await files.findExisting(intended)),
    write: async (request, intended) => withRoot(await files.write(request, intended))!,
  };
  return { target, open: (location) => openInside(firmRoot, folder, location) };
}

/**
 * A stored file, opened from the folder its record kept (relative to the firm's root), never from
 * the credential's current folder: changing a credential cannot point old records elsewhere.
 * Records from before roots were kept (root null) open under the credential's folder, inside the
 * firm's root all the same.
 */
export async function openStoredFile(
  ctx: ServerContext,
  firmId: number,
  record: { root: string | null; location: string; dms_credential_id: string },
): Promise<OpenedFile | null> {
  const firmRoot = firmStorageRoot(ctx.config.fileStoreRoot, firmId);
  let folder: string;
  try {
    // An empty root is the firm root itself (a credential folder of "." or "/").
    if (record.root === "") folder = path.resolve(firmRoot);
    else folder = fileSystemRootFor(firmRoot, record.root ?? (await credentialField(ctx, firmId, record.dms_credential_id)));
  } catch (error) {
    if (error instanceof DmsTargetError) return null;
    throw error;
  }
  return openInside(firmRoot, folder, record.location);
}

/** A file below `folder` by its relative location, refusing anything (a link included) that leads outside the firm root or the folder. */
async function openInside(firmRoot: string, folder: string, location: string): Promise<OpenedFile | null> {
  try {
    const realRoot = await fs.promises.realpath(firmRoot);
    const realFolder = await fs.promises.realpath(folder);
    if (!isInside(realRoot, realFolder)) return null;
    const real = await fs.promises.realpath(path.resolve(realFolder, `.${path.sep}${location}`));
    if (!isInside(realFolder, real) || real === realFolder) return null;
    const stat = await fs.promises.stat(real);
    if (!stat.isFile()) return null;
    return { stream: fs.createReadStream(real), size: stat.size };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}
