import { boundedCache } from "../../app/common/bounded-cache";

// ECFX jurisdiction reference list: every US federal district, bankruptcy and
// appellate court plus the national courts that run CM/ECF. Ids are PACER's
// court ids (the subdomain of the court's CM/ECF server), which is also what
// court notices carry in their links.
//
// State courts are ECFX jurisdictions too, one per state ("state-tx": the
// courts of Texas), for the e-filing providers' notices; see
// docs/decisions/033-state-e-filing-notices.md.

export type CourtLevel = "DISTRICT" | "BANKRUPTCY" | "APPEALS" | "NONE" | "STATE";
export type CourtSystem = "federal" | "state";

export interface Court {
  id: string;
  /** Official name, e.g. "U.S. District Court for the Middle District of Alabama", "District Court of Guam". */
  name: string;
  level: CourtLevel;
  system: CourtSystem;
  /** Two-letter state or territory code; null for courts that are not tied to one state. */
  state: string | null;
  country: "US";
  /** Territory the court covers as printed in notices ("Middle District of Alabama", "Ninth Circuit"); null for national courts. */
  region: string | null;
  /** Court of appeals that hears appeals from this court; null for appellate and national courts. */
  appeals_court: string | null;
}

// [id prefix, state code, state name, circuit, divisions]. An empty division
// list means the state is a single district ("District of Alaska").
type StateRow = readonly [string, string, string, string, readonly (readonly [string, string])[]];

const N = ["n", "Northern"] as const;
const M = ["m", "Middle"] as const;
const S = ["s", "Southern"] as const;
const E = ["e", "Eastern"] as const;
const W = ["w", "Western"] as const;
const C = ["c", "Central"] as const;

const STATES: readonly StateRow[] = [
  ["al", "AL", "Alabama", "ca11", [N, M, S]],
  ["ak", "AK", "Alaska", "ca9", []],
  ["az", "AZ", "Arizona", "ca9", []],
  ["ar", "AR", "Arkansas", "ca8", [E, W]],
  ["ca", "CA", "California", "ca9", [C, E, N, S]],
  ["co", "CO", "Colorado", "ca10", []],
  ["ct", "CT", "Connecticut", "ca2", []],
  ["de", "DE", "Delaware", "ca3", []],
  ["dc", "DC", "Columbia", "cadc", []],
  ["fl", "FL", "Florida", "ca11", [M, N, S]],
  ["ga", "GA", "Georgia", "ca11", [M, N, S]],
  ["hi", "HI", "Hawaii", "ca9", []],
  ["id", "ID", "Idaho", "ca9", []],
  ["il", "IL", "Illinois", "ca7", [C, N, S]],
  ["in", "IN", "Indiana", "ca7", [N, S]],
  ["ia", "IA", "Iowa", "ca8", [N, S]],
  ["ks", "KS", "Kansas", "ca10", []],
  ["ky", "KY", "Kentucky", "ca6", [E, W]],
  ["la", "LA", "Louisiana", "ca5", [E, M, W]],
  ["me", "ME", "Maine", "ca1", []],
  ["md", "MD", "Maryland", "ca4", []],
  ["ma", "MA", "Massachusetts", "ca1", []],
  ["mi", "MI", "Michigan", "ca6", [E, W]],
  ["mn", "MN", "Minnesota", "ca8", []],
  ["ms", "MS", "Mississippi", "ca5", [N, S]],
  ["mo", "MO", "Missouri", "ca8", [E, W]],
  ["mt", "MT", "Montana", "ca9", []],
  ["ne", "NE", "Nebraska", "ca8", []],
  ["nv", "NV", "Nevada", "ca9", []],
  ["nh", "NH", "New Hampshire", "ca1", []],
  ["nj", "NJ", "New Jersey", "ca3", []],
  ["nm", "NM", "New Mexico", "ca10", []],
  ["ny", "NY", "New York", "ca2", [E, N, S, W]],
  ["nc", "NC", "North Carolina", "ca4", [E, M, W]],
  ["nd", "ND", "North Dakota", "ca8", []],
  ["oh", "OH", "Ohio", "ca6", [N, S]],
  ["ok", "OK", "Oklahoma", "ca10", [E, N, W]],
  ["or", "OR", "Oregon", "ca9", []],
  ["pa", "PA", "Pennsylvania", "ca3", [E, M, W]],
  ["ri", "RI", "Rhode Island", "ca1", []],
  ["sc", "SC", "South Carolina", "ca4", []],
  ["sd", "SD", "South Dakota", "ca8", []],
  ["tn", "TN", "Tennessee", "ca6", [E, M, W]],
  ["tx", "TX", "Texas", "ca5", [E, N, S, W]],
  ["ut", "UT", "Utah", "ca10", []],
  ["vt", "VT", "Vermont", "ca2", []],
  ["va", "VA", "Virginia", "ca4", [E, W]],
  ["wa", "WA", "Washington", "ca9", [E, W]],
  ["wv", "WV", "West Virginia", "ca4", [N, S]],
  ["wi", "WI", "Wisconsin", "ca7", [E, W]],
  ["wy", "WY", "Wyoming", "ca10", []],
  ["pr", "PR", "Puerto Rico", "ca1", []],
  ["gu", "GU", "Guam", "ca9", []],
  ["nmi", "MP", "Northern Mariana Islands", "ca9", []],
  ["vi", "VI", "Virgin Islands", "ca3", []],
];

function regionOf(prefix: string, stateName: string, division: string | null): string {
  if (division) return `${division} District of ${stateName}`;
  if (prefix === "dc") return "District of Columbia";
  if (prefix === "nmi") return "Northern Mariana Islands";
  if (prefix === "vi") return "District of the Virgin Islands";
  return `District of ${stateName}`;
}

// The territorial courts are Article IV courts with their own names; their
// bankruptcy matters are heard by a division of the same court.
const OFFICIAL_NAMES: Readonly<Record<string, string>> = {
  gud: "District Court of Guam",
  gub: "District Court of Guam (Bankruptcy Division)",
  nmid: "District Court for the Northern Mariana Islands",
  nmib: "District Court for the Northern Mariana Islands (Bankruptcy Division)",
  vid: "District Court of the Virgin Islands",
  vib: "District Court of the Virgin Islands (Bankruptcy Division)",
};

function trialCourts(): Court[] {
  const out: Court[] = [];
  for (const level of ["DISTRICT", "BANKRUPTCY"] as const) {
    const suffix = level === "DISTRICT" ? "d" : "b";
    const kind = level === "DISTRICT" ? "District" : "Bankruptcy";
    for (const [prefix, state, stateName, circuit, divisions] of STATES) {
      const parts: (readonly [string, string] | null)[] = divisions.length ? [...divisions] : [null];
      for (const division of parts) {
        const region = regionOf(prefix, stateName, division ? division[1] : null);
        const id = `${prefix}${division ? division[0] : ""}${suffix}`;
        out.push({
          id,
          name: OFFICIAL_NAMES[id] ?? `U.S. ${kind} Court for the ${region}`,
          level,
          system: "federal",
          state,
          country: "US",
          region,
          appeals_court: circuit,
        });
      }
    }
  }
  return out;
}

const ORDINALS = ["First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth", "Eleventh"];

function appellateCourts(): Court[] {
  const base = { level: "APPEALS" as const, system: "federal" as const, state: null, country: "US" as const, appeals_court: null };
  const out: Court[] = ORDINALS.map((ordinal, i) => ({
    ...base,
    id: `ca${i + 1}`,
    name: `U.S. Court of Appeals for the ${ordinal} Circuit`,
    region: `${ordinal} Circuit`,
  }));
  out.push({ ...base, id: "cadc", name: "U.S. Court of Appeals for the District of Columbia Circuit", region: "District of Columbia Circuit" });
  out.push({ ...base, id: "cafc", name: "U.S. Court of Appeals for the Federal Circuit", region: "Federal Circuit" });
  return out;
}

/** The Supreme Court's jurisdiction id (CourtListener's id for it). */
export const SUPREME_COURT = "scotus";

function nationalCourts(): Court[] {
  const base = { level: "NONE" as const, system: "federal" as const, state: null, country: "US" as const, region: null };
  return [
    { ...base, id: "jpml", name: "United States Judicial Panel on Multidistrict Litigation", appeals_court: null },
    { ...base, id: "cit", name: "U.S. Court of International Trade", appeals_court: "cafc" },
    { ...base, id: "cofc", name: "U.S. Court of Federal Claims", appeals_court: "cafc" },
    // Not a CM/ECF court: it mails its own docket notifications and publishes documents on its site.
    { ...base, id: SUPREME_COURT, name: "Supreme Court of the United States", appeals_court: null },
  ];
}

export const FEDERAL_COURTS: readonly Court[] = Object.freeze([...trialCourts(), ...appellateCourts(), ...nationalCourts()]);

const BY_ID = new Map<string, Court>(FEDERAL_COURTS.map((c) => [c.id, c]));

/** The courts of each state and territory as one ECFX jurisdiction, "state-" and the state code. */
export const STATE_COURTS: readonly Court[] = Object.freeze(
  STATES.map(([, state, stateName]) => {
    const region = state === "DC" ? "District of Columbia" : stateName;
    return {
      id: `state-${state.toLowerCase()}`,
      name: `${region} state courts`,
      level: "STATE" as const,
      system: "state" as const,
      state,
      country: "US" as const,
      region,
      appeals_court: null,
    };
  }),
);

/** ECFX jurisdiction id of a state's courts from its two-letter code or its name; undefined otherwise. */
export function stateCourtId(codeOrName: string | null | undefined): string | undefined {
  if (typeof codeOrName !== "string") return undefined;
  const key = codeOrName.trim().toLowerCase();
  return STATE_COURTS.find((c) => c.state?.toLowerCase() === key || c.region?.toLowerCase() === key)?.id;
}

for (const court of STATE_COURTS) BY_ID.set(court.id, court);

/** Whether the court runs CM/ECF: its docket feed and free-look documents can be asked for. */
export function runsCmEcf(court: Court | undefined): boolean {
  return court?.system === "federal" && court.id !== SUPREME_COURT;
}

/** A federal court or a state's courts, by ECFX jurisdiction id. */
export function findCourt(id: string | null | undefined): Court | undefined {
  if (typeof id !== "string") return undefined;
  return BY_ID.get(id.trim().toLowerCase());
}

// Host or mail-domain labels that are not court ids. The Southern District of
// Texas sends its mail from txs.uscourts.gov while its CM/ECF server is
// ecf.txsd.uscourts.gov.
const HOST_ALIASES: Readonly<Record<string, string>> = { txs: "txsd" };

const COURT_SUFFIXES = [".uscourts.gov", ".fedcourts.us"];
// The Supreme Court's web site and document hosts (www., file.) and its mail domain (mail.sc-us.gov).
const SUPREME_COURT_DOMAIN = /(?:^|\.)(?:supremecourt\.gov|sc-us\.gov)$/;

/**
 * Court id for a CM/ECF or ACMS host. Accepts a bare host
 * ("ecf.almd.uscourts.gov"), a URL, or a mail address / domain
 * ("ACMS@ca9.fedcourts.us", "em4346.ca9.fedcourts.us"). ACMS document
 * servers are named "caN-showdoc.azurewebsites.us"; the Supreme Court's hosts
 * (supremecourt.gov, sc-us.gov) give "scotus". Returns undefined for
 * hosts that do not belong to a known court (e.g. ao.uscourts.gov).
 */
export function courtIdFromHost(hostname: string | null | undefined): string | undefined {
  if (typeof hostname !== "string") return undefined;
  // Notices repeat the same few hosts in every link; the answer is kept (bounded).
  return hostCache.keep(hostname, () => lookUpHost(hostname) ?? null) ?? undefined;
}

const hostCache = boundedCache<string | null>({ max: 5000 });

function lookUpHost(hostname: string): string | undefined {
  let host = hostname.trim().toLowerCase().slice(0, 512);
  if (host.startsWith("mailto:")) host = host.slice(7);
  const scheme = host.indexOf("://");
  if (scheme >= 0) host = host.slice(scheme + 3);
  host = host.split(/[/?#]/, 1)[0] ?? "";
  const at = host.lastIndexOf("@");
  if (at >= 0) host = host.slice(at + 1);
  host = host
    .replace(/[>\s]{1,512}$/, "")
    .replace(/:\d{1,5}$/, "")
    .replace(/\.$/, "");
  if (!host) return undefined;

  if (SUPREME_COURT_DOMAIN.test(host)) return SUPREME_COURT;
  const showdoc = /^([a-z0-9]+)-showdoc\.azurewebsites\.(?:us|net)$/.exec(host);
  if (showdoc) return findCourt(showdoc[1])?.id;

  const suffix = COURT_SUFFIXES.find((s) => host.endsWith(s));
  if (!suffix) return undefined;
  const labels = host.slice(0, -suffix.length).split(".");
  // The label next to the suffix is the court in "ecf.almd.uscourts.gov" and
  // in mail sub-domains such as "em4346.ca9.fedcourts.us".
  for (let i = labels.length - 1; i >= 0; i--) {
    const label = (labels[i] ?? "").replace(/^ecf-/, "").replace(/-(?:ecf|showdoc)$/, "");
    const id = findCourt(label)?.id ?? HOST_ALIASES[label];
    if (id) return id;
  }
  return undefined;
}

/**
 * District court of a code printed beside a member case's number in
 * multidistrict litigation notices: "CAN" (Northern District of California)
 * is "cand", "DC" is "dcd". Undefined for codes that name no district court.
 */
export function courtIdFromDistrictCode(code: string | null | undefined): string | undefined {
  if (typeof code !== "string" || !/^[A-Za-z]{2,4}$/.test(code)) return undefined;
  const court = findCourt(`${code.toLowerCase()}d`);
  return court?.level === "DISTRICT" ? court.id : undefined;
}

const ORDINAL_WORDS: Record<string, number> = Object.fromEntries(ORDINALS.map((o, i) => [o.toLowerCase(), i + 1]));

function squash(text: string): string {
  return text.toLowerCase().replace(/\./g, "").replace(/\s+/g, " ").trim();
}

/**
 * Court named in a notice heading such as "U.S. Bankruptcy Court / District of
 * New Jersey" or "United States Court of Appeals for the Ninth Circuit". Used
 * only when no link or header identifies the court.
 */
export function findCourtByName(heading: string): Court | undefined {
  const text = squash(heading.slice(0, 4000));
  if (/court of appeals|\bcircuit\b/.test(text)) {
    if (/federal circuit/.test(text)) return BY_ID.get("cafc");
    if (/(?:dc|district of columbia) circuit/.test(text)) return BY_ID.get("cadc");
    const word = /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh) circuit\b/.exec(text);
    if (word?.[1]) return BY_ID.get(`ca${ORDINAL_WORDS[word[1]]}`);
    const num = /\b(\d{1,2})(?:st|nd|rd|th) circuit\b/.exec(text);
    if (num?.[1]) return BY_ID.get(`ca${Number(num[1])}`);
    return undefined;
  }
  if (/judicial panel on multidistrict litigation/.test(text)) return BY_ID.get("jpml");
  if (/court of international trade/.test(text)) return BY_ID.get("cit");
  if (/court of federal claims/.test(text)) return BY_ID.get("cofc");
  const level: CourtLevel | null = /bankruptcy court/.test(text) ? "BANKRUPTCY" : /district court/.test(text) ? "DISTRICT" : null;
  if (!level) return undefined;
  let best: Court | undefined;
  for (const court of FEDERAL_COURTS) {
    if (court.level !== level || !court.region) continue;
    const region = squash(court.region);
    if (text.includes(region) && (!best || region.length > (best.region ?? "").length)) best = court;
  }
  return best;
}
