import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { openContext } from "../../server/bootstrap";
import { loadConfig } from "../../server/config";
import { PG_URL, createPgDatabase } from "./harness";

const root = path.resolve(import.meta.dirname, "../..");

// Several processes start together on one PostgreSQL database (compose.yaml: two APIs, three
// workers, the SMTP listener and the console): they migrate it and create the demo firms once.
describe.skipIf(!PG_URL)("several processes starting on one PostgreSQL database", () => {
  it("create the demo firms once, whoever starts first", async () => {
    const database = await createPgDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-starts-"));
    const contexts: Awaited<ReturnType<typeof openContext>>[] = [];
    try {
      const config = () => loadConfig({ DATABASE_URL: database.url, ECFX_DATA_DIR: dataDir, ECFX_DEMO_DATA: "false", LOG_LEVEL: "silent" });
      contexts.push(...(await Promise.all(Array.from({ length: 5 }, () => openContext(config())))));
      expect(contexts.filter((c) => c.seededDemo)).toHaveLength(1);
      const firms = await contexts[0]!.database.db.selectFrom("firm").select(["name", "is_default"]).orderBy("id").execute();
      expect(firms.map((f) => f.name)).toEqual(["Demo Law LLP", "Second Chair & Co"]);
    } finally {
      for (const ctx of contexts) await ctx.database.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

// The compose file the operator starts: every part alone, all on one database and one data volume.
describe("compose.yaml", () => {
  const compose = parse(fs.readFileSync(path.join(root, "compose.yaml"), "utf8"), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string>; deploy?: { replicas?: number }; ports?: string[] }>;
  };
  const roles = Object.fromEntries(Object.entries(compose.services).map(([name, s]) => [name, s.environment?.ECFX_ROLES]));

  it("runs each part of the product as a service of its own, with several APIs and workers", () => {
    expect(roles).toEqual({ db: undefined, api: "api", worker: "worker", smtp: "smtp", console: "console" });
    expect(compose.services.api!.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(compose.services.worker!.deploy?.replicas).toBeGreaterThanOrEqual(3);
    expect(compose.services.console!.environment!.ECFX_API_URL).toBe("http://api:8080");
    expect(compose.services.api!.environment!.ECFX_API_PORT).toBe("8080");
  });

  it("gives every part the same database, secrets and data volume", () => {
    const parts = ["api", "worker", "smtp", "console"].map((name) => compose.services[name]!.environment!);
    for (const key of ["DATABASE_URL", "ECFX_SESSION_SECRET", "ECFX_TOKEN_SIGNING_KEY", "ECFX_DATA_DIR"]) {
      expect(new Set(parts.map((env) => env[key])).size, key).toBe(1);
      expect(parts[0]![key], key).toBeTruthy();
    }
    expect(parts[0]!.DATABASE_URL).toMatch(/^postgres:\/\/ecfx:.*@db:5432\/ecfx$/);
  });

  it("names only settings the product knows", () => {
    const known = ["server/config.ts", "server/auth/secrets.ts"].map((file) => fs.readFileSync(path.join(root, file), "utf8")).join("\n");
    for (const [name, service] of Object.entries(compose.services)) {
      if (name === "db") continue;
      for (const key of Object.keys(service.environment ?? {})) expect(known, `${name}: ${key}`).toContain(key);
    }
  });
});
