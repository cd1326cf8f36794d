/**
 * The stage boundaries a crash test can stop the worker at, in pipeline order. With
 * NODE_ENV=test and ECFX_TEST_PAUSE_AT=<point>, every job that reaches the point announces it on
 * stdout ("ECFX paused at <point>") and waits there for good, so the test can kill the process
 * at exactly that moment. Anywhere else (production, development) the hook does nothing.
 */
export const PAUSE_POINTS = ["item-recorded", "document-fetched", "file-intended", "file-written", "mail-recorded", "mail-sent"] as const;
export type PausePoint = (typeof PAUSE_POINTS)[number];

const requested = process.env.NODE_ENV === "test" ? process.env.ECFX_TEST_PAUSE_AT : undefined;
let announced = false;

export async function pauseAt(point: PausePoint): Promise<void> {
  if (requested !== point) return;
  if (!announced) {
    announced = true;
    process.stdout.write(`ECFX paused at ${point}\n`);
  }
  await new Promise<never>(() => undefined);
}
