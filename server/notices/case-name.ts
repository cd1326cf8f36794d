import { collapse, trimChars } from "./text-utils";

export const UNKNOWN_CASE_TITLE = "Unknown Case Title";

/**
 * Case title as stored: "et al" dropped and "USA" spelled out, so that the
 * same case gets the same name whichever notice it came from.
 * "USA v. MANAFORT et al" -> "United States v. MANAFORT".
 */
export function cleanCaseName(raw: string | null | undefined): string {
  if (!raw) return UNKNOWN_CASE_TITLE;
  const name = trimChars(
    collapse(raw)
      .replace(/,?\s?\bet\.?\s+al\b\.?/gi, "")
      .replace(/\bUSA\b/g, "United States")
      .replace(/ ,/g, ",")
      .replace(/ {2,}/g, " "),
    " ,;",
  );
  return name || UNKNOWN_CASE_TITLE;
}
