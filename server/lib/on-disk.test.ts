import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { flushToDisk } from "./on-disk";

describe("flushToDisk", () => {
  it("flushes a file and a folder, and says false for a file that is not there", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-flush-"));
    try {
      fs.writeFileSync(path.join(folder, "a"), "bytes");
      expect(await flushToDisk(path.join(folder, "a"))).toBe(true);
      expect(await flushToDisk(folder)).toBe(true);
      expect(await flushToDisk(path.join(folder, "gone"))).toBe(false);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
