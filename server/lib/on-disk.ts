import fs from "node:fs";

/**
 * Flushes what was written to a file, or a folder's entries, from the kernel's cache to the disk
 * (Linux flushes the file, not the descriptor, so any descriptor will do). False when there is no
 * such file. Runs in Node's thread pool: the process goes on meanwhile.
 */
export async function flushToDisk(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, "r").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (!handle) return false;
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
  return true;
}
