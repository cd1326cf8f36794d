import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";

// Vitest's global set-up: tags the run, and at its end drops the PostgreSQL databases the run made
// (test-databases.ts). Dropping them together costs about one checkpoint for several databases;
// dropping each when its test ended cost one each, waited out by the test. Databases of an
// earlier run that was killed before its end are dropped at the next start, once its process is gone.

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's tag: names its databases and templates. */
    ecfxTestRun: string;
  }
}

export const PG_URL = process.env.ECFX_TEST_PG_URL;

/** Test databases are named `ecfx_t_…`, inside a run `ecfx_t_p<pid of its main process>r<random>_…`. */
export const TEST_DATABASE_PREFIX = "ecfx_t_";
const runOfName = /^ecfx_t_p(\d+)r[0-9a-f]+_/;

/** Several DROP DATABASE at a time: each waits for a checkpoint, and those waiting together share one. */
const DROPS_AT_ONCE = 8;

export async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Where a run keeps its SQLite templates. */
export function sqliteTemplateDir(run: string): string {
  return path.join(os.tmpdir(), `ecfx-templates-${run}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function dropDatabases(pick: (name: string) => boolean): Promise<void> {
  if (!PG_URL) return;
  const { rows } = await withAdminClient((c) =>
    c.query<{ datname: string }>("select datname from pg_database where datname like $1", [`${TEST_DATABASE_PREFIX}%`]),
  );
  const names = rows.map((r) => r.datname).filter(pick);
  const dropEach = async () => {
    for (let name = names.pop(); name; name = names.pop()) {
      await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    }
  };
  await Promise.all(Array.from({ length: DROPS_AT_ONCE }, dropEach));
}

/** One tag for the whole run: each project of the config runs this set-up, in the one main process. */
const RUN_VARIABLE = "ECFX_TEST_RUN_TAG";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = (process.env[RUN_VARIABLE] ??= `p${process.pid}r${randomBytes(3).toString("hex")}`);
  project.provide("ecfxTestRun", run);
  await dropDatabases((name) => {
    const pid = runOfName.exec(name)?.[1];
    return pid !== undefined && !alive(Number(pid));
  });
  return async () => {
    await dropDatabases((name) => name.startsWith(`${TEST_DATABASE_PREFIX}${run}_`));
    fs.rmSync(sqliteTemplateDir(run), { recursive: true, force: true });
  };
}
