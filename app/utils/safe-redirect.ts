/** Only same-site relative paths may be redirect targets ("/cases?x=1", never "//evil" or "https:"). */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  if ([...to].some((c) => c.charCodeAt(0) < 0x20)) return fallback;
  if (to === "/" || to.startsWith("/login")) return fallback;
  return to;
}
