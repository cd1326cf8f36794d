import { createHash } from "node:crypto";
import { type Insertable, sql } from "kysely";
import type { ServerContext } from "../context";
import type { DigestRunTable, DmsRecordTable, DocumentTable, EnvelopeTable, EventLogTable, InboxItemTable, NotificationTable } from "../db/schema";
import { NOT_YET_PROCESSED } from "../inbox/receive";
import { message } from "../lib/messages";
import { type ParsedEmail, PARSER_VERSION, parseNoticeEmail } from "../notices";
import { normaliseCaseNumber } from "../resources/case-number";
import { ANNOUNCEMENT, DEMO_ENTRIES, type DemoEntry, type DemoFiling, nef, parsedNef } from "./demo-notices";
import { type AnyDb, type Row, insertTable } from "./large";
import { MATTER_TOPICS, type Random, companyName, opposingParty, seededRandom, shortParty } from "./large-names";
import { tinyPdf } from "./tiny-pdf";
import { targetForCredential } from "../dms/dms-targets";
import { logger } from "../../app/common/logger";

// A year of the demo firm's court mail, written straight to the tables in the shape the pipeline
// leaves behind (received, parsed, matched, fetched, filed, notified), so that tables, filters,
// paging and the dashboard have something to show. Deterministic for a given firm and start day.

const DAY = 86_400_000;
const MINUTE = 60_000;
/** Every id written here starts so, which tells a firm that already has its demo year. */
export const DEMO_YEAR_PREFIX = "de3a0000-";
export const DEMO_YEAR_CASES = 320;

/** Entries of a busy litigation practice; the first five are the first start's. */
const YEAR_ENTRIES: DemoEntry[] = [
  ...DEMO_ENTRIES,
  { short: "Memorandum Opinion and Order", text: "MEMORANDUM OPINION AND ORDER re Motion to Dismiss. Signed by Judge {judge} on {date}." },
  { short: "Motion for Summary Judgment", text: "MOTION for Summary Judgment by {party}. (Attachments: # 1 Statement of Facts, # 2 Declaration)" },
  { short: "Letter", text: "LETTER addressed to Judge {judge} from {attorney} regarding discovery dispute." },
  { short: "Minute Entry", text: "Minute Entry for proceedings held before Judge {judge}: Status Conference held on {date}." },
  { short: "Reply", text: "REPLY in Support of Motion to Dismiss filed by {party}." },
];
const SEALED_ENTRY: DemoEntry = { short: "Sealed Document", text: "SEALED DOCUMENT placed in vault by {party}." };

type CourtPlan = { court: string; share: number; number: (yy: number, r: Random) => string };
const COURT_PLAN: CourtPlan[] = [
  { court: "nysd", share: 0.35, number: (yy, r) => `1:${yy}-cv-${String(r.int(1000, 11999)).padStart(5, "0")}` },
  { court: "cand", share: 0.25, number: (yy, r) => `${r.pick([3, 4, 5])}:${yy}-cv-${String(r.int(100, 9999)).padStart(5, "0")}` },
  { court: "txed", share: 0.2, number: (yy, r) => `${r.pick([2, 4, 6])}:${yy}-cv-${String(r.int(10, 1999)).padStart(5, "0")}` },
  { court: "deb", share: 0.12, number: (yy, r) => `${yy}-${r.int(10000, 13999)}` },
  { court: "ca9", share: 0.08, number: (yy, r) => `${yy}-${r.int(1000, 9999)}` },
];

interface Firm {
  id: number;
  keepers: { id: string; email: string; groupId: string | null }[];
  groups: Map<string, { cadence: string; method: string; timeZone: string; deliveryTime: string }>;
  clients: { id: string; name: string }[];
  courts: Map<string, string>;
  policy: { id: string; name: string; credential: string } | null;
  originator: string;
}

interface DemoCase {
  id: string;
  court: string;
  number: string;
  name: string;
  client: string;
  matter: string;
  keepers: string[];
}

type Tables = {
  client: Row[];
  matter: Row[];
  court_case: Row[];
  case_timekeeper: Row[];
  inbox_item: Insertable<InboxItemTable>[];
  envelope: Insertable<EnvelopeTable>[];
  document: Insertable<DocumentTable>[];
  dms_record: Insertable<DmsRecordTable>[];
  notification: Insertable<NotificationTable>[];
  digest_run: Insertable<DigestRunTable>[];
  event_log: Insertable<EventLogTable>[];
};

export interface DemoYearReport {
  cases: number;
  items: number;
  seconds: number;
}

/** Whether this firm already has its demo year (or a part of it). */
async function hasDemoYear(ctx: ServerContext, firmId: number): Promise<boolean> {
  const row = await ctx.database.db
    .selectFrom("court_case")
    .select("id")
    .where("firm_id", "=", firmId)
    .where(sql<boolean>`id like ${`${DEMO_YEAR_PREFIX}%`}`)
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

async function loadFirm(ctx: ServerContext, firmId: number): Promise<Firm> {
  const db = ctx.database.db;
  const [keepers, groups, clients, courts, firm] = await Promise.all([
    db.selectFrom("timekeeper").select(["id", "email", "timekeeper_group_id"]).where("firm_id", "=", firmId).orderBy("unique_key").execute(),
    db
      .selectFrom("timekeeper_group")
      .select(["id", "notification_cadence", "delivery_method", "time_zone", "daily_cadence_delivery_time"])
      .where("firm_id", "=", firmId)
      .execute(),
    db.selectFrom("client").select(["id", "name"]).where("firm_id", "=", firmId).orderBy("unique_key").execute(),
    db.selectFrom("jurisdiction_ecfx").select(["jurisdiction_id", "ecfx_jurisdiction_id"]).where("firm_id", "=", firmId).execute(),
    db
      .selectFrom("firm")
      .leftJoin("storage_policy", "storage_policy.id", "firm.storage_policy_id")
      .select(["storage_policy.id as policy_id", "storage_policy.name as policy_name", "storage_policy.dms_credential_id as credential"])
      .where("firm.id", "=", firmId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    id: firmId,
    keepers: keepers.map((k) => ({ id: k.id, email: k.email, groupId: k.timekeeper_group_id })),
    groups: new Map(
      groups.map((g) => [
        g.id,
        { cadence: g.notification_cadence, method: g.delivery_method, timeZone: g.time_zone, deliveryTime: g.daily_cadence_delivery_time ?? "07:00" },
      ]),
    ),
    clients,
    courts: new Map(courts.map((c) => [c.ecfx_jurisdiction_id, c.jurisdiction_id])),
    policy: firm.policy_id && firm.policy_name && firm.credential ? { id: firm.policy_id, name: firm.policy_name, credential: firm.credential } : null,
    originator: keepers[0]?.id ?? "",
  };
}

/** The firm's book of business: more clients, their matters, and the cases the year's notices are about. */
function book(random: Random, firm: Firm, now: number, idOf: () => string, t: Tables): DemoCase[] {
  const stamp = (ms: number) => ({ firm_id: firm.id, created_at: ms, updated_at: ms, reference_id: null });
  const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const clients = [...firm.clients];
  for (let i = 0; i < 26; i++) {
    const opened = now - random.int(400, 3000) * DAY;
    const row = { id: idOf(), ...stamp(opened), unique_key: `C-${1101 + i}`, name: companyName(random), status: "active", open_date: isoDay(opened) };
    t.client.push({ ...row, originating_timekeeper_id: firm.originator, storage_policy_id: null });
    clients.push({ id: row.id, name: row.name });
  }
  const matters: { id: string; client: { id: string; name: string } }[] = [];
  for (let i = 0; i < 150; i++) {
    // Every client has a matter; the big ones have many.
    const client = i < clients.length ? clients[i]! : clients[Math.floor(clients.length * random.next() ** 2)]!;
    const id = idOf();
    const topic = random.pick(MATTER_TOPICS);
    t.matter.push({
      id,
      ...stamp(now - random.int(380, 2500) * DAY),
      unique_key: `M-${2101 + i}`,
      name: random.chance(0.5) ? `${topic} (${opposingParty(random)})` : topic,
      description: "",
      status: "open",
      client_id: client.id,
      location_id: null,
      practice_group_id: null,
      area_of_law_id: null,
      originating_timekeeper_id: firm.originator,
      billing_timekeeper_id: random.pick(firm.keepers).id,
      supervising_timekeeper_id: random.pick(firm.keepers).id,
      storage_policy_id: null,
    });
    matters.push({ id, client });
  }
  const numbers = new Set<string>();
  const cases: DemoCase[] = [];
  const yearNow = new Date(now).getUTCFullYear() % 100;
  while (cases.length < DEMO_YEAR_CASES) {
    let pick = random.next();
    const plan = COURT_PLAN.find((p) => (pick -= p.share) < 0) ?? COURT_PLAN[0]!;
    const jurisdiction = firm.courts.get(plan.court);
    const number = plan.number(yearNow - Math.floor(6 * random.next() ** 2), random);
    if (!jurisdiction || numbers.has(`${plan.court} ${number}`)) continue;
    numbers.add(`${plan.court} ${number}`);
    const matter = random.pick(matters);
    const party = shortParty(matter.client.name);
    const name = plan.court === "deb" ? `In re ${party}` : random.chance(0.5) ? `${party} v. ${opposingParty(random)}` : `${opposingParty(random)} v. ${party}`;
    const filed = now - random.int(60, 1500) * DAY;
    const id = idOf();
    t.court_case.push({
      id,
      ...stamp(filed + random.int(0, 3) * DAY),
      unique_key: null,
      name,
      case_number: number,
      case_number_normalized: normaliseCaseNumber(number),
      description: "",
      caption: "",
      status: "open",
      matter_id: matter.id,
      jurisdiction_id: jurisdiction,
      judge_id: null,
      open_date: isoDay(filed),
      close_date: null,
      filed_date: isoDay(filed),
      storage_policy_id: null,
    });
    const keepers = new Set<string>();
    const size = random.int(1, 3);
    while (keepers.size < Math.min(size, firm.keepers.length)) keepers.add(random.pick(firm.keepers).id);
    for (const keeper of keepers) t.case_timekeeper.push({ case_id: id, timekeeper_id: keeper, firm_id: firm.id });
    cases.push({
      id,
      court: plan.court,
      number,
      name,
      client: matter.client.name,
      matter: String(t.matter.find((m) => m.id === matter.id)!.name),
      keepers: [...keepers],
    });
  }
  return cases;
}

/** Local hours of the firm's court mail, weighted: a morning and an afternoon peak, some at night. */
const HOUR_WEIGHTS = [0, 0, 0, 0, 0, 0, 0, 1, 3, 6, 9, 10, 7, 6, 8, 10, 10, 8, 5, 3, 2, 2, 1, 1];
const HOUR_TOTAL = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);
/** New York is 5 hours behind UTC in winter, 4 in summer; near enough for spreading notices. */
const easternOffsetHours = (ms: number) => {
  const month = new Date(ms).getUTCMonth();
  return month >= 2 && month <= 9 ? 4 : 5;
};

function localHour(random: Random): number {
  let pick = random.next() * HOUR_TOTAL;
  return Math.max(
    0,
    HOUR_WEIGHTS.findIndex((w) => (pick -= w) < 0),
  );
}

/** When the year's notices arrive: weekdays in business hours, quiet weekends and holidays, bursts on busy cases. */
function arrivals(random: Random, now: number): { at: number; burst: boolean }[] {
  const times: { at: number; burst: boolean }[] = [];
  const today = Math.floor(now / DAY) * DAY;
  for (let back = 365; back >= 0; back--) {
    const day = today - back * DAY;
    const date = new Date(day);
    const weekday = date.getUTCDay() % 6 !== 0;
    const month = date.getUTCMonth();
    const holiday = (month === 11 && date.getUTCDate() >= 22) || (month === 0 && date.getUTCDate() <= 2);
    const season = holiday ? 0.3 : month === 7 ? 0.7 : 1;
    const growth = 0.85 + (0.3 * (365 - back)) / 365;
    const count = Math.round((weekday ? 9 : 0.5) * season * growth * (0.5 + random.next()));
    const at = (hour: number) => day + (hour + easternOffsetHours(day)) * 3_600_000 + random.int(0, 59) * MINUTE + random.int(0, 59_999);
    for (let i = 0; i < count; i++) times.push({ at: at(localHour(random)), burst: false });
    // A big filing (a motion with its exhibits, an order on a docket of many parties) comes as a burst.
    if (weekday && random.chance(0.06)) {
      const start = at(random.int(10, 17));
      const size = random.int(8, 30);
      for (let i = 0; i < size; i++) times.push({ at: start + i * random.int(5_000, 180_000), burst: true });
    }
  }
  // A Date header has whole seconds.
  return times
    .map((t) => ({ ...t, at: Math.floor(t.at / 1000) * 1000 }))
    .filter((t) => t.at < now - 10 * MINUTE)
    .sort((a, b) => a.at - b.at);
}

/** A notice whose raw text differs from the template only in its Date and Message-ID headers. */
function withHeaders(raw: string, at: number, messageId: string): string {
  return raw.replace(/^Date: .*$/m, `Date: ${new Date(at).toUTCString().replace("GMT", "+0000")}`).replace(/^Message-ID: .*$/m, `Message-ID: <${messageId}>`);
}

/** The layouts the pipeline does not file, read once by the real parser. */
async function oddMessages() {
  const notice = nef({
    court: "nysd",
    number: "1:24-cv-02231",
    caseName: "Harbor Point Capital LLC v. Meridian Trust Co.",
    entry: DEMO_ENTRIES[0]!,
    n: 0,
    docId: "035100000001",
  });
  // The docket table lost in a forward: the markers are there, the docket is not.
  const unreadable = notice.raw.replace(/<table[\s\S]*<\/table>/, "").replace(/^Subject: .*$/m, "Subject: Activity in Case");
  return {
    announcement: { raw: ANNOUNCEMENT.raw, from: ANNOUNCEMENT.from, parsed: await parseNoticeEmail(ANNOUNCEMENT.raw) },
    unreadable: { raw: unreadable, from: notice.from, parsed: await parseNoticeEmail(unreadable) },
  };
}

const snippetOf = (parsed: ParsedEmail) => {
  if (parsed.kind !== "notice") return "";
  const docket = parsed.notice.dockets[0];
  const entry = docket?.docket_entries[0];
  return [docket?.docket_number_full, docket?.case_name, entry?.short_description ?? entry?.description].filter(Boolean).join(" · ").slice(0, 300);
};

/** "2026-11-23" in a time zone, and that day's delivery time there as an instant (to the minute, near enough for the demo). */
function localDate(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(ms));
}

/** Starts the demo year once the demo firm is new and the server answers; the first sign-in does not wait for it. */
export function addDemoYearInBackground(ctx: ServerContext, log: (line: string) => void = (line) => logger("demo").info(line)): void {
  void (async () => {
    const demo = await ctx.database.db.selectFrom("firm").select("id").where("is_default", "=", 1).executeTakeFirstOrThrow();
    const report = await seedDemoYear(ctx, demo.id);
    if (report) log(`Demo year: ${report.cases} cases and ${report.items} notices added in ${report.seconds.toFixed(1)} s`);
  })().catch((error: unknown) => logger("demo").error({ err: error }, "the demo year could not be added"));
}

/** Generates the year in memory: the same firm, cases and start day always give the same rows. */
async function generate(firm: Firm, now: number): Promise<{ tables: Tables; files: Map<string, { bytes: Buffer; at: number }>; writes: DmsWrite[] }> {
  const random = seededRandom(firm.id * 104_729 + Math.floor(now / DAY));
  const idOf = () => `${DEMO_YEAR_PREFIX}${random.uuid().slice(DEMO_YEAR_PREFIX.length)}`;
  const t: Tables = {
    client: [],
    matter: [],
    court_case: [],
    case_timekeeper: [],
    inbox_item: [],
    envelope: [],
    document: [],
    dms_record: [],
    notification: [],
    digest_run: [],
    event_log: [],
  };
  const files = new Map<string, { bytes: Buffer; at: number }>();
  const cases = book(random, firm, now, idOf, t);
  const noticed = cases.filter((c) => c.court !== "ca9");
  const odd = await oddMessages();
  const digestRuns = new Map<string, string>();
  const writes: DmsWrite[] = [];
  let n = 100_000;
  let busy: DemoCase = noticed[0]!;

  for (const { at, burst } of arrivals(random, now)) {
    n++;
    const itemId = idOf();
    let clock = at;
    const later = (ms: number) => (clock += ms);
    const log = (event: string, detail = "", level: EventLevel = "INFO") =>
      t.event_log.push({ id: idOf(), firm_id: firm.id, inbox_item_id: itemId, level, event, detail, created_at: later(random.int(50, 900)) });
    // Bursts stay on one case; otherwise the busiest cases get most of the mail.
    if (!burst) busy = noticed[Math.floor(noticed.length * random.next() ** 2.2)]!;
    const roll = random.next();
    const earlier =
      t.inbox_item.length > 50 && roll < 0.025 ? random.pick(t.inbox_item.slice(-40).filter((i) => i.parent_id === null && i.case_id)) : undefined;
    const kase = roll < 0.04 && roll >= 0.025 ? undefined : busy;
    const unknownNumber = `1:${String((new Date(at).getUTCFullYear() % 100) - 1)}-cv-${String(20000 + (n % 9000)).padStart(5, "0")}`;
    const filing: DemoFiling = {
      court: kase?.court ?? "nysd",
      number: kase?.number ?? unknownNumber,
      caseName: kase?.name ?? `${opposingParty(random)} v. ${opposingParty(random)}`,
      entry: random.chance(0.015) ? SEALED_ENTRY : random.pick(YEAR_ENTRIES),
      n,
      docId: `0351${String(n).padStart(7, "0")}1`,
      day: new Date(at),
    };
    const kind = earlier ? "duplicate" : roll < 0.06 ? "announcement" : roll < 0.067 ? "unreadable" : roll < 0.07 ? "empty" : kase ? "filing" : "unknown case";
    const source =
      kind === "announcement"
        ? { ...odd.announcement, raw: withHeaders(odd.announcement.raw, at, `announcement-${n}@nysd.uscourts.gov`) }
        : kind === "unreadable"
          ? { ...odd.unreadable, raw: withHeaders(odd.unreadable.raw, at, `forward-${n}@demo-law.test`) }
          : kind === "empty"
            ? { raw: "\r\n \r\n", from: "scanner@demo-law.test", parsed: { kind: "malformed", reason: "empty input" } as ParsedEmail }
            : { ...nef(filing), parsed: parsedNef(filing) };
    const original = earlier ? t.inbox_item.find((i) => i.id === earlier.id)! : undefined;
    const raw = original ? Buffer.from(original.raw_content as Buffer) : Buffer.from(source.raw, "utf8");
    const parsed = original ? (JSON.parse(String(original.parsed)) as ParsedEmail) : source.parsed;
    const messageId = /^Message-ID: (.*)$/m.exec(raw.toString("utf8"))?.[1]?.trim() ?? null;
    const subject = /^Subject: (.*)$/m.exec(raw.toString("utf8"))?.[1]?.trim() ?? "";
    const item: Insertable<InboxItemTable> = {
      id: itemId,
      firm_id: firm.id,
      created_at: at,
      updated_at: at,
      status: "Succeeded",
      action_required: "NONE",
      disposition: "No Disposition",
      disposition_text: "",
      reason: "",
      source: "SMTP",
      source_type: "EMAIL",
      raw_content: raw,
      raw_size: raw.length,
      message_id: messageId,
      sender: original?.sender ?? source.from,
      recipients: JSON.stringify(["notices@demo.ecfx.test"]),
      subject,
      snippet: snippetOf(parsed),
      parsed: JSON.stringify(parsed),
      parser_version: PARSER_VERSION,
      // Read from the raw message the first time someone opens it, as for messages kept before bodies were.
      message_body: null,
      ...NOT_YET_PROCESSED,
    };
    t.inbox_item.push(item);
    log("received", message("pipeline:events.received", { source: "SMTP", bytes: raw.length }));
    log("started");
    const finish = (change: Partial<Insertable<InboxItemTable>>, event: string, detail = "", level: EventLevel = "INFO") => {
      log(event, detail, level);
      Object.assign(item, change, { updated_at: clock });
    };
    if (parsed.kind === "malformed") {
      finish({ status: "Failed", action_required: "USER", reason: parsed.reason }, "malformed", parsed.reason, "ERROR");
      continue;
    }
    if (parsed.kind === "unrecognised") {
      finish({ status: "Action Required", action_required: "USER", reason: parsed.reason }, "unrecognised", parsed.reason, "WARNING");
      continue;
    }
    if (parsed.kind === "not_a_notice") {
      finish({ disposition: "Ignored", disposition_text: parsed.reason }, "not a notice", parsed.reason);
      continue;
    }
    log(
      "parsed",
      message("pipeline:events.parsed", {
        type: parsed.notice.notice_type,
        court: parsed.notice.court_id ?? message("pipeline:events.unknownCourt"),
        count: parsed.notice.dockets.length,
      }),
    );
    if (original) {
      finish(
        { disposition: "Ignored", duplicate_of_id: original.id, disposition_text: message("pipeline:duplicateMessage") },
        "duplicate message",
        original.id,
      );
      continue;
    }
    if (!kase) {
      const reason = message("pipeline:caseNotFound", { docket: filing.number, court: filing.court });
      finish({ status: "Action Required", action_required: "USER", reason }, "case not found", reason, "WARNING");
      continue;
    }
    recordFiling(random, firm, t, files, idOf, {
      item,
      kase,
      filing,
      parsed,
      later,
      log,
      finish,
      digestRuns,
      now,
      writes,
      fileOf: (sha) => files.get(sha)!.bytes,
    });
  }
  return { tables: t, files, writes };
}

type EventLevel = "INFO" | "WARNING" | "ERROR";

interface FilingStep {
  item: Insertable<InboxItemTable>;
  kase: DemoCase;
  filing: DemoFiling;
  parsed: ParsedEmail;
  later: (ms: number) => number;
  log: (event: string, detail?: string, level?: EventLevel) => void;
  finish: (change: Partial<Insertable<InboxItemTable>>, event: string, detail?: string, level?: EventLevel) => void;
  digestRuns: Map<string, string>;
  now: number;
  writes: DmsWrite[];
  fileOf: (sha: string) => Buffer;
}

/** A file the DMS holds for a generated record: written through the firm's target before the rows. */
interface DmsWrite {
  recordId: string;
  folder: string[];
  name: string;
  bytes: Buffer;
}

const FILING_SINCE_DAYS = 45;

/** A notice on a known case: envelope, document fetched (or not), filed, and its people told. */
function recordFiling(random: Random, firm: Firm, t: Tables, files: Map<string, { bytes: Buffer; at: number }>, idOf: () => string, step: FilingStep): void {
  const { item, kase, parsed, later, log, finish } = step;
  if (parsed.kind !== "notice") return;
  const entry = parsed.notice.dockets[0]!.docket_entries[0]!;
  const main = entry.documents[0]!;
  const envelopeId = idOf();
  const at = later(random.int(200, 2000));
  t.envelope.push({
    id: envelopeId,
    firm_id: firm.id,
    inbox_item_id: item.id,
    case_id: kase.id,
    ecfx_jurisdiction_id: kase.court,
    name: entry.short_description || kase.name,
    date: entry.date_filed,
    court_envelope_id: entry.pacer_seq_no ?? entry.document_number,
    filed_by: entry.filed_by ?? "",
    service_contacts: JSON.stringify(parsed.notice.email_recipients),
    docket_text: entry.description ?? "",
    created_at: at,
    updated_at: at,
  });
  const host = `ecf.${kase.court}.uscourts.gov`;
  const fate = entry.sealed ? "sealed" : random.chance(0.025) ? "restricted" : random.chance(0.015) ? "failed" : "fetched";
  let fileId: string | null = null;
  if (fate === "fetched") {
    const bytes = tinyPdf(entry.short_description ?? "Document", [
      `${kase.number}  ${kase.name}`,
      `Document ${entry.document_number ?? ""} filed ${entry.date_filed ?? ""} by ${entry.filed_by ?? ""}`,
      ...(entry.description ?? "").match(/.{1,90}(\s|$)/g)!.map((line) => line.trim()),
    ]);
    fileId = createHash("sha256").update(bytes).digest("hex");
    if (!files.has(fileId)) {
      files.set(fileId, { bytes, at: later(random.int(500, 4000)) });
    }
  }
  const documentId = idOf();
  const fetchError =
    fate === "sealed"
      ? message("pipeline:sealed")
      : fate === "restricted"
        ? message("pipeline:courtSignIn")
        : fate === "failed"
          ? `${host} answered 503`
          : null;
  const document: Insertable<DocumentTable> = {
    id: documentId,
    firm_id: firm.id,
    envelope_id: envelopeId,
    processed_from_id: item.id,
    number: main.number,
    name: main.description || message("pipeline:mainDocument"),
    date: entry.date_filed,
    sealed: fate === "sealed" ? 1 : 0,
    court_document_id: main.pacer_doc_id,
    url: main.url,
    file_id: fileId,
    fetch_status: fate === "sealed" ? "restricted" : fate,
    fetch_error: fetchError,
    uploaded: 0,
    stamped_by_court: 0,
    dms_status: "canceled",
    created_at: at,
  };
  t.document.push(document);
  const toFetch = fate === "sealed" ? 0 : 1;
  const matched = message("pipeline:events.matched", { case: kase.id, envelope: envelopeId, count: toFetch });
  const caseAndItem = { disposition: "Processed" as const, case_id: kase.id };
  if (toFetch) log("matched", matched);
  if (fate === "failed") {
    finish(
      { ...caseAndItem, status: "Action Required", action_required: "ECFX", reason: fetchError! },
      "documents fetched",
      "0 fetched, 0 restricted, 1 failed",
      "WARNING",
    );
  } else if (toFetch) {
    const counts = fate === "fetched" ? "1 fetched, 0 restricted, 0 failed" : "0 fetched, 1 restricted, 0 failed";
    finish(caseAndItem, "documents fetched", counts);
  } else finish(caseAndItem, "matched", matched);

  // The firm files its court mail in its DMS since FILING_SINCE days; what came before was only fetched.
  if (firm.policy && item.created_at >= step.now - FILING_SINCE_DAYS * DAY) fileNotice(random, firm.policy, t, idOf, step, fileId ? document : null);
  else {
    item.dms_status = "canceled";
    log("storage canceled", message("storage:events.noPolicy"));
  }
  notify(random, firm, t, idOf, step);
}

/** The firm's storage policy files the fetched document and the notice as a PDF; now and then the file store refuses. */
function fileNotice(
  random: Random,
  policy: NonNullable<Firm["policy"]>,
  t: Tables,
  idOf: () => string,
  step: FilingStep,
  document: Insertable<DocumentTable> | null,
): void {
  const { item, kase, filing, later, log } = step;
  const failed = random.chance(0.02);
  const attempts = failed ? 5 : 1;
  log("storage started", message("storage:events.started", { policy: policy.name, level: message("storage:levels.firm"), attempt: attempts }));
  const folder = [kase.client, kase.matter, kase.number];
  const date = filing.day!.toISOString().slice(0, 10);
  const errors: string[] = [];
  for (const what of document ? (["document", "notice"] as const) : (["notice"] as const)) {
    const label = what === "document" ? String(document!.name) : "Notice";
    const location = `${folder.join("/")}/${date} ${label}.pdf`;
    const created = later(random.int(300, 3000));
    const error = failed ? `EACCES: permission denied, open '${location}'` : null;
    const recordId = idOf();
    const bytes =
      what === "document"
        ? step.fileOf(String(document!.file_id))
        : tinyPdf(`Notice: ${filing.entry.short}`, [`${kase.number}  ${kase.name}`, `Received ${date}`]);
    if (!failed) step.writes.push({ recordId, folder, name: `${date} ${label}`, bytes });
    t.dms_record.push({
      id: recordId,
      firm_id: item.firm_id,
      inbox_item_id: item.id,
      document_id: what === "document" ? String(document!.id) : null,
      storage_policy_id: policy.id,
      what,
      status: failed ? "failed" : "succeeded",
      location: failed ? null : location,
      intended_location: failed ? null : location,
      intended_path: null,
      content_hash: null,
      root: null,
      error,
      attempts,
      created_at: created,
      updated_at: failed ? created + 15 * MINUTE : created,
    });
    if (error) errors.push(`${label}: ${error}`);
    else log("stored", message("storage:events.stored", { what: label, policy: policy.name, location }));
  }
  if (document) document.dms_status = failed ? "failed" : "succeeded";
  item.dms_status = failed ? "failed" : "succeeded";
  if (failed) log("storage failed", errors.join("; "), "ERROR");
  else log("storage succeeded");
}

/** One notification per assigned timekeeper in a preference group: real-time mail at once, the digest the next morning. */
function notify(random: Random, firm: Firm, t: Tables, idOf: () => string, step: FilingStep): void {
  const { item, kase, later, log, digestRuns } = step;
  let sent = 0;
  let digest = 0;
  for (const keeperId of kase.keepers) {
    const keeper = firm.keepers.find((k) => k.id === keeperId);
    const groupId = keeper?.groupId;
    const group = groupId ? firm.groups.get(groupId) : undefined;
    if (!groupId || !group) continue;
    const created = later(random.int(100, 1500));
    const realtime = group.cadence === "REALTIME";
    let runId: string | null = null;
    let sentAt = created + random.int(1_000, 60_000);
    if (!realtime) {
      // The first delivery time of the group's day after the notice: that morning's digest run.
      const [hours, minutes] = group.deliveryTime.split(":").map(Number);
      let day = localDate(created, group.timeZone);
      const offsetHours = group.timeZone === "America/Los_Angeles" ? easternOffsetHours(created) + 3 : easternOffsetHours(created);
      const runAt = (d: string) => Date.parse(`${d}T00:00:00Z`) + ((hours ?? 7) + offsetHours) * 3_600_000 + (minutes ?? 0) * MINUTE;
      if (runAt(day) <= created) day = localDate(created + DAY, group.timeZone);
      sentAt = runAt(day) + random.int(5_000, 90_000);
      const key = `${groupId} ${day}`;
      runId = digestRuns.get(key) ?? null;
      // A digest not yet due is still waiting for its run: the scheduler claims that day, not the demo.
      if (!runId && runAt(day) <= step.now) {
        runId = idOf();
        digestRuns.set(key, runId);
        t.digest_run.push({
          id: runId,
          firm_id: firm.id,
          timekeeper_group_id: groupId,
          local_date: day,
          kind: "digest",
          status: "sent",
          created_at: runAt(day),
        });
      }
    }
    t.notification.push({
      id: idOf(),
      firm_id: firm.id,
      inbox_item_id: String(item.id),
      timekeeper_id: keeperId,
      timekeeper_group_id: groupId,
      email: keeper?.email ?? "",
      cadence: realtime ? "realtime" : "digest",
      delivery_method: group.method,
      status: realtime || runId ? "sent" : "pending",
      reason: "",
      outbound_mail_id: null,
      digest_run_id: runId,
      created_at: created,
      sent_at: realtime || runId ? sentAt : null,
    });
    if (realtime) sent++;
    else digest++;
  }
  if (sent + digest > 0)
    log(
      "notified",
      [
        sent ? message("pipeline:events.notifications.sent", { count: sent }) : "",
        digest ? message("pipeline:events.notifications.digestPending", { count: digest }) : "",
      ]
        .filter(Boolean)
        .join(", "),
    );
}

/**
 * The scheduler runs while the year is written and may have claimed a day's digest already (one
 * run per group, day and kind): its run is kept and the year's notifications of that day join it.
 */
async function adoptClaimedRuns(db: AnyDb, firmId: number, tables: Tables): Promise<void> {
  const claimed = await db.selectFrom("digest_run").select(["id", "timekeeper_group_id", "local_date", "kind"]).where("firm_id", "=", firmId).execute();
  const existing = new Map(claimed.map((r) => [`${r.timekeeper_group_id} ${r.local_date} ${r.kind}`, r.id]));
  const adopted = new Map<string, string>();
  tables.digest_run = tables.digest_run.filter((run) => {
    const id = existing.get(`${run.timekeeper_group_id} ${run.local_date} ${run.kind}`);
    if (id) adopted.set(run.id!, id);
    return !id;
  });
  for (const n of tables.notification) {
    if (n.digest_run_id && adopted.has(n.digest_run_id)) n.digest_run_id = adopted.get(n.digest_run_id)!;
  }
}

/**
 * Gives the demo firm its year: a few hundred cases and a few thousand notices with everything
 * the pipeline records about them. Only once per firm; files first, then one transaction, so a
 * row that names a file always finds it.
 */
export async function seedDemoYear(ctx: ServerContext, firmId: number, now = ctx.clock.now()): Promise<DemoYearReport | null> {
  const started = performance.now();
  if (await hasDemoYear(ctx, firmId)) return null;
  const firm = await loadFirm(ctx, firmId);
  const { tables, files, writes } = await generate(firm, now);
  // Stored as fetched documents are: the file under its hash, then its row.
  for (const [sha, { bytes, at }] of files) {
    if ((await ctx.blobs.put(bytes, "application/pdf", at)) !== sha) throw new Error(`blob ${sha} was stored under another hash`);
  }
  if (firm.policy && writes.length) {
    const { target } = await targetForCredential(ctx, firmId, firm.policy.credential);
    const byId = new Map(tables.dms_record.map((r) => [r.id, r]));
    for (const write of writes) {
      const request = { folder: write.folder, name: write.name, extension: "pdf", bytes: write.bytes, contentType: "application/pdf", properties: {} };
      const intended = await target.intend(request, write.recordId);
      const stored = await target.write(request, intended);
      Object.assign(byId.get(write.recordId)!, {
        location: stored.location,
        root: stored.root ?? null,
        intended_location: intended.location,
        intended_path: intended.path ?? null,
        content_hash: intended.contentHash,
      });
    }
  }
  const order = [
    "client",
    "matter",
    "court_case",
    "case_timekeeper",
    "inbox_item",
    "envelope",
    "document",
    "dms_record",
    "digest_run",
    "notification",
    "event_log",
  ] as const;
  await ctx.database.db.transaction().execute(async (trx) => {
    await adoptClaimedRuns(trx as unknown as AnyDb, firmId, tables);
    for (const table of order) await insertTable(ctx.database, firmId, table, tables[table] as Row[], trx as unknown as AnyDb);
  });
  return { cases: tables.court_case.length, items: tables.inbox_item.length, seconds: (performance.now() - started) / 1000 };
}
