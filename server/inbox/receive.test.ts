import { describe, expect, it } from "vitest";
import { memoryDatabaseWithFirm } from "../../tests/unit/memory-database";
import { receiveMessage } from "./receive";
import type { ServerContext } from "../context";

describe("receiveMessage", () => {
  it("stores the raw bytes as a New item with its job, and decodes the subject for the list", async () => {
    const { database, firmId } = await memoryDatabaseWithFirm();
    const ctx = { database, clock: { now: () => 1000 } } as unknown as ServerContext;
    const raw = Buffer.from("Message-ID: <a@b>\r\nSubject: =?UTF-8?Q?Pe=C3=B1a_v._Bolt?=\r\n\r\nbody\xff", "latin1");
    const id = await receiveMessage(ctx, { firmId, raw, source: "CLI" });
    const item = await database.db.selectFrom("inbox_item").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(item).toMatchObject({ status: "New", subject: "Peña v. Bolt", message_id: "<a@b>", raw_size: raw.length });
    expect(Buffer.from(item.raw_content).equals(raw)).toBe(true);
    const jobs = await database.db.selectFrom("job").selectAll().execute();
    expect(jobs).toMatchObject([{ kind: "process-inbox-item", ref_id: id }]);
    await database.close();
  });

  it("reads raw 8-bit UTF-8 and windows-1252 subjects as mail clients do", async () => {
    const { database, firmId } = await memoryDatabaseWithFirm();
    const ctx = { database, clock: { now: () => 1000 } } as unknown as ServerContext;
    const utf8 = Buffer.concat([Buffer.from("Subject: "), Buffer.from("Peña v. Martínez", "utf8"), Buffer.from("\r\n\r\nbody\xff", "latin1")]);
    const legacy = Buffer.concat([Buffer.from("Subject: "), Buffer.from("Peña \u00a7 1447", "latin1"), Buffer.from("\r\n\r\nbody")]);
    const subjects = [];
    for (const raw of [utf8, legacy]) {
      const id = await receiveMessage(ctx, { firmId, raw, source: "CLI" });
      subjects.push((await database.db.selectFrom("inbox_item").select("subject").where("id", "=", id).executeTakeFirstOrThrow()).subject);
    }
    expect(subjects).toEqual(["Peña v. Martínez", "Peña § 1447"]);
    await database.close();
  });
});
