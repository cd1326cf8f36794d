import fs from "node:fs";
import path from "node:path";
import type { ServerContext } from "../context";
import { DmsTargetError, type DmsTarget } from "./dms-target";
import { FILE_SYSTEM_KIND, createFileSystemTarget } from "./file-system-target";
import { message } from "../lib/messages";

// From a storage policy's credential to the place files go. Generic credentials name a folder
// inside ECFX_FILE_STORE_ROOT: the file-system target. Other DMS types plug in here.

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return !relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative);
}

/** `<ECFX_FILE_STORE_ROOT>/<field>`; a field that leads outside the root is refused. */
export function fileSystemRootFor(storeRoot: string, field: string): string {
  const root = path.resolve(storeRoot);
  const folder = path.resolve(root, `.${path.sep}${field.trim()}`);
  if (!field.trim() || !isInside(root, folder)) {
    throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:folderOutsideRoot", { folder: field }), false);
  }
  return folder;
}

export interface CredentialTarget {
  target: DmsTarget;
  /** Opens a stored file by the location `store` returned; null when it is not there (any more). */
  open(location: string): Promise<{ stream: fs.ReadStream; size: number } | null>;
}

/** The target a firm's credential names; throws DmsTargetError when it names none that works. */
export async function targetForCredential(ctx: ServerContext, firmId: number, credentialId: string): Promise<CredentialTarget> {
  const credential = await ctx.database.db
    .selectFrom("generic_credential")
    .select(["id", "field"])
    .where("id", "=", credentialId)
    .where("firm_id", "=", firmId)
    .executeTakeFirst();
  if (!credential) throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:credentialsMissing"), false);
  const root = fileSystemRootFor(ctx.config.fileStoreRoot, credential.field);
  return { target: createFileSystemTarget(root), open: (location) => openInside(root, location) };
}

/** A file below `root` by its relative location, refusing anything (a link included) that leads outside. */
async function openInside(root: string, location: string): Promise<{ stream: fs.ReadStream; size: number } | null> {
  try {
    const realRoot = await fs.promises.realpath(root);
    const real = await fs.promises.realpath(path.resolve(realRoot, `.${path.sep}${location}`));
    if (!isInside(realRoot, real) || real === realRoot) return null;
    const stat = await fs.promises.stat(real);
    if (!stat.isFile()) return null;
    return { stream: fs.createReadStream(real), size: stat.size };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return null;
    throw error;
  }
}
