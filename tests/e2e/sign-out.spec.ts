import { expect, test } from "@playwright/test";
import { PASSWORD, USERS, changePassword, restorePassword, sessionCookie, signOut, signedIn } from "./helpers";

// The password change below, stopped half-way, is put back for its retry and the tests after it.
test.afterEach(async () => {
  if (test.info().status !== test.info().expectedStatus) await restorePassword(USERS.docketing, ["changed-pass-42"]);
});

// A copied session cookie must stop working the moment its user signs out or changes the
// password: the console's cookie and the API's tokens end together.

for (const javaScriptEnabled of [true, false]) {
  test.describe(`ending a session with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("after sign-out the old cookie no longer opens a signed-in page", async ({ page, context, browser }) => {
      await signedIn(page, USERS.docketing);
      const old = await sessionCookie(context);
      await signOut(page);

      const thief = await browser.newContext({ javaScriptEnabled });
      await thief.addCookies([old]);
      const stolen = await thief.newPage();
      await stolen.goto("/profile");
      await expect(stolen).toHaveURL(/\/login/);
      await thief.close();
    });

    test("after a password change the old cookie no longer opens a signed-in page", async ({ page, context, browser }) => {
      await signedIn(page, USERS.docketing);
      const old = await sessionCookie(context);
      await changePassword(page, PASSWORD, "changed-pass-42");
      await expect(page.getByText("Your password was changed. Other sessions were signed out.")).toBeVisible();

      const thief = await browser.newContext({ javaScriptEnabled });
      await thief.addCookies([old]);
      const stolen = await thief.newPage();
      await stolen.goto("/profile");
      await expect(stolen).toHaveURL(/\/login/);
      await thief.close();

      // The session that changed the password goes on.
      await page.goto("/profile");
      await expect(page).toHaveURL(/\/profile$/);
      await changePassword(page, "changed-pass-42", PASSWORD);
      await expect(page.getByText("Your password was changed. Other sessions were signed out.")).toBeVisible();
    });
  });
}

test("a page of another site cannot sign the user out", async ({ page, context }) => {
  await signedIn(page, USERS.docketing);
  const response = await context.request.post("/logout", { headers: { Origin: "https://evil.example" }, form: { x: "1" } });
  expect(response.status()).toBe(403);
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/profile$/);
});
