import { describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "../db/database";
import { receiveMessage } from "./receive";
import type { ServerContext } from "../context";

describe("receiveMessage", () => {
  it("stores the raw bytes as a New item with its job, and decodes the subject for the list", async () => {
    const database = openDatabase("sqlite::memory:");
    await migrateToLatest(database);
    const firm = await database.db
      .insertInto("firm")
      .values({ name: "F", created_at: 0, updated_at: 0, host_names: "[]" } as never)
      .returning("id")
      .executeTakeFirstOrThrow();
    const ctx = { database, clock: { now: () => 1000 } } as unknown as ServerContext;
    const raw = Buffer.from("Message-ID: <a@b>\r\nSubject: =?UTF-8?Q?Pe=C3=B1a_v._Bolt?=\r\n\r\nbody\xff", "latin1");
    const id = await receiveMessage(ctx, { firmId: firm.id, raw, source: "CLI" });
    const item = await database.db.selectFrom("inbox_item").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(item).toMatchObject({ status: "New", subject: "Peña v. Bolt", message_id: "<a@b>", raw_size: raw.length });
    expect(Buffer.from(item.raw_content).equals(raw)).toBe(true);
    const jobs = await database.db.selectFrom("job").selectAll().execute();
    expect(jobs).toMatchObject([{ kind: "process-inbox-item", ref_id: id }]);
    await database.close();
  });
});
