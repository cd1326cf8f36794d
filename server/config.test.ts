import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("configuration", () => {
  it("has working defaults", () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.ECFX_API_PORT).toBe(8080);
    expect(c.databaseUrl).toMatch(/^sqlite:.*data\/ecfx\.sqlite$/);
    expect(c.ECFX_ROLES).toEqual(["console", "api", "worker", "smtp"]);
  });

  it("stops with a message naming the bad variable", () => {
    expect(() => loadConfig({ ECFX_API_PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadConfig({ ECFX_API_PORT: "eighty" })).toThrow(/ECFX_API_PORT/);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ ECFX_ROLES: "api,teapot" })).toThrow(/ECFX_ROLES/);
    expect(() => loadConfig({ ECFX_OUTBOUND_ALLOW: "10.0.0.0/8,intranet" })).toThrow(/ECFX_OUTBOUND_ALLOW/);
  });

  it("keeps stored files in the data folder unless an object store is named whole", () => {
    expect(loadConfig({}).ECFX_BLOB_STORE).toBe("folder");
    expect(() => loadConfig({ ECFX_BLOB_STORE: "s3", ECFX_S3_BUCKET: "ecfx" })).toThrow(/ECFX_S3_ACCESS_KEY_ID: required with ECFX_BLOB_STORE=s3/);
    expect(() => loadConfig({ ECFX_BLOB_STORE: "tape" })).toThrow(/ECFX_BLOB_STORE/);
    const s3 = loadConfig({ ECFX_BLOB_STORE: "s3", ECFX_S3_BUCKET: "ecfx", ECFX_S3_ACCESS_KEY_ID: "k", ECFX_S3_SECRET_ACCESS_KEY: "s" });
    expect([s3.ECFX_S3_PREFIX, s3.ECFX_S3_REGION, s3.ECFX_S3_FORCE_PATH_STYLE]).toEqual(["blobs/", "us-east-1", false]);
  });

  it("reads the private ranges outbound calls may reach", () => {
    expect(loadConfig({}).ECFX_OUTBOUND_ALLOW).toEqual([]);
    expect(loadConfig({ ECFX_OUTBOUND_ALLOW: " 10.20.0.0/16, 192.0.2.7,fd12::/64" }).ECFX_OUTBOUND_ALLOW).toEqual(["10.20.0.0/16", "192.0.2.7", "fd12::/64"]);
  });

  it("reads the title extraction providers the operator names, as origins only", () => {
    expect(loadConfig({}).ECFX_EXTRACTION_ALLOWED_ORIGINS).toEqual([]);
    expect(loadConfig({ ECFX_EXTRACTION_ALLOWED_ORIGINS: "http://127.0.0.1:8790, https://titles.intranet/" }).ECFX_EXTRACTION_ALLOWED_ORIGINS).toEqual([
      "http://127.0.0.1:8790",
      "https://titles.intranet/",
    ]);
    for (const bad of ["127.0.0.1:8790", "http://127.0.0.1:8790/v1", "ftp://titles.intranet"]) {
      expect(() => loadConfig({ ECFX_EXTRACTION_ALLOWED_ORIGINS: bad }), bad).toThrow(/ECFX_EXTRACTION_ALLOWED_ORIGINS/);
    }
  });

  it("switches to PostgreSQL with DATABASE_URL", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://u@h/db" }).databaseUrl).toBe("postgres://u@h/db");
  });
});
