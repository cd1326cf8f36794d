import { createHash } from "node:crypto";

// Dropbox's content_hash (https://www.dropbox.com/developers/reference/content-hash): the bytes
// cut into 4 MiB blocks, each block's SHA-256, and the SHA-256 of those digests one after the
// other, in hex. Sent with every upload so Dropbox refuses bytes that changed on the way.

export const CONTENT_HASH_BLOCK = 4 * 1024 * 1024;

export function dropboxContentHash(bytes: Buffer): string {
  const overall = createHash("sha256");
  for (let start = 0; start < bytes.length; start += CONTENT_HASH_BLOCK) {
    overall.update(
      createHash("sha256")
        .update(bytes.subarray(start, start + CONTENT_HASH_BLOCK))
        .digest(),
    );
  }
  return overall.digest("hex");
}
