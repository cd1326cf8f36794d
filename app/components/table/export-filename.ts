import contentDisposition from "content-disposition";

/** A download's file name, safe in a header and on any disk; empty when nothing usable is left. */
export function safeFilename(raw: string | null): string {
  return [...(raw ?? "")]
    .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f && !'/\\:*?"<>|'.includes(c))
    .join("")
    .trim()
    .replace(/\.csv$/i, "")
    .slice(0, 100)
    .trim();
}

/** Content-Disposition for a download: the exact name (RFC 6266) and an ASCII fallback. */
export function downloadDisposition(filename: string): string {
  return contentDisposition(filename, { fallback: filename.replace(/[^\x20-\x7e]/g, "_") });
}

/** Content-Disposition for `<name>.csv`. */
export function attachmentHeader(name: string): string {
  return downloadDisposition(`${name}.csv`);
}
