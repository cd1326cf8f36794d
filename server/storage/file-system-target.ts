import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { DmsTargetError, type DmsStoreRequest, type DmsTarget } from "./dms-target";
import { sanitizeFileName, sanitizeSegment } from "./path-template";
import { message } from "../lib/messages";

/**
 * The "file-system" storage target: files under one root folder (a local disk or a mounted share).
 * Never overwrites: a name that is taken becomes `name (2).ext`, `name (3).ext`, …
 * Never leaves a half-written file under its final name: the bytes go to a temporary file in
 * the same folder first and are then hard-linked to the final name, which fails when the name
 * exists. Folders are checked with realpath so a symlink inside the root cannot lead outside it.
 */

export const FILE_SYSTEM_KIND = "file-system";
/** Beyond this many copies of one name something is wrong (a loop storing the same notice). */
const MAX_COPIES = 10_000;
const SIDECAR_SUFFIX = ".properties.json";

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
  /** Creates the root when missing and checks it is a folder; returns its real path. */
  check(): Promise<string>;
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
    throw new DmsTargetError(FILE_SYSTEM_KIND, `"${extension}" is not a file extension (letters and digits, at most 16)`, false);
  }
  return bare;
}

async function writeTemporary(folder: string, bytes: Buffer): Promise<string> {
  const temporary = path.join(folder, `.ecfx-${randomBytes(8).toString("hex")}.tmp`);
  const handle = await fs.open(temporary, "wx");
  try {
    await handle.writeFile(bytes);
    // On disk before it gets its final name, so a crash cannot expose a partial file.
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  return temporary;
}

export function createFileSystemTarget(rootDir: string, options: FileSystemTargetOptions = {}): FileSystemTarget {
  if (typeof rootDir !== "string" || rootDir.trim() === "") {
    throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:folderNotSet"), false);
  }
  const root = path.resolve(rootDir);
  let hardLinks = options.hardLinks ?? true;

  async function check(): Promise<string> {
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

  /** Creates the folders one level at a time, each resolved and checked to be inside the root. */
  async function ensureFolder(realRoot: string, segments: string[]): Promise<string> {
    let current = realRoot;
    for (const segment of segments) {
      const next = path.join(current, segment);
      try {
        await fs.mkdir(next);
      } catch (error) {
        if (codeOf(error) !== "EEXIST") throw failure(message("filing:folderNotCreated", { folder: next }), error);
      }
      let real: string;
      try {
        real = await fs.realpath(next);
      } catch (error) {
        throw failure(message("filing:folderNotResolved", { folder: next }), error);
      }
      if (!isInside(realRoot, real)) throw new DmsTargetError(FILE_SYSTEM_KIND, message("filing:folderOutside", { folder: next, target: real }), false);
      if (!(await fs.stat(real)).isDirectory()) throw new DmsTargetError(FILE_SYSTEM_KIND, `${next} is a file, not a folder`, false);
      current = real;
    }
    return current;
  }

  /** Gives the bytes (already in `temporary`) the final name unless that name exists; false when it does. */
  async function claim(temporary: string, bytes: Buffer, final: string): Promise<boolean> {
    if (hardLinks) {
      try {
        await fs.link(temporary, final);
        return true;
      } catch (error) {
        const code = codeOf(error);
        if (code === "EEXIST") return false;
        if (!code || !NO_LINK_CODES.has(code)) throw failure(`${final} cannot be written`, error);
        hardLinks = false;
      }
    }
    try {
      await (await fs.open(final, "wx")).close();
    } catch (error) {
      if (codeOf(error) === "EEXIST") return false;
      throw failure(`${final} cannot be written`, error);
    }
    // The name is ours now (exclusive create); the rename replaces only our own empty file.
    // A fresh temporary file, because `temporary` may be needed for the next candidate name.
    let fresh: string | null = null;
    try {
      fresh = await writeTemporary(path.dirname(final), bytes);
      await fs.rename(fresh, final);
    } catch (error) {
      if (fresh) await fs.rm(fresh, { force: true });
      await fs.rm(final, { force: true });
      throw failure(`${final} cannot be written`, error);
    }
    return true;
  }

  async function storeFile(folderSegments: string[], baseName: string, extension: string, bytes: Buffer, properties: Record<string, string>): Promise<FileSystemStoreResult> {
    // The segments are sanitised again here so that this target is safe whatever its caller passes.
    const segments = folderSegments.map(sanitizeSegment).filter((segment) => segment !== "");
    const name = sanitizeFileName(baseName);
    const suffix = normaliseExtension(extension);
    const sidecar = Object.keys(properties).length > 0 ? Buffer.from(`${JSON.stringify(properties, null, 2)}\n`) : null;

    const temporaries: string[] = [];
    try {
      const realRoot = await check();
      const folder = await ensureFolder(realRoot, segments);
      const documentTemporary = await writeTemporary(folder, bytes);
      temporaries.push(documentTemporary);
      const sidecarTemporary = sidecar ? await writeTemporary(folder, sidecar) : null;
      if (sidecarTemporary) temporaries.push(sidecarTemporary);

      for (let copy = 1; copy <= MAX_COPIES; copy++) {
        const fileName = `${copy === 1 ? name : `${name} (${copy})`}${suffix ? `.${suffix}` : ""}`;
        const final = path.join(folder, fileName);
        if (path.dirname(final) !== folder || !isInside(realRoot, final)) {
          throw new DmsTargetError(FILE_SYSTEM_KIND, `${fileName} leads outside the storage folder`, false);
        }
        // The sidecar first: whoever picks the document up finds its properties already there.
        if (sidecar && sidecarTemporary) {
          if (!(await claim(sidecarTemporary, sidecar, `${final}${SIDECAR_SUFFIX}`))) continue;
        }
        let claimed: boolean;
        try {
          claimed = await claim(documentTemporary, bytes, final);
        } catch (error) {
          if (sidecarTemporary) await fs.rm(`${final}${SIDECAR_SUFFIX}`, { force: true });
          throw error;
        }
        if (claimed) return { path: relativeTo(realRoot, final), location: relativeTo(realRoot, final) };
        // The document name is taken although its sidecar was free: give the sidecar back.
        if (sidecarTemporary) await fs.rm(`${final}${SIDECAR_SUFFIX}`, { force: true });
      }
      throw new DmsTargetError(FILE_SYSTEM_KIND, `${MAX_COPIES} files named ${name} already exist in ${relativeTo(realRoot, folder) || "the storage folder"}`, false);
    } catch (error) {
      if (error instanceof DmsTargetError) throw error;
      throw failure(message("filing:storeFailed", { name }), error);
    } finally {
      await Promise.all(temporaries.map((temporary) => fs.rm(temporary, { force: true })));
    }
  }

  function store(request: DmsStoreRequest): Promise<FileSystemStoreResult>;
  function store(relativeFolder: string[], baseName: string, extension: string, bytes: Buffer): Promise<FileSystemStoreResult>;
  function store(first: DmsStoreRequest | string[], baseName?: string, extension?: string, bytes?: Buffer): Promise<FileSystemStoreResult> {
    if (Array.isArray(first)) return storeFile(first, baseName ?? "", extension ?? "", bytes ?? Buffer.alloc(0), {});
    return storeFile(first.folder, first.name, first.extension, first.bytes, first.properties ?? {});
  }

  return { kind: FILE_SYSTEM_KIND, root, check, store };
}

function relativeTo(root: string, target: string): string {
  return path.relative(root, target).split(path.sep).join("/");
}
