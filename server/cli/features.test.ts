import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// ECFX sets what a firm bought with `ecfx features`; the firm's own administrators cannot (decision 048).
describe("the ecfx features command", () => {
  // The SQLite default of the data folder, whatever database the test run itself was given.
  const { DATABASE_URL: _database, ...inherited } = process.env;
  const ecfx = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(path.resolve("node_modules/.bin/tsx"), ["server/cli/ecfx.ts", "features", ...args], { encoding: "utf8", env: { ...inherited, ...env } });

  it("refuses a feature ECFX does not sell", () => {
    const bad = ecfx(["--set", "ECFX_TRACK,TRACK"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("unknown feature TRACK");
  });

  it("sets the demo firm's features, prints them, and clears them", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-features-"));
    try {
      const env = { ECFX_DATA_DIR: dir, ECFX_DEMO: "true", ECFX_DEMO_DATA: "false", LOG_LEVEL: "silent" };
      const set = ecfx(["--set", "ECFX_TRACK,FAI_TITLE_EXTRACTION"], env);
      expect(set.stderr).toBe("");
      expect(set.status).toBe(0);
      expect(set.stdout).toBe("Demo Law LLP: ECFX_TRACK, FAI_TITLE_EXTRACTION\n");
      expect(ecfx([], env).stdout).toBe("Demo Law LLP: ECFX_TRACK, FAI_TITLE_EXTRACTION\n");
      expect(ecfx(["--set="], env).stdout).toBe("Demo Law LLP: no features\n");
      expect(ecfx(["--firm", "99"], env).status).toBe(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
