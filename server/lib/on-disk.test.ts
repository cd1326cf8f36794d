import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { flushToDisk, writeOnDisk } from "./on-disk";

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

  it("writes a new file whole, and refuses one that is there", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-flush-"));
    try {
      const file = path.join(folder, "a");
      await writeOnDisk(file, Buffer.from("bytes"));
      expect(fs.readFileSync(file, "utf8")).toBe("bytes");
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      await expect(writeOnDisk(file, Buffer.from("other"))).rejects.toMatchObject({ code: "EEXIST" });
      expect(fs.readFileSync(file, "utf8")).toBe("bytes");
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
