import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { flushToDisk, writeOnDisk } from "../lib/on-disk";
import type { BlobBackend } from "./blob-store";

const HASH = /^[0-9a-f]{64}$/;

/**
 * Blobs as files under the data folder, two levels of hash prefix deep. Written to a temporary
 * name and renamed, so a crash never leaves a half file under its hash.
 */
export class FolderBlobs implements BlobBackend {
  constructor(private readonly root: string) {}

  private pathOf(sha256: string): string {
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async write(sha256: string, bytes: Buffer): Promise<void> {
    const target = this.pathOf(sha256);
    // Present already: the same bytes, by their hash; only their age is renewed.
    const now = new Date();
    const renewed = await fs.promises.utimes(target, now, now).then(
      () => true,
      () => false,
    );
    if (renewed) return;
    const folder = path.dirname(target);
    const created = await fs.promises.mkdir(folder, { recursive: true, mode: 0o700 });
    const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
    // On the disk before its row is: a commit flushed for a 250 or a filing (decision 138) must
    // never leave a row whose bytes a power cut took.
    await writeOnDisk(temp, bytes);
    await fs.promises.rename(temp, target);
    // The new name too, and each folder this write made, in the folder above it.
    const folders = [folder];
    if (created) for (let dir = folder; dir !== path.dirname(created);) folders.push((dir = path.dirname(dir)));
    for (const dir of folders) await flushToDisk(dir);
  }

  read(sha256: string): Promise<Buffer> {
    return fs.promises.readFile(this.pathOf(sha256));
  }

  async exists(sha256: string): Promise<boolean> {
    return (await this.writtenAt(sha256)) !== null;
  }

  async remove(sha256: string): Promise<void> {
    await fs.promises.rm(this.pathOf(sha256), { force: true });
  }

  async writtenAt(sha256: string): Promise<number | null> {
    const stat = await fs.promises.stat(this.pathOf(sha256)).catch(() => null);
    return stat ? stat.mtimeMs : null;
  }

  /** Folder by folder, so memory stays small however many blobs there are. */
  async *list(): AsyncIterable<{ sha256: string; writtenAt: number }> {
    for await (const first of await folder(this.root)) {
      if (!first.isDirectory() || !PREFIX.test(first.name)) continue;
      for await (const second of await folder(path.join(this.root, first.name))) {
        if (!second.isDirectory() || !PREFIX.test(second.name)) continue;
        for await (const file of await folder(path.join(this.root, first.name, second.name))) {
          // Temporary files of a write under way or cut short are not blobs.
          if (!file.isFile() || !HASH.test(file.name)) continue;
          const writtenAt = await this.writtenAt(file.name);
          if (writtenAt !== null) yield { sha256: file.name, writtenAt };
        }
      }
    }
  }
}

const PREFIX = /^[0-9a-f]{2}$/;

/** The entries of a folder one at a time; none when it is not there (nothing stored yet). */
async function folder(dir: string): Promise<AsyncIterable<fs.Dirent>> {
  return fs.promises.opendir(dir).catch((): AsyncIterable<fs.Dirent> => (async function* () {})());
}
