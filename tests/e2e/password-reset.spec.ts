import { expect, test } from "@playwright/test";
import { PASSWORD, USERS, signIn, startSession } from "./helpers";

for (const javaScriptEnabled of [true, false]) {
  test.describe(`password reset with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("an unknown address is named, a known one gets a single-use link by mail", async ({ page, browser }) => {
      await page.goto("/login");
      await page.getByRole("link", { name: "Forgot your password?" }).click();
      await expect(page).toHaveTitle("Forgot Password · ECFX");
      await page.getByLabel("Email").fill("nobody@demo.ecfx.test");
      await page.getByRole("button", { name: "Send reset link" }).click();
      await expect(page.getByText("Email doesn't exist")).toBeVisible();

      await page.getByLabel("Email").fill(USERS.docketing);
      await page.getByRole("button", { name: "Send reset link" }).click();
      await expect(page.getByTestId("reset-sent")).toBeVisible();

      // The firm administrator reads the captured mail on the developer page.
      const admin = await (await browser.newContext({ javaScriptEnabled })).newPage();
      await startSession(admin, USERS.admin);
      await admin.goto("/dev");
      await admin.getByTestId("outbox").getByRole("link", { name: "Reset your ECFX password" }).first().click();
      const text = await admin.getByTestId("mail-text").innerText();
      const link = text.match(/http:\/\/\S+\/password-reset\?token=\S+/)?.[0];
      expect(link).toBeTruthy();
      const url = new URL(link!);

      await page.goto(url.pathname + url.search);
      await expect(page).toHaveTitle("Reset Password · ECFX");
      await page.getByLabel(/^New password/).fill("short");
      await page.getByLabel("Confirm new password").fill("short");
      await page.getByRole("button", { name: "Set new password" }).click();
      await expect(page.getByText("Password must be at least 8 characters long.")).toBeVisible();

      await page.getByLabel(/^New password/).fill(PASSWORD);
      await page.getByLabel("Confirm new password").fill(PASSWORD);
      await page.getByRole("button", { name: "Set new password" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByText("Your password was changed. Sign in with the new one.")).toBeVisible();

      // The same link works once.
      await page.goto(url.pathname + url.search);
      await page.getByLabel(/^New password/).fill(PASSWORD);
      await page.getByLabel("Confirm new password").fill(PASSWORD);
      await page.getByRole("button", { name: "Set new password" }).click();
      await expect(page.getByTestId("reset-error")).toContainText("invalid or has expired");

      await signIn(page, USERS.docketing);
      await expect(page).toHaveURL(/\/dashboard$/);
      await admin.context().close();
    });
  });
}
