import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it, vi } from "vitest";
import type * as OnDisk from "../lib/on-disk";
import { openDatabase } from "./database";

const flushed = vi.hoisted(() => [] as string[]);
vi.mock("../lib/on-disk", async (importOriginal) => {
  const real = await importOriginal<typeof OnDisk>();
  return { ...real, flushToDisk: async (file: string) => (flushed.push(file), real.flushToDisk(file)) };
});

describe("openDatabase on SQLite", () => {
  it("flushes what was committed before it closes: an ecfx command beside a running server leaves no commit to a checkpoint (decision 139)", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-close-"));
    try {
      const file = path.join(folder, "ecfx.sqlite");
      // Another process's connection, as a running server's: the command's close is not the last.
      const server = openDatabase(`sqlite:${file}`);
      await sql`create table t (a integer)`.execute(server.db);
      const command = openDatabase(`sqlite:${file}`);
      await sql`insert into t values (1)`.execute(command.db);
      expect(flushed).toEqual([]);
      await command.close();
      expect(flushed).toEqual([`${file}-wal`]);
      expect(fs.existsSync(`${file}-wal`)).toBe(true);
      await server.close();
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
