import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

// An import file is streamed to disk and read from there a record at a time; the firm's
// max_import_size bounds it, refused with 413 and the firm's own figure.

describe.each(backends)("import file size (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  const admin = async () => api(server().url, (await sessionOf(DEMO.admin)).access_token);
  const uploads = () => fs.readdirSync(path.join(server().ctx.config.dataDir, "imports"));

  /** A clients file of about `bytes` bytes: `rows` lines of equal length. */
  function clientsFile(bytes: number): { text: string; rows: number } {
    const line = (i: number) => `Client number ${String(i).padStart(8, "0")} ${"x".repeat(60)},K-${String(i).padStart(8, "0")}\n`;
    const rows = Math.floor(bytes / line(0).length);
    const lines = ["name,unique_key\n"];
    for (let i = 0; i < rows; i++) lines.push(line(i));
    return { text: lines.join(""), rows };
  }

  it("keeps the firm's maximum import size as a firm setting", async () => {
    const client = await admin();
    const firm = (await client.get("/api/v1/firm")).body;
    expect(firm.max_import_size).toBe(20 * 1024 * 1024);
    const saved = await client.request("PUT", `/api/v1/firm/${firm.id}`, { json: { ...firm, max_import_size: 1024 * 1024 } });
    expect(saved.status, saved.text).toBe(200);
    expect((await client.get("/api/v1/firm")).body.max_import_size).toBe(1024 * 1024);
    const tooBig = await client.request("PUT", `/api/v1/firm/${firm.id}`, { json: { ...firm, max_import_size: 1024 ** 3 } });
    expect(tooBig.status).toBe(400);
  });

  it("refuses a file over the firm's maximum with 413, keeping nothing", async () => {
    const client = await admin();
    const { text } = clientsFile(1.5 * 1024 * 1024);
    const refused = await client.request("POST", "/api/v1/client/import", { body: text, headers: { "content-type": "text/csv" } });
    expect(refused.status).toBe(413);
    expect(refused.body.message).toBe("The file is larger than 1 MB. Split it into smaller files.");
    expect(uploads()).toEqual([]);
  });

  it("reads a 20 MB file through and asks to confirm its exact line count", async () => {
    const client = await admin();
    const firm = (await client.get("/api/v1/firm")).body;
    expect((await client.request("PUT", `/api/v1/firm/${firm.id}`, { json: { ...firm, max_import_size: 25 * 1024 * 1024 } })).status).toBe(200);
    const { text, rows } = clientsFile(20 * 1024 * 1024);
    const answer = await client.request("POST", "/api/v1/client/import", { body: text, headers: { "content-type": "text/plain" } });
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expect(answer.body).toMatchObject({ confirmationRequired: true, rows, threshold: 1000 });
    // Nothing is imported without the confirmation, and the upload is gone.
    expect(uploads()).toEqual([]);
    const clients = await server().ctx.database.db.selectFrom("client").select("id").where("unique_key", "like", "K-%").execute();
    expect(clients).toHaveLength(0);
  });
});
