// Deterministic fake data for the large seed: a seeded PRNG and the vocabularies that make the
// rows look like a litigation firm's (people, companies, docket numbers).

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  int(min: number, maxInclusive: number): number;
  pick<T>(list: readonly T[]): T;
  chance(p: number): boolean;
  /** A version-4-shaped UUID drawn from this generator, so ids repeat with the seed. */
  uuid(): string;
}

/** mulberry32: tiny, fast and good enough for test data; the same seed gives the same rows. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = (n: number) =>
    Math.floor(next() * 16 ** n)
      .toString(16)
      .padStart(n, "0");
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (list) => list[Math.floor(next() * list.length)]!,
    chance: (p) => next() < p,
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + Math.floor(next() * 4)).toString(16)}${hex(3)}-${hex(6)}${hex(6)}`,
  };
}

export const FIRST_NAMES = [
  "James",
  "Mary",
  "Robert",
  "Patricia",
  "John",
  "Jennifer",
  "Michael",
  "Linda",
  "David",
  "Elizabeth",
  "William",
  "Barbara",
  "Richard",
  "Susan",
  "Joseph",
  "Jessica",
  "Thomas",
  "Sarah",
  "Charles",
  "Karen",
  "Daniel",
  "Lisa",
  "Matthew",
  "Nancy",
  "Anthony",
  "Betty",
  "Mark",
  "Margaret",
  "Steven",
  "Sandra",
  "Paul",
  "Ashley",
  "Andrew",
  "Emily",
  "Joshua",
  "Donna",
  "Kenneth",
  "Michelle",
  "Kevin",
  "Carol",
  "Brian",
  "Amanda",
  "George",
  "Melissa",
  "Timothy",
  "Deborah",
  "Ronald",
  "Stephanie",
  "Jason",
  "Rebecca",
  "Priya",
  "Wei",
  "Ahmed",
  "Sofia",
  "Mateo",
  "Aisha",
  "Hiroshi",
  "Olga",
  "Diego",
  "Fatima",
] as const;

export const LAST_NAMES = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
  "Hernandez",
  "Lopez",
  "Gonzalez",
  "Wilson",
  "Anderson",
  "Thomas",
  "Taylor",
  "Moore",
  "Jackson",
  "Martin",
  "Lee",
  "Perez",
  "Thompson",
  "White",
  "Harris",
  "Sanchez",
  "Clark",
  "Ramirez",
  "Lewis",
  "Robinson",
  "Walker",
  "Young",
  "Allen",
  "King",
  "Wright",
  "Scott",
  "Torres",
  "Nguyen",
  "Hill",
  "Flores",
  "Green",
  "Adams",
  "Nelson",
  "Baker",
  "Hall",
  "Rivera",
  "Campbell",
  "Mitchell",
  "Carter",
  "Roberts",
  "Okafor",
  "Kowalski",
  "Nakamura",
  "Schmidt",
  "Rossi",
  "Dubois",
  "Haddad",
  "Petrov",
  "Chen",
  "Patel",
] as const;

const COMPANY_WORDS = [
  "Acme",
  "Apex",
  "Summit",
  "Pioneer",
  "Atlas",
  "Beacon",
  "Cascade",
  "Granite",
  "Harbor",
  "Keystone",
  "Liberty",
  "Meridian",
  "Northstar",
  "Orion",
  "Pinnacle",
  "Redwood",
  "Sterling",
  "Titan",
  "Vanguard",
  "Zenith",
  "Bluewater",
  "Crescent",
  "Evergreen",
  "Frontier",
  "Ironbridge",
  "Lakeshore",
  "Silverline",
  "Tidewater",
  "Westfield",
  "Everest",
] as const;
const COMPANY_KINDS = [
  "Holdings",
  "Industries",
  "Logistics",
  "Pharmaceuticals",
  "Capital",
  "Energy",
  "Systems",
  "Foods",
  "Medical",
  "Insurance",
  "Properties",
  "Technologies",
  "Manufacturing",
  "Financial",
  "Airlines",
  "Motors",
  "Retail",
  "Biotech",
  "Media",
  "Partners",
] as const;
const COMPANY_SUFFIXES = ["Inc.", "LLC", "Corp.", "Co.", "L.P.", "Ltd."] as const;
const PUBLIC_PARTIES = ["United States", "State of New York", "City of Chicago", "SEC", "Federal Trade Commission", "State of California"] as const;

export const MATTER_TOPICS = [
  "Patent Infringement",
  "Breach of Contract",
  "Securities Litigation",
  "Employment Dispute",
  "Trademark Opposition",
  "Antitrust Investigation",
  "Product Liability",
  "Insurance Coverage",
  "Chapter 11 Restructuring",
  "Class Action Defense",
  "Trade Secrets",
  "Environmental Compliance",
  "Real Estate Dispute",
  "White Collar Defense",
  "Regulatory Enforcement",
] as const;

export const TIMEKEEPER_TITLES = ["Partner", "Senior Associate", "Associate", "Counsel", "Paralegal", "Legal Assistant", "Docketing Clerk"] as const;

export const CITIES = [
  "New York",
  "Washington",
  "Chicago",
  "Los Angeles",
  "San Francisco",
  "Houston",
  "Dallas",
  "Boston",
  "Philadelphia",
  "Miami",
  "Atlanta",
  "Seattle",
  "Denver",
  "Wilmington",
  "Newark",
  "Phoenix",
] as const;

export const DEPARTMENTS = [
  "Litigation",
  "Corporate",
  "Intellectual Property",
  "Bankruptcy",
  "Labor and Employment",
  "Tax",
  "Real Estate",
  "Antitrust",
  "Environmental",
  "Insurance",
  "Regulatory",
  "White Collar",
  "Appellate",
  "Trusts and Estates",
  "Docketing",
] as const;

export const PRACTICE_GROUPS = [
  "Commercial Litigation",
  "Patent Litigation",
  "Securities Enforcement",
  "Mass Torts",
  "Financial Restructuring",
  "Mergers and Acquisitions",
  "Employment Litigation",
  "Trademark and Copyright",
  "Government Investigations",
  "Class Actions",
  "Healthcare",
  "Energy",
  "Life Sciences",
  "Privacy and Cybersecurity",
  "Construction",
  "Insurance Recovery",
  "Product Liability",
  "Appellate Practice",
  "International Arbitration",
  "Pro Bono",
] as const;

/** Busy federal courts first, so most of the docket lands where real firms file. */
export const COURT_IDS = [
  "nysd",
  "nyed",
  "dcd",
  "ded",
  "njd",
  "cacd",
  "cand",
  "ilnd",
  "txsd",
  "txnd",
  "txed",
  "mad",
  "flsd",
  "flmd",
  "paed",
  "gand",
  "vaed",
  "wawd",
  "mdd",
  "cod",
  "azd",
  "mnd",
  "moed",
  "ohnd",
  "mied",
  "casd",
  "nvd",
  "ctd",
  "laed",
  "tnmd",
  "nysb",
  "deb",
  "njb",
  "txsb",
  "ilnb",
  "cacb",
  "ca2",
  "ca3",
  "ca9",
  "cafc",
  "cadc",
  "ca5",
] as const;

export function personName(random: Random): { first: string; last: string } {
  return { first: random.pick(FIRST_NAMES), last: random.pick(LAST_NAMES) };
}

export function companyName(random: Random): string {
  const words = random.chance(0.3) ? `${random.pick(COMPANY_WORDS)} ${random.pick(COMPANY_WORDS)}` : random.pick(COMPANY_WORDS);
  return `${words} ${random.pick(COMPANY_KINDS)} ${random.pick(COMPANY_SUFFIXES)}`;
}

/** A party as it appears in a case name: a company without its suffix, a person, or a public body. */
export function opposingParty(random: Random): string {
  const roll = random.next();
  if (roll < 0.45) return `${random.pick(LAST_NAMES)} ${random.pick(COMPANY_KINDS)}`;
  if (roll < 0.9) return random.pick(LAST_NAMES);
  return random.pick(PUBLIC_PARTIES);
}

/** "Acme Holdings Inc." → "Acme Holdings": case names drop the corporate suffix. */
export function shortParty(clientName: string): string {
  return clientName.replace(/,?\s+(Inc\.|LLC|Corp\.|Co\.|L\.P\.|Ltd\.)$/, "");
}

/**
 * A docket number in the court's own style: district "1:24-cv-01234", bankruptcy "24-10234",
 * appeals "24-1234". `seq` must be unique per court and year for the number to be.
 */
export function docketNumber(level: string, year: number, seq: number, random: Random): string {
  const yy = String(year % 100).padStart(2, "0");
  if (level === "BANKRUPTCY") return `${yy}-${String(10_000 + seq).padStart(5, "0")}`;
  if (level === "APPEALS") return `${yy}-${String(seq).padStart(4, "0")}`;
  const roll = random.next();
  const type = roll < 0.82 ? "cv" : roll < 0.96 ? "cr" : "mc";
  return `${random.int(1, 4)}:${yy}-${type}-${String(seq).padStart(5, "0")}`;
}
