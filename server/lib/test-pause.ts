/**
 * The stage boundaries a crash test can stop the worker at, in pipeline order. With
 * NODE_ENV=test and ECFX_TEST_PAUSE_AT=<point>, every job that reaches the point announces it on
 * stdout ("ECFX paused at <point>") and waits there for good, so the test can kill the process
 * at exactly that moment. With ECFX_TEST_MEET_AT=<point>, the first job to reach that point waits
 * there for a second one; the second then stays there for good and the first goes on, so a kill
 * finds one job past the point and the other at it. Anywhere else (production, development) the
 * hooks do nothing.
 */
export const PAUSE_POINTS = ["item-recorded", "document-fetched", "file-intended", "file-written", "mail-recorded", "mail-sent"] as const;
/** Points inside a stage, each stopped at by a test of its own (tests/api/object-store.test.ts). */
export type PausePoint = (typeof PAUSE_POINTS)[number] | "blob-uploaded";

const testing = process.env.NODE_ENV === "test";
const requested = testing ? process.env.ECFX_TEST_PAUSE_AT : undefined;
const meeting = testing ? process.env.ECFX_TEST_MEET_AT : undefined;
let announced = false;
/** Lets the first job at the meeting point go on; set while it waits. */
let firstWaiting: (() => void) | undefined;
let met = false;

const forever = () => new Promise<never>(() => undefined);

export async function pauseAt(point: PausePoint): Promise<void> {
  if (meeting === point && !met) {
    if (!firstWaiting) return new Promise<void>((resolve) => (firstWaiting = resolve));
    met = true;
    firstWaiting();
    await forever();
  }
  if (requested !== point) return;
  if (!announced) {
    announced = true;
    process.stdout.write(`ECFX paused at ${point}\n`);
  }
  await forever();
}
