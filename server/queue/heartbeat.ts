import fs from "node:fs";
import { logger } from "../../app/common/logger";

// A worker serves no port, so its health is told by a file: touched every few seconds while the
// process runs and reaches its queue, stale once it hangs or loses the database. A container's
// health check reads the file's age (compose.yaml).

export const HEARTBEAT_MS = 15_000;

/** Touches `file` now and every `everyMs` once `reachable` answers; a failed check leaves it to age. */
export function startHeartbeat(file: string, reachable: () => Promise<unknown>, everyMs = HEARTBEAT_MS): { latest(): Promise<void>; stop(): Promise<void> } {
  let beat: Promise<void> = Promise.resolve();
  const touch = () => {
    beat = reachable().then(
      () => fs.promises.writeFile(file, `${new Date().toISOString()}\n`),
      (error: unknown) => logger("worker").error({ err: error }, "worker heartbeat: the job queue is unreachable"),
    );
  };
  touch();
  const timer = setInterval(touch, everyMs);
  timer.unref();
  return {
    /** The last beat, once it has touched the file or failed. */
    latest: () => beat,
    async stop() {
      clearInterval(timer);
      await beat;
      // A stopped worker is not alive: the file goes with it.
      await fs.promises.rm(file, { force: true });
    },
  };
}
