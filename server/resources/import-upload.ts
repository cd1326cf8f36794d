import fs from "node:fs";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { formatBytes } from "../../app/common/import/format";
import { HttpError } from "../lib/errors";
import { newId } from "../lib/ids";
import { message } from "../lib/messages";

// An import file is kept on disk while it is checked and imported, so that a large file costs
// disk, not memory. It is counted as it arrives: past the firm's maximum the upload stops there.

/** Where uploads wait: only this process's user may read them. */
export function uploadFolder(dataDir: string): string {
  const folder = path.join(dataDir, "imports");
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  return folder;
}

export const tooLarge = (maxBytes: number) => new HttpError(413, message("transfer:import.tooLarge", { size: formatBytes(maxBytes) }));

/** Writes the request body to a new file in the folder; 413 (and no file) past maxBytes. */
export async function keepUpload(body: Readable, folder: string, maxBytes: number): Promise<string> {
  const file = path.join(folder, `${newId()}.csv`);
  let received = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      callback(received > maxBytes ? tooLarge(maxBytes) : null, chunk);
    },
  });
  try {
    await pipeline(body, limit, fs.createWriteStream(file, { mode: 0o600 }));
    return file;
  } catch (error) {
    fs.rmSync(file, { force: true });
    // The rest of a refused body is not read: the answer goes out and the connection closes.
    body.resume();
    throw error;
  }
}

export function discardUpload(file: string): void {
  fs.rmSync(file, { force: true });
}

/** Uploads older than a day belong to imports whose process stopped: nothing will read them. */
export function discardStaleUploads(folder: string, now: number): void {
  for (const name of fs.readdirSync(folder)) {
    const file = path.join(folder, name);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat && now - stat.mtimeMs > 24 * 3600 * 1000) fs.rmSync(file, { force: true });
  }
}
