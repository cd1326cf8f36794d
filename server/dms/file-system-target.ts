import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import {
  DmsLocationTaken,
  DmsTargetError,
  NOTHING_HELD,
  type DmsIntended,
  type DmsStoreRequest,
  type DmsStoreResult,
  type DmsTarget,
  type HeldPaths,
  intendAndWrite,
} from "./dms-target";
import { sanitizeFileName, sanitizeSegment } from "./path-template";
import { message } from "../lib/messages";
import { flushToDisk, writeOnDisk } from "../lib/on-disk";

/**
 * The "file-system" storage target: files under one root folder (a local disk or a mounted share).
 * Never overwrites: a name that is taken becomes `name (2).ext`, `name (3).ext`, …
 * Never leaves a half-written file under its final name: the bytes go to a temporary file in
 * the same folder first and are then hard-linked to the final name, which fails when the name
 * exists. Folders are checked with realpath so a symlink inside the root cannot lead outside it.
 * The name is chosen first (`intend`) and written second (`write`), so the storage step can record
 * it in between; a retry finds its own file there by content (`findExisting`).
 */

export const FILE_SYSTEM_KIND = "file-system";
/** Beyond this many copies of one name something is wrong (a loop storing the same notice). */
const MAX_COPIES = 10_000;
const SIDECAR_SUFFIX = ".properties.json";
/** How many free names one question to the records covers. */
const HELD_QUESTION = 8;

export interface FileSystemStoreResult {
  /** Relative to the root, separated by `/`. */
  path: string;
  /** The same as `path`, for the DmsTarget contract. */
  location: string;
}

export interface FileSystemTarget extends DmsTarget {
  kind: typeof FILE_SYSTEM_KIND;
  /** The root as configured, made absolute. */
  readonly root: string;
  /**
   * Creates the root when missing and checks it is a folder; returns its real path. Once it
   * succeeds a target keeps the answer: a target serves one storage attempt, and the folders below
   * the root are resolved and checked again on every use.
   */
  check(): Promise<string>;
  /** Intends and writes in one go (a fresh name each time), for callers that need no retry protocol. */
  store(request: DmsStoreRequest): Promise<FileSystemStoreResult>;
  store(relativeFolder: string[], baseName: string, extension: string, bytes: Buffer): Promise<FileSystemStoreResult>;
}

export interface FileSystemTargetOptions {
  /**
   * False for file systems without hard links (FAT, some SMB shares): the final name is then
   * reserved with an exclusive create and the temporary file renamed over it, so a crash can
   * leave an empty file but never a partial one. Detected automatically when link() is refused.
   */
  hardLinks?: boolean;
  /**
   * The root as a folder below the firm's storage root ("" for that root itself). Given, each
   * intent names its file as a path below the firm's root (`DmsIntended.path`), which is what
   * other filings' records hold.
   */
  firmFolder?: string;
}

const RETRYABLE_CODES = new Set(["ENOSPC", "EDQUOT", "EIO", "EAGAIN", "EBUSY", "EMFILE", "ENFILE", "ETIMEDOUT", "ESTALE", "EINTR", "ECONNRESET", "EHOSTDOWN"]);
const NO_LINK_CODES = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EMLINK", "EXDEV"]);

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

function failure(message: string, error?: unknown): DmsTargetError {
  const code = codeOf(error);
  const detail = error === undefined ? "" : `: ${code ?? (error as Error).message}`;
  return new DmsTargetError(FILE_SYSTEM_KIND, `${message}${detail}`, code !== undefined && RETRYABLE_CODES.has(code), { cause: error });
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative));
}

function normaliseExtension(extension: string): string {
  const bare = extension.trim().replace(/^\./, "");
  if (bare !== "" && !/^[A-Za-z0-9]{1,16}$/.test(bare)) {
    throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:notAnExtension", { extension }), false);
  }
  return bare;
}

const TEMPORARY_PREFIX = ".ecfx-";

/**
 * The mark of the temporary files written for one filing (its idempotency key). An attempt cut
 * short (a crash between writing and naming) leaves one behind; the filing's next attempt removes it.
 */
export function temporaryTag(idempotencyKey: string): string {
  return createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 16);
}

/** Removes the temporary files of filing `tag` among the names of `folder`. */
async function removeLeftovers(folder: string, names: Iterable<string>, tag: string): Promise<void> {
  const mine = [...names].filter((name) => name.startsWith(`${TEMPORARY_PREFIX}${tag}-`) && name.endsWith(".tmp"));
  await Promise.all(mine.map((name) => removeIfThere(path.join(folder, name))));
}

/** Unlinks a file; one already gone is fine. */
async function removeIfThere(file: string): Promise<void> {
  await fs.unlink(file).catch((error: unknown) => {
    if (codeOf(error) !== "ENOENT") throw error;
  });
}

async function writeTemporary(folder: string, bytes: Buffer, tag: string): Promise<string> {
  const temporary = path.join(folder, `${TEMPORARY_PREFIX}${tag}-${randomBytes(8).toString("hex")}.tmp`);
  // On disk before it gets its final name, so a crash cannot expose a partial file.
  await writeOnDisk(temporary, bytes, 0o666);
  return temporary;
}

export function createFileSystemTarget(rootDir: string, options: FileSystemTargetOptions = {}): FileSystemTarget {
  if (typeof rootDir !== "string" || rootDir.trim() === "") {
    throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:folderNotSet"), false);
  }
  const root = path.resolve(rootDir);
  let hardLinks = options.hardLinks ?? true;

  let checkedRoot: Promise<string> | undefined;
  function check(): Promise<string> {
    // A failed check is not kept: the next call tries again.
    checkedRoot ??= checkRoot().catch((error: unknown) => {
      checkedRoot = undefined;
      throw error;
    });
    return checkedRoot;
  }

  async function checkRoot(): Promise<string> {
    try {
      await fs.mkdir(root, { recursive: true });
    } catch (error) {
      const code = codeOf(error);
      if (code === "EEXIST" || code === "ENOTDIR") throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:rootNotFolder", { folder: root }), false);
      throw failure(message("filing:rootNotCreated", { folder: root }), error);
    }
    let real: string;
    try {
      real = await fs.realpath(root);
      if (!(await fs.stat(real)).isDirectory()) throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:rootNotFolder", { folder: root }), false);
    } catch (error) {
      if (error instanceof DmsTargetError) throw error;
      throw failure(message("filing:rootNotRead", { folder: root }), error);
    }
    return real;
  }

  /**
   * The folder, created when missing. Most folders exist already (a case's folder holds all its
   * notices): the whole path is resolved at once and taken when its real path is a folder inside
   * the root; otherwise it is made one level at a time, each level resolved and checked.
   */
  async function ensureFolder(realRoot: string, segments: string[]): Promise<string> {
    const whole = await fs.realpath(path.join(realRoot, ...segments)).catch(() => null);
    if (whole !== null && isInside(realRoot, whole) && (await isFolder(whole))) return whole;
    let current = realRoot;
    for (const segment of segments) {
      const next = path.join(current, segment);
      // Most folders exist already (a case's folder holds all its notices): resolved first, made
      // only when missing, so the common path raises no error.
      let real = await fs.realpath(next).catch(() => null);
      if (real === null) {
        try {
          await fs.mkdir(next);
          // The new folder's name on the disk before anything filed in it is recorded as filed.
          await flushToDisk(current);
        } catch (error) {
          if (codeOf(error) !== "EEXIST") throw failure(message("filing:folderNotCreated", { folder: next }), error);
        }
        try {
          real = await fs.realpath(next);
        } catch (error) {
          throw failure(message("filing:folderNotResolved", { folder: next }), error);
        }
      }
      if (!isInside(realRoot, real)) throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:folderOutside", { folder: next, target: real }), false);
      if (!(await fs.stat(real)).isDirectory()) throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:fileNotFolder", { folder: next }), false);
      current = real;
    }
    return current;
  }

  /** Gives the bytes (already in `temporary`) the final name unless that name exists; false when it does. */
  async function claim(temporary: string, bytes: Buffer, final: string, tag: string): Promise<boolean> {
    if (hardLinks) {
      try {
        await fs.link(temporary, final);
        return true;
      } catch (error) {
        const code = codeOf(error);
        if (code === "EEXIST") return false;
        if (!code || !NO_LINK_CODES.has(code)) throw failure(message("filing:notWritten", { file: final }), error);
        hardLinks = false;
      }
    }
    try {
      await (await fs.open(final, "wx")).close();
    } catch (error) {
      if (codeOf(error) === "EEXIST") return false;
      throw failure(message("filing:notWritten", { file: final }), error);
    }
    // The name is ours now (exclusive create); the rename replaces only our own empty file.
    // A fresh temporary file, because `temporary` may be needed for the next candidate name.
    let fresh: string | null = null;
    try {
      fresh = await writeTemporary(path.dirname(final), bytes, tag);
      await fs.rename(fresh, final);
    } catch (error) {
      if (fresh) await removeIfThere(fresh);
      await removeIfThere(final);
      throw failure(message("filing:notWritten", { file: final }), error);
    }
    return true;
  }

  /** The request's folder (created when missing) and the names it would use, sanitised here again. */
  async function placeOf(request: DmsStoreRequest) {
    // The segments are sanitised again here so that this target is safe whatever its caller passes.
    const segments = request.folder.map(sanitizeSegment).filter((segment) => segment !== "");
    const name = sanitizeFileName(request.name);
    const suffix = normaliseExtension(request.extension);
    const properties = request.properties ?? {};
    const sidecar = Object.keys(properties).length > 0 ? Buffer.from(`${JSON.stringify(properties, null, 2)}\n`) : null;
    const realRoot = await check();
    const folder = await ensureFolder(realRoot, segments);
    return { realRoot, folder, name, suffix, sidecar };
  }

  /**
   * The first copy number whose document name (and sidecar name, with properties) is free on disk
   * and held by no other filing.
   */
  async function intend(request: DmsStoreRequest, idempotencyKey: string, held: HeldPaths = NOTHING_HELD): Promise<DmsIntended> {
    const { realRoot, folder, name, suffix, sidecar } = await guarded(request.name, () => placeOf(request));
    // The folder is listed once: a case folder holding a thousand "Order.pdf" copies costs one
    // read, not a thousand look-ups. Links are listed too, so they count as taken.
    const listed = await guarded(request.name, () => namesIn(folder));
    // What an interrupted attempt of this filing left (a crash between writing and naming) goes
    // now, found in the same listing; its next write follows this.
    await guarded(request.name, () => removeLeftovers(folder, listed, temporaryTag(idempotencyKey)));
    const extension = suffix ? `.${suffix}` : "";
    const pathOf = (location: string) => path.posix.join(options.firmFolder ?? "", location);
    let copy = 1;
    while (copy <= MAX_COPIES) {
      // A listed name is an entry of the folder itself, so a taken copy costs one set look-up. The
      // names free in the listing are put to the records a few at a time, in one question.
      const free: string[] = [];
      for (; copy <= MAX_COPIES && free.length < HELD_QUESTION; copy++) {
        const base = `${copy === 1 ? name : `${name} (${copy})`}${extension}`;
        if (!listed.has(base) && !(sidecar && listed.has(`${base}${SIDECAR_SUFFIX}`))) free.push(base);
      }
      if (free.length === 0) continue;
      const locations = free.map((base) => relativeTo(realRoot, path.join(folder, base)));
      const holding = await held(locations.map(pathOf));
      for (const [index, base] of free.entries()) {
        const location = locations[index]!;
        if (holding.has(pathOf(location))) continue;
        const final = path.join(folder, base);
        if (path.dirname(final) !== folder || !isInside(realRoot, final)) {
          throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:fileOutside", { file: path.basename(final) }), false);
        }
        // lstat as well, for file systems that ignore case: a link with the name counts as taken,
        // so nothing is ever written through it.
        if ((await exists(final)) || (sidecar && (await exists(`${final}${SIDECAR_SUFFIX}`)))) continue;
        const intended: DmsIntended = { location, contentHash: sha256(request.bytes), idempotencyKey };
        if (options.firmFolder !== undefined) intended.path = pathOf(location);
        return intended;
      }
    }
    throw new DmsTargetError(
      FILE_SYSTEM_KIND,
      message("filing:tooManyCopies", { count: MAX_COPIES, name, folder: relativeTo(realRoot, folder) || message("filing:storageFolder") }),
      false,
    );
  }

  /** The intended file as an absolute path below the root, refusing anything that leads elsewhere. */
  async function resolveIntended(intended: DmsIntended, checkedRoot?: string): Promise<{ realRoot: string; final: string }> {
    const realRoot = checkedRoot ?? (await check());
    const final = path.resolve(realRoot, `.${path.sep}${intended.location}`);
    if (!isInside(realRoot, final) || final === realRoot)
      throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:fileOutside", { file: intended.location }), false);
    return { realRoot, final };
  }

  async function findExisting(intended: DmsIntended): Promise<DmsStoreResult | null> {
    const { realRoot, final } = await resolveIntended(intended);
    try {
      const stat = await fs.lstat(final);
      if (!stat.isFile()) return null;
      if (sha256(await fs.readFile(final)) !== intended.contentHash) return null;
      // The real folder must still be inside the root (a folder swapped for a link since).
      if (!isInside(realRoot, await fs.realpath(final))) return null;
      // Adopted: a temporary copy the interrupted attempt had not removed yet goes now.
      const folder = path.dirname(final);
      await removeLeftovers(folder, await fs.readdir(folder), temporaryTag(intended.idempotencyKey));
      return { location: intended.location };
    } catch (error) {
      if (codeOf(error) === "ENOENT" || codeOf(error) === "ENOTDIR") return null;
      throw failure(message("filing:notRead", { file: intended.location }), error);
    }
  }

  async function write(request: DmsStoreRequest, intended: DmsIntended): Promise<FileSystemStoreResult> {
    const temporaries: string[] = [];
    return guarded(request.name, async () => {
      const { realRoot, folder, suffix, sidecar } = await placeOf(request);
      const { final } = await resolveIntended(intended, realRoot);
      if (path.dirname(final) !== folder || (suffix && !final.endsWith(`.${suffix}`))) {
        throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:misplaced", { file: intended.location }), false);
      }
      const tag = temporaryTag(intended.idempotencyKey);
      try {
        const documentTemporary = await writeTemporary(folder, request.bytes, tag);
        temporaries.push(documentTemporary);
        // The sidecar first: whoever picks the document up finds its properties already there.
        let sidecarClaimed = false;
        if (sidecar) {
          const sidecarTemporary = await writeTemporary(folder, sidecar, tag);
          temporaries.push(sidecarTemporary);
          sidecarClaimed = await claim(sidecarTemporary, sidecar, `${final}${SIDECAR_SUFFIX}`, tag);
          // A sidecar already there is ours when it says the same (an attempt stopped before the document).
          if (!sidecarClaimed && !(await sameContent(`${final}${SIDECAR_SUFFIX}`, sidecar))) throw new DmsLocationTaken(FILE_SYSTEM_KIND, intended.location);
        }
        let claimed: boolean;
        try {
          claimed = await claim(documentTemporary, request.bytes, final, tag);
        } catch (error) {
          if (sidecarClaimed) await removeIfThere(`${final}${SIDECAR_SUFFIX}`);
          throw error;
        }
        if (claimed) {
          // The file's name (its bytes are flushed already) on the disk before the filing is
          // recorded as done: a power cut must not leave a filing recorded whose file is gone.
          await flushToDisk(folder);
          return { path: relativeTo(realRoot, final), location: relativeTo(realRoot, final) };
        }
        // The document name is taken although its sidecar was free: give the sidecar back.
        if (sidecarClaimed) await removeIfThere(`${final}${SIDECAR_SUFFIX}`);
        throw new DmsLocationTaken(FILE_SYSTEM_KIND, intended.location);
      } finally {
        await Promise.all(temporaries.map(removeIfThere));
      }
    });
  }

  function store(request: DmsStoreRequest): Promise<FileSystemStoreResult>;
  function store(relativeFolder: string[], baseName: string, extension: string, bytes: Buffer): Promise<FileSystemStoreResult>;
  async function store(first: DmsStoreRequest | string[], baseName?: string, extension?: string, bytes?: Buffer): Promise<FileSystemStoreResult> {
    const request: DmsStoreRequest = Array.isArray(first)
      ? {
          folder: first,
          name: baseName ?? "",
          extension: extension ?? "",
          bytes: bytes ?? Buffer.alloc(0),
          contentType: "application/octet-stream",
          properties: {},
        }
      : first;
    const { location } = await intendAndWrite(target, request, randomBytes(8).toString("hex"));
    return { path: location, location };
  }

  const target: FileSystemTarget = { kind: FILE_SYSTEM_KIND, recognisesCopyBy: "content", root, check, intend, findExisting, write, store };
  return target;
}

/** Our own errors pass; anything else becomes a DmsTargetError naming the file. */
async function guarded<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DmsTargetError) throw error;
    throw failure(message("filing:storeFailed", { name }), error);
  }
}

async function namesIn(folder: string): Promise<Set<string>> {
  try {
    return new Set(await fs.readdir(folder));
  } catch (error) {
    throw failure(message("filing:notRead", { file: folder }), error);
  }
}

async function isFolder(file: string): Promise<boolean> {
  return (await fs.stat(file).catch(() => null))?.isDirectory() ?? false;
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch (error) {
    if (codeOf(error) === "ENOENT") return false;
    throw error;
  }
}

async function sameContent(file: string, bytes: Buffer): Promise<boolean> {
  try {
    const stat = await fs.lstat(file);
    return stat.isFile() && (await fs.readFile(file)).equals(bytes);
  } catch {
    return false;
  }
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function relativeTo(root: string, target: string): string {
  return path.relative(root, target).split(path.sep).join("/");
}
