import fs from "node:fs";

/** What a file system says when it cannot flush this kind of file (a folder on some network shares). */
const CANNOT_FLUSH = new Set(["EINVAL", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EISDIR"]);

/**
 * Flushes what was written to a file, or a folder's entries, from the kernel's cache to the disk
 * (Linux flushes the file, not the descriptor, so any descriptor will do). False when there is no
 * such file, or its file system cannot flush it: then it keeps its own promises, as a share does.
 * Runs in Node's thread pool: the process goes on meanwhile.
 */
export async function flushToDisk(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, "r").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (!handle) return false;
  try {
    await handle.datasync();
    return true;
  } catch (error) {
    if (CANNOT_FLUSH.has((error as NodeJS.ErrnoException).code ?? "")) return false;
    throw error;
  } finally {
    await handle.close();
  }
}

/**
 * `flush` run one at a time, shared: a caller that comes while one runs waits for the next, which
 * starts once that one ends (the running one may have started before the caller's write), and all
 * callers that came meanwhile share it. Many commits flushed at once cost one or two flushes.
 */
export function sharedFlush(flush: () => Promise<unknown>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const settled = (flushing: Promise<void>) =>
    flushing.then(
      () => undefined,
      () => undefined,
    );
  const start = (): Promise<void> => {
    const started = flush().then(() => undefined);
    running = started;
    // Attached first, so it runs before the waiters start the next one.
    void settled(started).then(() => {
      if (running === started) running = undefined;
    });
    return started;
  };
  return () => {
    if (!running) return start();
    next ??= settled(running).then(() => {
      next = undefined;
      return start();
    });
    return next;
  };
}

/**
 * Writes `bytes` to a new file (refused when `file` exists) and flushes them to the disk before
 * answering, so a name given to the file after is never a name for bytes a power cut took. A
 * failed write leaves no file behind.
 */
export async function writeOnDisk(file: string, bytes: Buffer, mode = 0o600): Promise<void> {
  const handle = await fs.promises.open(file, "wx", mode);
  try {
    await handle.writeFile(bytes);
    await handle.datasync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.promises.rm(file, { force: true });
    throw error;
  }
  await handle.close();
}
