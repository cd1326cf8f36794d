import { logger } from "../../app/common/logger";
import type { ServerContext } from "../context";
import { ORPHAN_AGE_MS } from "./blob-store";

/**
 * Sweeps blobs no row claimed (a crash between their upload and their row) once an orphan's age,
 * from each worker: listing a bucket is too dear to repeat every few minutes, and an orphan is
 * never read meanwhile, only kept.
 */
export function startOrphanSweep(ctx: ServerContext): { stop(): void } {
  const log = logger("orphan-sweep");
  const sweep = () =>
    ctx.blobs.sweepOrphans(ctx.clock.now()).then(
      (removed) => removed > 0 && log.info({ removed }, `removed ${removed} stored file(s) no notice or document refers to`),
      (err: unknown) => log.error({ err }, "could not sweep stored files"),
    );
  const timer = setInterval(() => void sweep(), ORPHAN_AGE_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
