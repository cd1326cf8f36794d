import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { type Database, migrateToLatest, openDatabase } from "../../server/db/database";
import { seedDemo } from "../../server/seed/demo";
import { seedReferenceData } from "../../server/seed/reference-data";
import { PG_URL, TEST_DATABASE_PREFIX, sqliteTemplateDir, withAdminClient } from "./test-run";

// The databases of one test run. Migrating a fresh database takes seconds on PostgreSQL, and
// creating the demo users hashes five passwords on purpose slowly; the run does both once, into
// a template per backend, and every server copies one (CREATE DATABASE … TEMPLATE, a file copy
// for SQLite). The product still migrates and seeds at every start: on a copy, that finds the
// work done, as on any restart. A DROP DATABASE waits for a checkpoint; the run's databases are
// dropped together when it ends (tests/api/test-run.ts), not one by one while tests wait.

/** The demo users' password in the API tests. */
export const DEMO_PASSWORD = "Api-Test-Passw0rd!";

/** Migrated with the court list; or with the demo firms and users as well (password DEMO_PASSWORD). */
export type TemplateKind = "migrated" | "demo";

/** The run's tag, or none outside a Vitest run with test-run.ts as its global set-up. */
function testRun(): string | undefined {
  try {
    return inject("ecfxTestRun") || undefined;
  } catch {
    return undefined;
  }
}

function urlOf(name: string): string {
  const url = new URL(PG_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function prepare(database: Database, kind: TemplateKind): Promise<void> {
  try {
    if (kind === "migrated") {
      await migrateToLatest(database);
      await seedReferenceData(database);
    } else {
      await seedDemo(database, DEMO_PASSWORD, Date.now());
    }
  } finally {
    await database.close();
  }
}

const pgTemplates = new Map<TemplateKind, Promise<string>>();

/** A template of this kind is built once per process; every later ask waits for the same build. */
function builtOnce(templates: Map<TemplateKind, Promise<string>>, kind: TemplateKind, build: () => Promise<string>): Promise<string> {
  let template = templates.get(kind);
  if (!template) templates.set(kind, (template = build()));
  return template;
}
const sqliteTemplates = new Map<TemplateKind, Promise<string>>();

/**
 * The run's PostgreSQL template of this kind, built by whichever test process asks first (under
 * an advisory lock, so the others wait for it and find it). Answers its name.
 */
function pgTemplate(run: string, kind: TemplateKind): Promise<string> {
  return builtOnce(pgTemplates, kind, () => buildPgTemplate(run, kind));
}

async function buildPgTemplate(run: string, kind: TemplateKind): Promise<string> {
  const name = `${TEST_DATABASE_PREFIX}${run}_template_${kind}`;
  const source = kind === "demo" ? await pgTemplate(run, "migrated") : "template1";
  await withAdminClient(async (client) => {
    await client.query("select pg_advisory_lock(hashtext($1))", [name]);
    try {
      const found = await client.query("select 1 from pg_database where datname = $1", [name]);
      if (found.rowCount) return;
      const building = `${name}_${randomBytes(3).toString("hex")}`;
      await client.query(`CREATE DATABASE ${building} TEMPLATE ${source}`);
      await prepare(openDatabase(urlOf(building)), kind);
      await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } finally {
      await client.query("select pg_advisory_unlock(hashtext($1))", [name]);
    }
  });
  return name;
}

/** The run's SQLite template file of this kind; two processes asking at once may each build one, and either copy serves. */
function sqliteTemplate(run: string, kind: TemplateKind): Promise<string> {
  return builtOnce(sqliteTemplates, kind, () => buildSqliteTemplate(run, kind));
}

async function buildSqliteTemplate(run: string, kind: TemplateKind): Promise<string> {
  const file = path.join(sqliteTemplateDir(run), `${kind}.sqlite`);
  if (fs.existsSync(file)) return file;
  const building = `${file}.${process.pid}-${randomBytes(3).toString("hex")}`;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  if (kind === "demo") fs.copyFileSync(await sqliteTemplate(run, "migrated"), building);
  // Closing the only connection folds the write-ahead log into the file: the file alone is the database.
  await prepare(openDatabase(`sqlite:${building}`), kind);
  fs.renameSync(building, file);
  return file;
}

/** A database for one test's servers: empty, or a copy of the run's template of `kind`. */
export interface TestDatabase {
  url: string;
  /** Done with it: dropped now outside a run, with the run's others at its end inside one. */
  drop(): Promise<void>;
}

export async function createPgDatabase(template?: TemplateKind): Promise<TestDatabase> {
  if (!PG_URL) throw new Error("ECFX_TEST_PG_URL is not set");
  const run = testRun();
  const source = template && run ? await pgTemplate(run, template) : undefined;
  const name = `${TEST_DATABASE_PREFIX}${run ? `${run}_` : ""}${randomBytes(6).toString("hex")}`;
  await withAdminClient((c) => c.query(`CREATE DATABASE ${name}${source ? ` TEMPLATE ${source}` : ""}`));
  return {
    url: urlOf(name),
    drop: run ? async () => undefined : () => withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** A SQLite database file in `dataDir` (where the product would make its own), copied from the run's template when there is a run. */
export async function createSqliteDatabase(dataDir: string, template: TemplateKind): Promise<string> {
  const file = path.join(dataDir, "ecfx.sqlite");
  const run = testRun();
  if (run) fs.copyFileSync(await sqliteTemplate(run, template), file);
  return `sqlite:${file}`;
}
