import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../../tests/api/command-in-process";
import { DEMO, api, backends, login, useApi } from "../../tests/api/harness";
import { seedCommand } from "../cli/seed";
import { normaliseCaseNumber } from "../resources/case-number";
import { SERVER_RESOURCES } from "../resources/registry";
import { documentBody } from "../resources/search-text";
import { SEED_ID_PREFIX, SeedRefused, defaultFirmId, generate, seedLarge } from "./large";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

describe("generated data", () => {
  it("is the same for the same firm and size, and another firm gets other ids", () => {
    const now = Date.UTC(2026, 5, 1);
    const first = generate(1, "small", now);
    expect(generate(1, "small", now)).toEqual(first);
    expect(first.court_case).toHaveLength(200);
    expect(first.court_case.every((c) => String(c.id).startsWith(SEED_ID_PREFIX))).toBe(true);
    const other = new Set(generate(2, "small", now).court_case.map((c) => c.id));
    expect(first.court_case.some((c) => other.has(c.id))).toBe(false);
  });

  it("looks like a docket: court-style numbers, party names, 1 to 3 timekeepers per case", () => {
    const data = generate(1, "small", Date.UTC(2026, 5, 1));
    for (const c of data.court_case) {
      expect(String(c.case_number)).toMatch(/^(\d:\d{2}-(cv|cr|mc)-\d{5}|\d{2}-\d{4,5})$/);
      expect(String(c.name)).toMatch(/ v\. |^In re /);
      expect(c.case_number_normalized).toBe(normaliseCaseNumber(String(c.case_number)));
      const team = data.case_timekeeper.filter((l) => l.case_id === c.id).length;
      expect(team).toBeGreaterThanOrEqual(1);
      expect(team).toBeLessThanOrEqual(3);
    }
    const numbers = data.court_case.map((c) => `${String(c.jurisdiction_id)} ${String(c.case_number_normalized)}`);
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});

describe.each(backends)("ecfx seed (%s)", (backend) => {
  const server = useApi({ backend });
  const db = () => server().ctx.database.db as unknown as AnyDb;

  it("fills the demo firm so that the API searches it like data entered by hand", async () => {
    const { ctx, url } = server();
    const firmId = (await defaultFirmId(ctx.database))!;
    const report = await seedLarge(ctx.database, { firmId, size: "small" });
    expect(report.counts).toMatchObject({ court_case: 200, matter: 60, client: 20, timekeeper: 30 });

    const admin = api(url, (await login(url, DEMO.admin)).access_token);
    const all = await admin.get("/api/v1/case/search?max=1");
    expect(all.headers.get("x-total-count")).toBe("200");
    const sample = (await db().selectFrom("court_case").selectAll().where("firm_id", "=", firmId).orderBy("id").limit(1).executeTakeFirstOrThrow()) as Record<
      string,
      string
    >;
    const docket = sample.case_number!.replace(/^\d:/, "").slice(0, -2);
    for (const text of [sample.name!, docket]) {
      const found = await admin.get(`/api/v1/case/search?max=100&freeText=${encodeURIComponent(text)}`);
      expect(
        found.body.map((r: { id: string }) => r.id),
        text,
      ).toContain(sample.id);
    }

    // The index holds exactly what the repository would write for each row.
    for (const res of SERVER_RESOURCES.filter((r) => r.searchable)) {
      const row = (await db()
        .selectFrom(res.table)
        .selectAll()
        .where("firm_id", "=", firmId)
        .where("id", "like", `${SEED_ID_PREFIX}%`)
        .limit(1)
        .executeTakeFirst()) as Record<string, unknown> | undefined;
      if (!row) continue;
      const body = documentBody(
        firmId,
        res.searchFields.map((f) => row[f]),
      );
      const same =
        backend === "sqlite"
          ? await sql<{
              ok: number;
            }>`select count(*) as ok from ${sql.table(`${res.table}_fts`)} where rowid = (select rowid from ${sql.table(res.table)} where id = ${row.id}) and body = ${body}`.execute(
              db(),
            )
          : await sql<{
              ok: number;
            }>`select count(*) as ok from ${sql.table(res.table)} where id = ${row.id} and search_vector = to_tsvector('simple', ${body})`.execute(db());
      expect(Number(same.rows[0]?.ok), res.table).toBe(1);
    }
  });

  it("refuses a firm that has cases, and --force replaces only the earlier seed", async () => {
    const { ctx, url } = server();
    const firmId = (await defaultFirmId(ctx.database))!;
    const seededIds = async () =>
      (await db().selectFrom("court_case").select("id").where("id", "like", `${SEED_ID_PREFIX}%`).orderBy("id").execute()).map((r) => r.id);
    const before = await seededIds();
    await expect(seedLarge(ctx.database, { firmId, size: "small" })).rejects.toBeInstanceOf(SeedRefused);

    const admin = api(url, (await login(url, DEMO.admin)).access_token);
    const add = async (route: string, body: Record<string, unknown>) => {
      const created = await admin.post(route, body);
      expect(created.status, created.text).toBe(201);
      return created.body.id as string;
    };
    const client = await add("/api/v1/client", { name: "Hand Client", unique_key: "H-1" });
    const matter = await add("/api/v1/matter", { name: "Hand Matter", unique_key: "H-1-1", client_id: client });
    const jurisdiction = await add("/api/v1/jurisdiction", { name: "By Hand Court", ecfx_jurisdictions: ["nysd"] });
    const timekeeper = await add("/api/v1/timekeeper", { full_name: "Hana Hand", email: "hana@hand.test" });
    const byHand = await add("/api/v1/case", {
      name: "Entered v. By Hand",
      case_number: "1:19-cv-77777",
      matter_id: matter,
      jurisdiction_id: jurisdiction,
      assigned_timekeepers: [timekeeper],
    });

    await seedLarge(ctx.database, { firmId, size: "small", force: true });
    expect(await seededIds()).toEqual(before);
    expect((await admin.get(`/api/v1/case/${byHand}`)).status).toBe(200);
    expect((await admin.get("/api/v1/case/search?max=1")).headers.get("x-total-count")).toBe("201");
    const found = await admin.get("/api/v1/case/search?freeText=Entered%20By%20Hand");
    expect(found.body.map((r: { id: string }) => r.id)).toEqual([byHand]);

    // A row entered on top of the seed keeps it from being replaced, with a reason, not a crash.
    const seededMatter = await db().selectFrom("matter").select("id").where("id", "like", `${SEED_ID_PREFIX}%`).limit(1).executeTakeFirstOrThrow();
    await add("/api/v1/case", {
      name: "On v. Seed",
      case_number: "1:19-cv-88888",
      matter_id: seededMatter.id,
      jurisdiction_id: jurisdiction,
      assigned_timekeepers: [timekeeper],
    });
    await expect(seedLarge(ctx.database, { firmId, size: "small", force: true })).rejects.toThrow(/refer to its matter rows/);
    if (backend === "sqlite") expect(await seededIds()).toEqual(before);
  });
});

describe("the ecfx seed command", () => {
  // The SQLite default of the data folder, whatever database the test run itself was given.
  const ecfx = (args: string[], env: Record<string, string> = {}) => runInProcess(seedCommand, args, env, ["DATABASE_URL"]);

  it("explains its usage", async () => {
    const bad = await ecfx(["--size", "huge"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--size must be large or small");
  });

  it("seeds a fresh data folder and prints counts and seconds", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-seed-"));
    try {
      const env = { ECFX_DATA_DIR: dir, ECFX_DEMO: "true", ECFX_DEMO_DATA: "false", LOG_LEVEL: "silent" };
      const run = await ecfx(["--size", "small"], env);
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/court_case: 200 rows in [\d.]+ s/);
      expect(run.stdout).toMatch(/Seeded \d+ rows in [\d.]+ s/);
      const again = await ecfx(["--size", "small"], env);
      expect(again.status).toBe(1);
      expect(again.stderr).toContain("already has 200 cases");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
