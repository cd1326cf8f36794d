import { expect, test } from "@playwright/test";
import { API_URL, USERS, apiFetch, apiToken, signedIn } from "./helpers";

// With JavaScript an open page asks every half minute whether the ECFX service answers and says
// so while it does not (without JavaScript a page that cannot load answers 503 itself:
// tests/api/console-edges.test.ts).

test("a banner says so while the ECFX service does not answer, and goes once it is back", async ({ page }) => {
  await page.clock.install();
  await signedIn(page, USERS.docketing);
  // The page's time stands still from here, so the half minute counts from when the page starts
  // asking however long the machine takes to get there.
  await page.clock.pauseAt(Date.now() + 1_000);
  await page.goto("/cases");
  await expect(page.locator("body[data-hydrated]")).toHaveCount(1);
  const banner = page.getByTestId("api-down");

  let asked = 0;
  await page.route("**/resources/ping", (route) => {
    asked++;
    return route.fulfill({ status: 503, contentType: "application/json", body: '{"status":"unavailable"}' });
  });
  await page.clock.fastForward(29_000);
  expect(asked).toBe(0);
  await page.clock.fastForward(1_000);
  await expect(banner).toHaveText(
    "The ECFX service is not answering. Pages cannot load and changes cannot be saved until it is back; this message goes away by itself.",
  );
  expect(asked).toBe(1);

  // Back: the real ping answers at the next ask, here when the network comes back.
  await page.unroute("**/resources/ping");
  await page.evaluate(() => window.dispatchEvent(new Event("online")));
  await expect(banner).toHaveCount(0);
});

test("the ping asks the API's ping route with the user's token", async ({ page }) => {
  await signedIn(page, USERS.docketing);
  const signedInPing = await page.request.get("/resources/ping");
  expect(signedInPing.status()).toBe(200);
  expect(await signedInPing.json()).toEqual({ status: "ok" });
  // The user's sessions ended elsewhere: the API refuses the page's token, which the ping says
  // (an answer, not an outage); a check that the API is up would still say "ok".
  const token = await apiToken(USERS.docketing);
  const ended = await apiFetch(`${API_URL}/auth/logout`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
  expect(ended.status).toBe(204);
  const signedOutPing = await page.request.get("/resources/ping");
  expect(signedOutPing.status()).toBe(401);
  expect(await signedOutPing.json()).toEqual({ status: "signed-out" });
});
