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

/** Content-Disposition for `<name>.csv`: an ASCII fallback and the exact name (RFC 6266). */
export function attachmentHeader(name: string): string {
  const file = `${name}.csv`;
  return `attachment; filename="${file.replace(/[^\x20-\x7e]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(file)}`;
}
