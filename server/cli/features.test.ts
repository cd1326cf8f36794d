import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../../tests/api/command-in-process";
import { featuresCommand } from "./features";

// ECFX sets what a firm bought with `ecfx features`; the firm's own administrators cannot (decision 048).
describe("the ecfx features command", () => {
  // The SQLite default of the data folder, whatever database the test run itself was given.
  const ecfx = (args: string[], env: Record<string, string> = {}) => runInProcess(featuresCommand, args, env, ["DATABASE_URL"]);

  it("refuses a feature ECFX does not sell", async () => {
    const bad = await ecfx(["--set", "ECFX_TRACK,TRACK"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("unknown feature TRACK");
  });

  it("sets the demo firm's features, prints them, and clears them", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-features-"));
    try {
      const env = { ECFX_DATA_DIR: dir, ECFX_DEMO: "true", ECFX_DEMO_DATA: "false", LOG_LEVEL: "silent" };
      const set = await ecfx(["--set", "ECFX_TRACK,FAI_TITLE_EXTRACTION"], env);
      expect(set.stderr).toBe("");
      expect(set.status).toBe(0);
      expect(set.stdout).toBe("Demo Law LLP: ECFX_TRACK, FAI_TITLE_EXTRACTION\n");
      expect((await ecfx([], env)).stdout).toBe("Demo Law LLP: ECFX_TRACK, FAI_TITLE_EXTRACTION\n");
      expect((await ecfx(["--set="], env)).stdout).toBe("Demo Law LLP: no features\n");
      expect((await ecfx(["--firm", "99"], env)).status).toBe(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
