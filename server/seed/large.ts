import { type Kysely, sql } from "kysely";
import { FEDERAL_COURTS } from "../jurisdictions/federal-courts";
import { normaliseCaseNumber } from "../resources/case-number";
import { SERVER_RESOURCES } from "../resources/registry";
import { documentBody } from "../resources/search-text";
import type { Database } from "../db/database";
import {
  COURT_IDS,
  CITIES,
  DEPARTMENTS,
  MATTER_TOPICS,
  PRACTICE_GROUPS,
  type Random,
  TIMEKEEPER_TITLES,
  companyName,
  docketNumber,
  opposingParty,
  personName,
  seededRandom,
  shortParty,
} from "./large-names";

// A realistic volume of firm data for load tests and benchmarks, written straight to the tables
// in big multi-row inserts. The free-text index is filled exactly as the generic repository does
// (same document body, same SQL per dialect), so searches behave as on data entered by hand.

export type SeedSize = "small" | "large";

export const SEED_SIZES: Record<SeedSize, Record<string, number>> = {
  small: { locations: 3, departments: 4, practiceGroups: 5, timekeepers: 30, clients: 20, matters: 60, jurisdictions: 8, judgesPer: 2, cases: 200 },
  large: {
    locations: 16,
    departments: 15,
    practiceGroups: 20,
    timekeepers: 2_000,
    clients: 5_000,
    matters: 20_000,
    jurisdictions: 42,
    judgesPer: 6,
    cases: 100_000,
  },
};

/** Tables the seed fills, parents first; deleting goes the other way. */
const TABLES = [
  "location",
  "department",
  "practice_group",
  "timekeeper",
  "client",
  "jurisdiction",
  "jurisdiction_ecfx",
  "judge",
  "matter",
  "court_case",
  "case_timekeeper",
] as const;
type Table = (typeof TABLES)[number];
export type Row = Record<string, unknown>;

// Tables are chosen at run time here, as in the generic repository.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;

export class SeedRefused extends Error {}

export interface SeedOptions {
  firmId: number;
  size: SeedSize;
  /** Replace the firm's existing data of these kinds instead of refusing. */
  force?: boolean;
  now?: number;
  log?: (line: string) => void;
}

export interface SeedReport {
  counts: Record<Table, number>;
  seconds: number;
}

/** The demo firm (the default one), else the oldest firm. */
export async function defaultFirmId(database: Database): Promise<number | undefined> {
  const row = await database.db.selectFrom("firm").select("id").orderBy("is_default", "desc").orderBy("id").limit(1).executeTakeFirst();
  return row?.id;
}

/** Every id the seed writes starts so, which lets --force find an earlier seed among real rows. */
export const SEED_ID_PREFIX = "5eed5eed-";
const seeded = (column: string) => sql<boolean>`${sql.ref(column)} like ${`${SEED_ID_PREFIX}%`}`;
/** Link tables have no id of their own: their rows go with the owner's. */
const ownerColumn = (table: Table) => (table === "case_timekeeper" ? "case_id" : table === "jurisdiction_ecfx" ? "jurisdiction_id" : "id");
const searchFieldsOf = (table: string) => SERVER_RESOURCES.find((r) => r.table === table && r.searchable)?.searchFields;

async function countWhere(db: AnyDb, table: Table, firmId: number, onlySeeded: boolean): Promise<number> {
  let query = db
    .selectFrom(table)
    .select(sql<number>`count(*)`.as("n"))
    .where("firm_id", "=", firmId);
  if (onlySeeded) query = query.where(seeded(ownerColumn(table)));
  return Number((await query.executeTakeFirst())?.n ?? 0);
}

async function deleteSeeded(db: AnyDb, dialect: Database["dialect"], firmId: number, table: Table): Promise<void> {
  if (dialect === "sqlite" && searchFieldsOf(table)) {
    await sql`delete from ${sql.table(`${table}_fts`)} where rowid in (select rowid from ${sql.table(table)} where firm_id = ${firmId} and ${seeded("id")})`.execute(
      db,
    );
  }
  await db
    .deleteFrom(table)
    .where("firm_id", "=", firmId)
    .where(seeded(ownerColumn(table)))
    .execute();
}

/**
 * Removes an earlier seed of the firm, children first, leaving rows entered otherwise alone.
 * SQLite: one transaction. PostgreSQL: one per table, each followed by a vacuum, because the
 * foreign-key checks of the next (parent) table scan it and would otherwise wade through its
 * dead rows once per parent row (minutes instead of seconds).
 */
async function removeEarlierSeed(database: Database, firmId: number): Promise<void> {
  const db = database.db as unknown as AnyDb;
  const order = [...TABLES].reverse();
  let current: Table = order[0]!;
  try {
    if (database.dialect === "sqlite") {
      await db.transaction().execute(async (trx) => {
        for (current of order) await deleteSeeded(trx, "sqlite", firmId, current);
      });
      return;
    }
    for (current of order) {
      await deleteSeeded(db, "postgres", firmId, current);
      await sql`vacuum ${sql.table(current)}`.execute(db);
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "23503" && code !== "SQLITE_CONSTRAINT_FOREIGNKEY") throw error;
    const kept =
      database.dialect === "sqlite" ? "nothing was removed" : "the seed's rows below it were removed; --force again finishes once those rows are gone";
    throw new SeedRefused(`Rows entered since the earlier seed refer to its ${current} rows, so it cannot be replaced (${kept}).`);
  }
}

/** Parameters per statement stay under SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_PARAMS = 30_000;

/** Inserts one multi-row statement and indexes its rows for free text like the repository. */
async function insertChunk(db: AnyDb, dialect: Database["dialect"], firmId: number, table: string, chunk: Row[]): Promise<void> {
  const fields = searchFieldsOf(table);
  const bodies = fields
    ? chunk.map((r) =>
        documentBody(
          firmId,
          fields.map((f) => r[f]),
        ),
      )
    : [];
  if (fields && dialect === "postgres") {
    await db
      .insertInto(table)
      .values(chunk.map((r, k) => ({ ...r, search_vector: sql`to_tsvector('simple', ${bodies[k]})` })))
      .execute();
    return;
  }
  await db.insertInto(table).values(chunk).execute();
  if (fields) {
    // The index is keyed by the row's rowid, which only the table knows: join on the id.
    const values = sql.join(chunk.map((r, k) => sql`(${r.id}, ${bodies[k]})`));
    await sql`insert into ${sql.table(`${table}_fts`)}(rowid, body) select t.rowid, v.column2 from (values ${values}) as v join ${sql.table(table)} as t on t.id = v.column1`.execute(
      db,
    );
  }
}

/**
 * SQLite: one transaction per table. PostgreSQL: statements on two connections at once, each
 * committing by itself, because the server's work (indexes, text vectors) then uses both cores.
 * Within a transaction the caller holds, the statements run one after the other in it.
 */
export async function insertTable(database: Database, firmId: number, table: string, rows: Row[], within?: AnyDb): Promise<void> {
  if (rows.length === 0) return;
  const db = within ?? (database.db as unknown as AnyDb);
  const perRow = Object.keys(rows[0]!).length + (searchFieldsOf(table) ? 1 : 0);
  const batch = Math.max(1, Math.min(1_000, Math.floor(MAX_PARAMS / perRow)));
  const chunks = Array.from({ length: Math.ceil(rows.length / batch) }, (_, i) => rows.slice(i * batch, (i + 1) * batch));
  if (within) {
    for (const chunk of chunks) await insertChunk(within, database.dialect, firmId, table, chunk);
    return;
  }
  if (database.dialect === "sqlite") {
    await db.transaction().execute(async (trx) => {
      for (const chunk of chunks) await insertChunk(trx, "sqlite", firmId, table, chunk);
    });
    return;
  }
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) await insertChunk(db, "postgres", firmId, table, chunks[next++]!);
  };
  await Promise.all([worker(), worker()]);
}

const DAY = 86_400_000;
const pad = (n: number, width: number) => String(n).padStart(width, "0");
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Ctx {
  random: Random;
  firmId: number;
  now: number;
}

function entity(c: Ctx, createdAt: number, extra: Row): Row {
  return {
    id: `${SEED_ID_PREFIX}${c.random.uuid().slice(SEED_ID_PREFIX.length)}`,
    firm_id: c.firmId,
    created_at: createdAt,
    updated_at: createdAt,
    reference_id: null,
    unique_key: null,
    ...extra,
  };
}

const past = (c: Ctx, maxDays: number) => c.now - c.random.int(1, maxDays) * DAY - c.random.int(0, DAY - 1);

function organisation(c: Ctx, n: Record<string, number>) {
  const named = (list: readonly string[], i: number) => (i < list.length ? list[i]! : `${list[i % list.length]} ${Math.floor(i / list.length) + 1}`);
  const locations = Array.from({ length: n.locations! }, (_, i) =>
    entity(c, past(c, 2_000), { name: `${named(CITIES, i)} Office`, unique_key: `LOC${pad(i + 1, 3)}`, reference_id: `L-${100 + i}`, storage_policy_id: null }),
  );
  const departments = Array.from({ length: n.departments! }, (_, i) =>
    entity(c, past(c, 2_000), { name: named(DEPARTMENTS, i), unique_key: `DEP${pad(i + 1, 3)}`, long_description: `${named(DEPARTMENTS, i)} department` }),
  );
  const practiceGroups = Array.from({ length: n.practiceGroups! }, (_, i) =>
    entity(c, past(c, 2_000), {
      name: named(PRACTICE_GROUPS, i),
      unique_key: `PG${pad(i + 1, 3)}`,
      reference_id: c.random.chance(0.8) ? `P-${200 + i}` : null,
    }),
  );
  return { locations, departments, practiceGroups };
}

function timekeepers(c: Ctx, count: number, org: ReturnType<typeof organisation>): Row[] {
  const emails = new Map<string, number>();
  return Array.from({ length: count }, (_, i) => {
    const { first, last } = personName(c.random);
    const base = `${first}.${last}`.toLowerCase();
    const seen = emails.get(base) ?? 0;
    emails.set(base, seen + 1);
    const title = c.random.pick(TIMEKEEPER_TITLES);
    const attorney = ["Partner", "Senior Associate", "Associate", "Counsel"].includes(title);
    return entity(c, past(c, 2_500), {
      unique_key: `TK${pad(i + 1, 5)}`,
      reference_id: `E${100_000 + i}`,
      full_name: `${first} ${last}`,
      sort_name: `${last}, ${first}`,
      email: `${base}${seen ? seen + 1 : ""}@demolaw.test`,
      title,
      status: c.random.chance(0.93) ? "active" : "inactive",
      is_attorney: attorney ? 1 : 0,
      billable: attorney || title === "Paralegal" ? 1 : 0,
      location_id: c.random.pick(org.locations).id,
      department_id: c.random.pick(org.departments).id,
      practice_group_id: c.random.pick(org.practiceGroups).id,
      timekeeper_group_id: null,
      storage_policy_id: null,
      additional_receipt_emails: "[]",
    });
  });
}

function clients(c: Ctx, count: number, attorneys: Row[]): Row[] {
  return Array.from({ length: count }, (_, i) => {
    const person = c.random.chance(0.12) ? personName(c.random) : undefined;
    const opened = past(c, 3_000);
    return entity(c, opened, {
      unique_key: String(10_000 + i),
      name: person ? `${person.first} ${person.last}` : companyName(c.random),
      status: c.random.chance(0.85) ? "active" : c.random.chance(0.7) ? "closed" : "pending",
      open_date: isoDay(opened),
      originating_timekeeper_id: c.random.pick(attorneys).id,
      storage_policy_id: null,
    });
  });
}

function matters(c: Ctx, count: number, clientRows: Row[], attorneys: Row[], org: ReturnType<typeof organisation>): Row[] {
  const perClient = new Map<unknown, number>();
  return Array.from({ length: count }, (_, i) => {
    // Every client gets one matter; the rest go to a skewed few, as big clients have many.
    const client = i < clientRows.length ? clientRows[i]! : clientRows[Math.floor(clientRows.length * c.random.next() ** 2)]!;
    const k = (perClient.get(client.id) ?? 0) + 1;
    perClient.set(client.id, k);
    const topic = c.random.pick(MATTER_TOPICS);
    return entity(c, Math.max(Number(client.created_at), past(c, 2_500)), {
      unique_key: `${client.unique_key}-${pad(k, 4)}`,
      name: c.random.chance(0.5) ? `${topic} (${opposingParty(c.random)})` : topic,
      description: "",
      status: c.random.chance(0.8) ? "open" : c.random.chance(0.8) ? "closed" : "pending",
      client_id: client.id,
      location_id: c.random.pick(org.locations).id,
      practice_group_id: c.random.pick(org.practiceGroups).id,
      area_of_law_id: null,
      originating_timekeeper_id: client.originating_timekeeper_id,
      billing_timekeeper_id: c.random.pick(attorneys).id,
      supervising_timekeeper_id: c.random.pick(attorneys).id,
    });
  });
}

function courts(c: Ctx, count: number, judgesPer: number) {
  const known = new Map(FEDERAL_COURTS.map((court) => [court.id, court]));
  const chosen = COURT_IDS.slice(0, count).map((id) => known.get(id)!);
  const jurisdictions = chosen.map((court) => entity(c, past(c, 2_000), { name: court.name, level: court.level, court: court.id }));
  const links = jurisdictions.map((j) => ({ jurisdiction_id: j.id, ecfx_jurisdiction_id: j.court, firm_id: c.firmId }));
  const judges = jurisdictions.flatMap((j, ji) =>
    Array.from({ length: j.level === "APPEALS" ? 3 : judgesPer }, (_, k) => {
      const { first, last } = personName(c.random);
      const initial = String.fromCharCode(65 + c.random.int(0, 25));
      const mapped = c.random.chance(0.7);
      return entity(c, past(c, 2_000), { name: `${first} ${initial}. ${last}`, jurisdiction_id: j.id, reference_id: mapped ? `JDG-${ji}-${k}` : null });
    }),
  );
  return { jurisdictions, links, judges };
}

function cases(c: Ctx, count: number, matterRows: Row[], clientById: Map<unknown, Row>, court: ReturnType<typeof courts>, attorneys: Row[]) {
  const judgesOf = new Map<unknown, Row[]>();
  for (const j of court.judges) judgesOf.set(j.jurisdiction_id, [...(judgesOf.get(j.jurisdiction_id) ?? []), j]);
  const sequence = new Map<string, number>();
  const nowYear = new Date(c.now).getUTCFullYear();
  const rows: Row[] = [];
  const links: Row[] = [];
  for (let i = 0; i < count; i++) {
    // Skewed towards the first (busiest) courts and the latest years.
    const jurisdiction = court.jurisdictions[Math.floor(court.jurisdictions.length * c.random.next() ** 1.6)]!;
    const year = nowYear - Math.floor(7 * c.random.next() ** 2);
    const key = `${String(jurisdiction.court)}/${year}`;
    const seq = (sequence.get(key) ?? 0) + c.random.int(1, 3);
    sequence.set(key, seq);
    const caseNumber = docketNumber(String(jurisdiction.level), year, seq, c.random);
    const matter = matterRows[Math.floor(matterRows.length * c.random.next())]!;
    const party = shortParty(String(clientById.get(matter.client_id)!.name));
    const name =
      jurisdiction.level === "BANKRUPTCY"
        ? `In re ${party}`
        : caseNumber.includes("-cr-")
          ? `United States v. ${party}`
          : c.random.chance(0.45)
            ? `${party} v. ${opposingParty(c.random)}`
            : `${opposingParty(c.random)} v. ${party}`;
    const yearStart = Date.UTC(year, 0, 1);
    const filed = Math.min(c.now - DAY, yearStart + Math.floor(c.random.next() * 365 * DAY));
    const created = Math.min(c.now, filed + c.random.int(0, 2 * DAY));
    const status = c.random.chance(0.7) ? "open" : c.random.chance(0.85) ? "closed" : c.random.chance(0.5) ? "stayed" : "appealed";
    const judges = judgesOf.get(jurisdiction.id) ?? [];
    const row = entity(c, created, {
      name,
      case_number: caseNumber,
      case_number_normalized: normaliseCaseNumber(caseNumber),
      description: "",
      caption: "",
      status,
      matter_id: matter.id,
      jurisdiction_id: jurisdiction.id,
      judge_id: judges.length && c.random.chance(0.85) ? c.random.pick(judges).id : null,
      open_date: isoDay(filed),
      close_date: status === "closed" ? isoDay(Math.min(c.now, filed + c.random.int(30, 900) * DAY)) : null,
      filed_date: isoDay(filed),
      storage_policy_id: null,
    });
    rows.push(row);
    const team = new Set<unknown>();
    const size = c.random.int(1, 3);
    while (team.size < size) team.add(c.random.pick(attorneys).id);
    for (const tk of team) links.push({ case_id: row.id, timekeeper_id: tk, firm_id: c.firmId });
  }
  return { rows, links };
}

/** Generates the whole data set in memory: the same firm and size always give the same rows. */
export function generate(firmId: number, size: SeedSize, now: number): Record<Table, Row[]> {
  const n = SEED_SIZES[size];
  const c: Ctx = { random: seededRandom(firmId * 7_919 + (size === "large" ? 1 : 2)), firmId, now };
  const org = organisation(c, n);
  const tks = timekeepers(c, n.timekeepers!, org);
  const attorneys = tks.filter((t) => t.is_attorney === 1);
  const clientRows = clients(c, n.clients!, attorneys);
  const matterRows = matters(c, n.matters!, clientRows, attorneys, org);
  const court = courts(c, Math.min(n.jurisdictions!, COURT_IDS.length), n.judgesPer!);
  const caseData = cases(c, n.cases!, matterRows, new Map(clientRows.map((r) => [r.id, r])), court, attorneys);
  return {
    location: org.locations,
    department: org.departments,
    practice_group: org.practiceGroups,
    timekeeper: tks,
    client: clientRows,
    // level and court only steer generation; they are not columns.
    jurisdiction: court.jurisdictions.map(({ level: _level, court: _court, ...row }) => row),
    jurisdiction_ecfx: court.links,
    judge: court.judges,
    matter: matterRows,
    court_case: caseData.rows,
    case_timekeeper: caseData.links,
  };
}

/**
 * Fills a firm with generated data. A firm that already has cases is refused unless forced;
 * forcing replaces an earlier seed and keeps every other row.
 */
export async function seedLarge(database: Database, options: SeedOptions): Promise<SeedReport> {
  const db = database.db as unknown as AnyDb;
  const log = options.log ?? (() => {});
  const started = performance.now();
  const firm = await database.db.selectFrom("firm").select(["id", "name"]).where("id", "=", options.firmId).executeTakeFirst();
  if (!firm) throw new SeedRefused(`There is no firm ${options.firmId}.`);
  const cases = await countWhere(db, "court_case", options.firmId, false);
  if (cases > 0 && !options.force) {
    throw new SeedRefused(
      `Firm ${firm.id} (${firm.name}) already has ${cases} cases; use --force to add the generated data anyway (an earlier seed is replaced).`,
    );
  }
  // Rows of an earlier (or interrupted) seed are ours to replace.
  let earlier = 0;
  for (const table of TABLES) earlier += await countWhere(db, table, options.firmId, true);
  if (earlier > 0) {
    log(`removing ${earlier} rows of an earlier seed`);
    await removeEarlierSeed(database, options.firmId);
  }
  const data = generate(options.firmId, options.size, options.now ?? Date.now());
  log(`generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const counts = {} as Record<Table, number>;
  for (const table of TABLES) {
    const t = performance.now();
    try {
      await insertTable(database, options.firmId, table, data[table]);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== "23505" && code !== "SQLITE_CONSTRAINT_UNIQUE") throw error;
      // Keys the seed uses (LOC001, TK00001, client 10000, ...) taken by rows it did not write.
      throw new SeedRefused(`The firm already has ${table} rows with the keys the seed uses (${(error as Error).message}); seed another firm with --firm.`);
    }
    counts[table] = data[table].length;
    log(`${table}: ${data[table].length} rows in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  // What autovacuum would do shortly after such a load anyway: statistics for the planner and a
  // visibility map, without which counting a firm's rows cannot stay in the index.
  if (database.dialect === "postgres") for (const table of TABLES) await sql`vacuum analyze ${sql.table(table)}`.execute(db);
  return { counts, seconds: (performance.now() - started) / 1000 };
}
