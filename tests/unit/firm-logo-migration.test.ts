import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrateToLatest } from "../../server/db/database";
import { findFirm, firmLogo } from "../../server/firm/firm-repository";
import { backends, migrateBelow, openFresh } from "./earlier-migrations";
import { noisyPng } from "../api/png";

// Migration 053 moves a firm's logo out of the firm row: a firm that had one keeps the very same
// bytes, one without gets none, and the firm row no longer holds the column.

describe.each(backends)("the firm's logo apart from the firm row (%s)", (backend) => {
  it("keeps each firm's logo, byte for byte, and drops the column from the firm row", async () => {
    const database = await openFresh(backend);
    try {
      await migrateBelow(database, "053");
      const png = noisyPng(120, 120);
      const now = Date.now();
      const insert = (name: string, logo: Buffer | null) =>
        sql<{ id: number }>`insert into firm (name, created_at, updated_at, logo) values (${name}, ${now}, ${now}, ${logo}) returning id`
          .execute(database.db)
          .then((r) => r.rows[0]!.id);
      const withLogo = await insert("Logo Law LLP", png);
      const without = await insert("Plain Law LLP", null);

      await migrateToLatest(database);

      expect((await firmLogo(database, withLogo))?.equals(png)).toBe(true);
      expect(await firmLogo(database, without)).toBeNull();
      expect((await findFirm(database, withLogo))?.has_logo).toBe(true);
      expect((await findFirm(database, without))?.has_logo).toBe(false);
      const tables = await database.db.introspection.getTables();
      const firmColumns = tables.find((t) => t.name === "firm")!.columns.map((c) => c.name);
      expect(firmColumns).not.toContain("logo");
      expect(firmColumns).toContain("name");
    } finally {
      await database.close();
    }
  });

  it("removes the logo with its firm", async () => {
    const database = await openFresh(backend);
    try {
      await migrateToLatest(database);
      const now = Date.now();
      const firm = await database.db
        .insertInto("firm")
        .values({ name: "Gone Law LLP", created_at: now, updated_at: now } as never)
        .returning("id")
        .executeTakeFirstOrThrow();
      await database.db
        .insertInto("firm_logo")
        .values({ firm_id: firm.id, png: noisyPng(10, 10) })
        .execute();
      await database.db.deleteFrom("firm").where("id", "=", firm.id).execute();
      expect(await database.db.selectFrom("firm_logo").selectAll().execute()).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
