import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { field, open, press } from "./forms";
import { API_URL, USERS, apiCreate, apiToken, signedIn, apiFetch, startSession } from "./helpers";

// /demo on the demo installation the browser tests run: the page says what a reset does, asks
// for a confirmation, and the result comes back as a toast, with JavaScript on and off.

const CONFIRM = "I understand that the demo firm's data will be deleted";

/** How many clients of the demo firm carry this key (the reset removes them all). */
async function clientsWithKey(key: string): Promise<number> {
  const res = await apiFetch(`${API_URL}/api/v1/client/search?freeText=${encodeURIComponent(key)}&max=10`, {
    headers: { authorization: `Bearer ${await apiToken()}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as unknown[]).length;
}

for (const js of [false, true]) {
  test.describe(`demo reset, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("an administrator confirms, the demo firm's data is reset, and a toast says what was done", async ({ page }) => {
      const key = `DEMO-${js ? "JS" : "NOJS"}-${randomBytes(3).toString("hex")}`;
      await apiCreate(await apiToken(), "/api/v1/client", { name: `Client ${key}`, unique_key: key });
      expect(await clientsWithKey(key)).toBe(1);

      await signedIn(page, USERS.admin);
      await expect(page.getByRole("navigation").getByRole("link", { name: "Demo", exact: true })).toBeVisible();
      await open(page, js, "/demo");
      await expect(page.getByTestId("page-title")).toHaveText("Demo");
      await expect(page.getByText("Users, roles and the firm's settings stay")).toBeVisible();

      // Not confirmed: nothing is deleted, and the form says why.
      await press(page, "Reset demo data");
      await expect(page.getByText("Tick the box to confirm the reset.")).toBeVisible();
      expect(await clientsWithKey(key)).toBe(1);

      await field(page, CONFIRM).check();
      await press(page, "Reset demo data");
      // A toast with JavaScript, the server's status line without: the same words.
      await expect(page.getByText(/^Demo data reset: \d+ inbox items, \d+ cases and \d+ files removed/)).toBeVisible();
      await expect(page).toHaveURL(/\/demo$/);
      expect(await clientsWithKey(key)).toBe(0);
    });

    test("a manager, who may read the firm settings only, sees what a reset does but cannot start one", async ({ page }) => {
      const key = `KEEP-${js ? "JS" : "NOJS"}-${randomBytes(3).toString("hex")}`;
      await apiCreate(await apiToken(), "/api/v1/client", { name: `Client ${key}`, unique_key: key });
      await startSession(page, USERS.manager);
      await page.goto("/demo");
      await expect(page.getByText("Only users with full access to firm settings can reset the demo data.")).toBeVisible();
      await expect(page.getByRole("button", { name: "Reset demo data" })).toHaveCount(0);
      // A reset posted anyway is refused by the API: the console sends the manager to /success.
      const posted = await page.request.post("/demo", { form: { confirm: "yes" }, maxRedirects: 0 });
      expect(posted.status()).toBe(302);
      expect(posted.headers().location).toBe("/success");
      expect(await clientsWithKey(key)).toBe(1);
    });

    test("a role without firm access is sent to /success", async ({ page }) => {
      await startSession(page, USERS.viewonly);
      await page.goto("/demo");
      await expect(page).toHaveURL(/\/success$/);
      await expect(page.getByRole("navigation").getByRole("link", { name: "Demo", exact: true })).toHaveCount(0);
    });
  });
}
