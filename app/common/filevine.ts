// What a FileVine credential's own fields mean, read by the console when the credential is saved
// and by the FileVine client when it files: one reading for both, so a value the form accepts is
// one filing can use, and "| x | y" is refused at saving, not at the first filing (spec §5).

/** "<description> | <hours> | <rate>": a description before the first "|", hours and rate optional non-negative numbers. */
export const FILEVINE_BILLING_ITEM = /^\s*([^|\s][^|]*?)\s*(?:\|\s*(\d+(?:\.\d+)?)?\s*(?:\|\s*(\d+(?:\.\d+)?)?\s*)?)?$/;

export interface FileVineBillingItem {
  description: string;
  /** Hours of the time entry. */
  quantity: number;
  /** Hourly rate; 0 leaves the timekeeper's own rate and makes the entry not billable. */
  rate: number;
}

/** Hours when the billing item names none. */
const DEFAULT_HOURS = 0.1;

/** The credential's billing item: null when unset, "unreadable" when the form is not the one above. */
export function readBillingItem(text: string | null | undefined): FileVineBillingItem | null | "unreadable" {
  if (!text?.trim()) return null;
  const match = FILEVINE_BILLING_ITEM.exec(text);
  if (!match) return "unreadable";
  const [, description = "", hours, rate] = match;
  return { description, quantity: hours ? Number(hours) : DEFAULT_HOURS, rate: rate ? Number(rate) : 0 };
}

/**
 * FileVine's regions, each with its own hosts (FileVine runs a separate Canadian environment:
 * "Production US, Production Canada" in its integration guide). The firm chooses its region by
 * its FileVine web address in the credential's subdomain field: `acme` or
 * `acme.filevineapp.com` is the US, `acme.filevineapp.ca` Canada. See docs/dms/filevine.md.
 */
export const FILEVINE_REGIONS = {
  us: { web: "filevineapp.com", identity: "identity.filevine.com", api: "api.filevineapp.com", legacyApi: "api.filevine.io" },
  ca: { web: "filevineapp.ca", identity: "identity.filevine.ca", api: "api.filevineapp.ca", legacyApi: null },
} as const;

export type FileVineRegion = keyof typeof FILEVINE_REGIONS;

/** The subdomain field as typed: a bare name, or the web address with or without https:// and a trailing path. */
export const FILEVINE_SUBDOMAIN = /^\s*(?:https?:\/\/)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.(filevineapp\.com|filevineapp\.ca))?\.?(?:[/#?].*)?\s*$/i;

/** The firm's FileVine: its region and web address; null for a subdomain that is not a FileVine address. */
export function fileVineAddress(subdomain: string | null | undefined): { region: FileVineRegion; web: string | null } | null {
  if (!subdomain?.trim()) return { region: "us", web: null };
  const match = FILEVINE_SUBDOMAIN.exec(subdomain);
  if (!match) return null;
  const name = match[1]!.toLowerCase();
  const region: FileVineRegion = match[2]?.toLowerCase() === FILEVINE_REGIONS.ca.web ? "ca" : "us";
  return { region, web: `https://${name}.${FILEVINE_REGIONS[region].web}` };
}
