import { expect, test } from "@playwright/test";
import { USERS, signedIn } from "./helpers";

// Spec §4/§9: a toast lasts 5000 ms, its progress bar moves every 100 ms and stands still while
// the pointer is over it; the same message is never stacked twice.

test("a toast shows the time it has left, waits while the pointer is on it, then closes", async ({ page }) => {
  await page.clock.install();
  await signedIn(page, USERS.admin);
  // From here the page's time moves only when the test moves it: a busy machine's slow page load
  // must not spend the toast's time before it is read.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 5_000);
  // An export without a file name comes back to the list with an error toast.
  await page.goto("/cases/export?filename=%20");
  const toast = page.locator(".toast-area .mantine-Notification-root");
  await expect(toast).toHaveCount(1);
  const bar = toast.getByRole("progressbar");
  const left = async () => Number(await bar.getAttribute("aria-valuenow"));
  await expect.poll(left).toBeGreaterThan(90);

  await page.clock.runFor(1_000);
  await expect.poll(left).toBeLessThanOrEqual(80);
  await toast.hover();
  const paused = await left();
  await page.clock.runFor(8_000);
  expect(await left()).toBe(paused);
  await expect(toast).toHaveCount(1);

  await page.mouse.move(5, 500);
  await page.clock.runFor(Math.ceil((paused / 100) * 5_000) - 500);
  await expect(toast).toHaveCount(1);
  await page.clock.runFor(1_500);
  await expect(toast).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a toast goes after its time, and what was beneath it takes clicks again", async ({ page }) => {
    await signedIn(page, USERS.admin);
    await page.goto("/cases/export?filename=%20");
    await expect(page).toHaveURL(/\/cases$/);
    const toast = page.locator(".static-toasts");
    await expect(toast).toBeVisible();
    const box = (await toast.boundingBox())!;
    const hit = (x: number, y: number) => page.evaluate(([px, py]) => Boolean(document.elementFromPoint(px!, py!)?.closest(".static-toasts")), [x, y]);
    const centre = [box.x + box.width / 2, box.y + box.height / 2] as const;
    expect(await hit(...centre)).toBe(true);
    // The toast's 5000 ms, run to their end at once: the browser's own animation clock, not a wait.
    await page.evaluate(() => document.getAnimations().forEach((animation) => animation.finish()));
    await expect(toast).toBeHidden();
    expect(await hit(...centre)).toBe(false);
  });
});
