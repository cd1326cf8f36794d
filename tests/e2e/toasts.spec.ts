import { type Page, expect, test } from "@playwright/test";
import { API_URL, USERS, apiFetch, apiToken, signedIn, startSession } from "./helpers";

// Spec §4/§9: a toast lasts 5000 ms, its progress bar moves every 100 ms and stands still while
// the pointer is over it; at most five are stacked; the same message is never stacked twice.

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

/** Moves the page's own router, as a link or a form with JavaScript would: the document stays. */
function navigate(page: Page, path: string, intent?: string) {
  return page.evaluate(
    ([to, value]) => {
      const router = (window as unknown as { __remixRouter: { navigate: (to: string, options?: object) => Promise<void> } }).__remixRouter;
      if (!value) return router.navigate(to);
      const formData = new FormData();
      formData.set("intent", value);
      return router.navigate(to, { formMethod: "post", formData });
    },
    [path, intent] as const,
  );
}

const toasts = (page: Page) => page.locator(".toast-area .mantine-Notification-root");

// Toasts are drawn by Mantine's notification stack, which only runs with JavaScript: without it the
// page's toasts come with the document, one answer's at a time, and no stack forms.
test("stacks five toasts at most; the others show as earlier ones leave", async ({ page }) => {
  const token = await apiToken();
  const run = Date.now().toString(36);
  const create = async (path: string, body: Record<string, unknown>) => {
    const res = await apiFetch(`${API_URL}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string | number }).id;
  };
  // Seven records of seven kinds: deleting each says "<kind> deleted.", seven distinct toasts.
  const records: [string, string | number, string][] = [
    ["clients", await create("/api/v1/client", { name: `Toast client ${run}`, unique_key: `TOAST-C-${run}` }), "Client deleted."],
    ["locations", await create("/api/v1/location", { name: `Toast location ${run}`, unique_key: `TOAST-L-${run}` }), "Location deleted."],
    ["departments", await create("/api/v1/department", { name: `Toast department ${run}`, unique_key: `TOAST-D-${run}` }), "Department deleted."],
    ["practice-groups", await create("/api/v1/practice-group", { name: `Toast group ${run}`, unique_key: `TOAST-P-${run}` }), "Practice group deleted."],
    ["timekeepers", await create("/api/v1/timekeeper", { full_name: `Toast Keeper ${run}`, email: `toast-${run}@toast.test` }), "Timekeeper deleted."],
    [
      "webhooks",
      await create("/api/v1/webhook", { name: `Toast hook ${run}`, url: "https://hooks.example.test/toast", events: ["notice.received"] }),
      "Webhook deleted.",
    ],
    ["templates", await create("/api/v1/email-template", { name: `Toast template ${run}`, template: "<p>{{subject}}</p>" }), "E-mail template deleted."],
  ];

  await page.clock.install();
  await signedIn(page, USERS.admin);
  // The toasts' time moves only when the test moves it, so none leaves while the others are queued;
  // the pointer stays off the stack, where it would hold a toast's time.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 5_000);
  await page.mouse.move(5, 500);
  for (const [i, [kind, id]] of records.entries()) {
    await navigate(page, `/${kind}/${id}`, "confirm-delete");
    await expect(page).toHaveURL(new RegExp(`/${kind}$`));
    await expect(toasts(page)).toHaveCount(Math.min(i + 1, 5));
  }
  const messages = records.map(([, , message]) => message);
  await expect(toasts(page)).toHaveText(messages.slice(0, 5).map((m) => new RegExp(m)));

  // The five run out together; the two that waited take their place.
  await page.clock.runFor(6_000);
  await expect(toasts(page)).toHaveText(messages.slice(5).map((m) => new RegExp(m)));
  await page.clock.runFor(6_000);
  await expect(toasts(page)).toHaveCount(0);
});

test("does not stack a message again while it is on screen", async ({ page }) => {
  const run = Date.now().toString(36);
  const res = await apiFetch(`${API_URL}/api/v1/client`, {
    method: "POST",
    headers: { authorization: `Bearer ${await apiToken()}`, "content-type": "application/json" },
    body: JSON.stringify({ name: `Toast twice ${run}`, unique_key: `TOAST-T-${run}` }),
  });
  expect(res.status).toBe(201);
  const client = ((await res.json()) as { id: string | number }).id;
  await page.clock.install();
  await signedIn(page, USERS.admin);
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 5_000);
  await page.mouse.move(5, 500);
  // Two lists' exports without a file name: the same message twice, then another one.
  await navigate(page, "/cases/export?filename=%20");
  await expect(toasts(page)).toHaveCount(1);
  await navigate(page, "/clients/export?filename=%20");
  await navigate(page, `/clients/${client}`, "confirm-delete");
  // The third toast shows after the second answer's was let go: the repeat was never stacked.
  await expect(toasts(page)).toHaveText([/Filename required/, /Client deleted\./]);
  // Gone, the message may be shown again.
  await page.clock.runFor(6_000);
  await expect(toasts(page)).toHaveCount(0);
  await navigate(page, "/cases/export?filename=%20");
  await expect(toasts(page)).toHaveText([/Filename required/]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a toast goes after its time, and what was beneath it takes clicks again", async ({ page }) => {
    await startSession(page, USERS.admin);
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
