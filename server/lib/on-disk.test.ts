import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { flushToDisk, sharedFlush, writeOnDisk } from "./on-disk";

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

describe("sharedFlush", () => {
  it("gives each caller a flush that started after its call, one at a time, shared by the callers that waited", async () => {
    /** Each flush as it runs: ended by the test. */
    const flushes: { end: () => void; fail: (error: Error) => void }[] = [];
    const flush = sharedFlush(() => new Promise<void>((resolve, reject) => flushes.push({ end: resolve, fail: reject })));
    const done: string[] = [];
    const call = (name: string) =>
      flush().then(
        () => done.push(name),
        () => done.push(`${name} failed`),
      );
    const tick = () => new Promise((resolve) => setImmediate(resolve));

    const first = call("a");
    await tick();
    const waiting = [call("b"), call("c")];
    await tick();
    // b and c came after the first flush began: they wait for one of their own, not yet begun.
    expect(flushes).toHaveLength(1);
    flushes[0]!.end();
    await first;
    await tick();
    expect(done).toEqual(["a"]);
    expect(flushes).toHaveLength(2);
    const late = call("d");
    flushes[1]!.fail(new Error("EIO"));
    await Promise.all(waiting);
    expect(done).toEqual(["a", "b failed", "c failed"]);
    // d came while the second flush ran: it gets a third.
    await tick();
    expect(flushes).toHaveLength(3);
    flushes[2]!.end();
    await late;
    expect(done).toEqual(["a", "b failed", "c failed", "d"]);
    // Nothing running: a caller starts a flush at once.
    const alone = call("e");
    expect(flushes).toHaveLength(4);
    flushes[3]!.end();
    await alone;
  });
});
