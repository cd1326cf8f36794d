// The firm's record as jobs and API requests read it (several times per notice), with no logo and
// with logos of 200 KB and 1 MB (the largest the console takes), on SQLite and on PostgreSQL:
// CPU per read, and its ratio to the read without a logo measured in the same run.
// Run: npx tsx tests/bench/firm-read.bench.ts [reads]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Database, migrateToLatest, openDatabase } from "../../server/db/database";
import { findFirm, saveFirmLogo } from "../../server/firm/firm-repository";
import { noisyPng } from "../api/png";
import { findPostgres, prepareData } from "./product";
import { machine, machineLine } from "./report";

const READS = Number(process.argv[2] ?? 2_000);
const LOGO_SIZES = [0, 200_000, 1_000_000];

async function cpuPerRead(database: Database, firmId: number): Promise<number> {
  // Warmed as much as measured: the first size's figure must not carry the compilation of the read.
  for (let i = 0; i < READS; i++) await findFirm(database, firmId);
  const before = process.cpuUsage();
  for (let i = 0; i < READS; i++) await findFirm(database, firmId);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / READS;
}

async function measure(name: string, url: string): Promise<void> {
  const database = openDatabase(url);
  try {
    await migrateToLatest(database);
    const now = Date.now();
    const firm = await database.db
      .insertInto("firm")
      .values({ name: "Logo Law LLP", created_at: now, updated_at: now, host_names: "[]" } as never)
      .returning("id")
      .executeTakeFirstOrThrow();
    let baseline = 0;
    for (const size of LOGO_SIZES) {
      // A square PNG of incompressible pixels, 3 bytes each: about `size` bytes.
      const side = Math.round(Math.sqrt(size / 3));
      if (size) await saveFirmLogo(database, firm.id, noisyPng(side, side), now);
      else await database.db.deleteFrom("firm_logo").where("firm_id", "=", firm.id).execute();
      const ms = await cpuPerRead(database, firm.id);
      baseline ||= ms;
      const logo = size ? `a logo of ${size / 1000} KB` : "no logo";
      console.log(`  ${name.padEnd(10)} ${logo.padEnd(18)} ${ms.toFixed(3)} ms CPU per read, ${(ms / baseline).toFixed(2)}× the read without a logo`);
    }
  } finally {
    await database.close();
  }
}

async function main() {
  console.log(`The firm's record, ${READS} reads each — ${machineLine(machine())}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-bench-firm-"));
  try {
    await measure("SQLite", `sqlite:${dir}/ecfx.sqlite`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const found = await findPostgres();
  if ("reason" in found) {
    console.log(`  PostgreSQL skipped: ${found.reason}`);
    return;
  }
  const data = await prepareData("postgres", found.url);
  try {
    await measure("PostgreSQL", data.env.DATABASE_URL!);
  } finally {
    await data.cleanup();
  }
}

void main();
