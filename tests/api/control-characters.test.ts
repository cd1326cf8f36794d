import { describe, expect, it } from "vitest";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

// Control characters (NUL above all, which PostgreSQL refuses in text) are removed on the way in:
// JSON bodies of every write, query strings and ids, and the cells of an import.

describe.each(backends)("control characters on the way in (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  const admin = async () => api(server().url, (await sessionOf(DEMO.admin)).access_token);

  it("stores a record's names without them, on create and on update", async () => {
    const client = await admin();
    const created = await client.post("/api/v1/client", { name: "Blue\u0000bonnet\u0007 Widgets\u001f", unique_key: "NUL\u0000-1" });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "Bluebonnet Widgets", unique_key: "NUL-1" });
    const updated = await client.request("PATCH", `/api/v1/client/${created.body.id}`, { json: { name: "Blue\u0000bonnet\u000b Holdings" } });
    expect(updated.status, updated.text).toBe(200);
    const stored = await server()
      .ctx.database.db.selectFrom("client")
      .select(["name", "unique_key"])
      .where("id", "=", created.body.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: "Bluebonnet Holdings", unique_key: "NUL-1" });
  });

  it("answers a search or an id with NUL in it as if it were not there", async () => {
    const client = await admin();
    const found = await client.get(`/api/v1/client/search?q=${encodeURIComponent("Blue\u0000bonnet")}`);
    expect(found.status, found.text).toBe(200);
    expect(found.body.map((r: { name: string }) => r.name)).toContain("Bluebonnet Holdings");
    const missing = await client.get(`/api/v1/client/${encodeURIComponent("no\u0000such")}`);
    // Not an id at all on PostgreSQL (400), one that names nothing on SQLite (404): never a 500.
    expect([400, 404]).toContain(missing.status);
  });

  it("imports cells without them, keeping the record readable", async () => {
    const client = await admin();
    const file = ["name,unique_key", "Nul\u0000 Industries\u0002,NUL-2", ""].join("\n");
    const started = await client.request("POST", "/api/v1/client/import", { body: file, headers: { "content-type": "text/plain" } });
    expect(started.status, started.text).toBe(202);
    for (let i = 0; i < 200; i++) {
      const job = await client.get(`/api/v1/import-jobs/${started.body.id}`);
      if (job.body.status !== "running") {
        expect(job.body).toMatchObject({ status: "done", created: 1, rejected: 0 });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const stored = await server().ctx.database.db.selectFrom("client").select("name").where("unique_key", "=", "NUL-2").executeTakeFirstOrThrow();
    expect(stored.name).toBe("Nul Industries");
  });
});
