import { describe, expect, it } from "vitest";
import { inJob, readOncePerJob, withJobReads } from "./job-reads";

describe("reads made once per job", () => {
  it("reads once inside a job, again in the next job, and every time outside one", async () => {
    let reads = 0;
    const read = () => readOncePerJob("firm:1", async () => ++reads);
    expect(inJob()).toBe(false);
    expect(await read()).toBe(1);
    expect(await read()).toBe(2);
    await withJobReads(async () => {
      expect(inJob()).toBe(true);
      expect(await Promise.all([read(), read()])).toEqual([3, 3]);
      expect(await readOncePerJob("firm:2", async () => "other")).toBe("other");
      expect(await read()).toBe(3);
    });
    expect(await withJobReads(read)).toBe(4);
  });

  it("does not keep a failed read", async () => {
    let calls = 0;
    const read = () =>
      readOncePerJob("webhooks:1", async () => {
        calls++;
        if (calls === 1) throw new Error("connection lost");
        return "hooks";
      });
    await withJobReads(async () => {
      await expect(read()).rejects.toThrow("connection lost");
      expect(await read()).toBe("hooks");
      expect(await read()).toBe("hooks");
    });
    expect(calls).toBe(2);
  });
});
