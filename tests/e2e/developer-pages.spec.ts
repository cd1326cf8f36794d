import { expect, test } from "@playwright/test";
import { USERS, startSession } from "./helpers";

// Release notes (/totest) from the CHANGELOG.md the product ships, and the firm's slowest API
// routes of the last hour (/slow), with JavaScript on and off.

for (const javaScriptEnabled of [true, false]) {
  test.describe(`developer pages, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("release notes list the releases, newest first, with their sections", async ({ page }) => {
      await startSession(page, USERS.admin);
      await page.goto("/totest");
      await expect(page.getByTestId("page-title")).toHaveText("Release Notes");
      const releases = page.getByTestId("release");
      await expect(releases.first().getByRole("heading", { level: 2 })).toHaveText("Not yet released");
      await expect(releases.filter({ hasText: "Version 0.1.0" }).getByRole("heading", { level: 2 })).toContainText("2026-11-22");
      await expect(releases.first().getByRole("heading", { name: "Security", level: 3 })).toBeVisible();
      // Inline code of the file is drawn as code, not as backticks.
      await expect(releases.first().locator("code", { hasText: "npm start" }).first()).toBeVisible();
      await expect(page.getByTestId("release-notes")).not.toContainText("`");
    });

    test("slow requests show the firm's routes of the last hour to administrators only", async ({ page }) => {
      await startSession(page, USERS.admin);
      await page.goto("/cases");
      await page.goto("/slow");
      await expect(page.getByTestId("page-title")).toHaveText("Slow Requests");
      const row = page.getByTestId("slow-routes").getByRole("row").filter({ hasText: "GET /api/v1/:resource/search" });
      await expect(row).toHaveCount(1);
      await expect(row.getByRole("cell").nth(1)).toHaveText(/^[1-9][\d,]*$/);
      await expect(row.getByRole("cell").nth(3)).toHaveText(/^[\d,.]+ ms$/);

      await page.context().clearCookies();
      await startSession(page, USERS.manager);
      await page.goto("/slow");
      await expect(page.getByText("Only users with full access to firm settings can see slow requests.")).toBeVisible();
      await expect(page.getByTestId("slow-routes")).toHaveCount(0);
    });
  });
}
