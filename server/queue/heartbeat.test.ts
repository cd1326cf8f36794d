import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { startHeartbeat } from "./heartbeat";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-heartbeat-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const settled = async (heartbeat: ReturnType<typeof startHeartbeat>) => {
  await heartbeat.latest();
  return heartbeat;
};

it("touches the file while the queue answers and removes it when the worker stops", async () => {
  const file = path.join(folder, "alive");
  const heartbeat = await settled(startHeartbeat(file, async () => undefined, 60_000));
  expect(fs.existsSync(file)).toBe(true);
  await heartbeat.stop();
  expect(fs.existsSync(file)).toBe(false);
});

it("leaves no file while the queue cannot be reached", async () => {
  const file = path.join(folder, "unreachable");
  const heartbeat = await settled(startHeartbeat(file, () => Promise.reject(new Error("database gone")), 60_000));
  expect(fs.existsSync(file)).toBe(false);
  await heartbeat.stop();
});
