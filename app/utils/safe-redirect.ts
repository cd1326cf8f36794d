/** Only same-site relative paths may be redirect targets ("/cases?x=1", never "//evil" or "https:"). */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  if ([...to].some((c) => c.charCodeAt(0) < 0x20)) return fallback;
  if (to === "/" || to.startsWith("/login")) return fallback;
  // A Location header carries ASCII only: other characters travel percent-encoded (a lone
  // surrogate cannot be, and such a target is refused).
  try {
    return to.replace(/[^\x20-\x7e]/gu, (c) => encodeURIComponent(c));
  } catch {
    return fallback;
  }
}
