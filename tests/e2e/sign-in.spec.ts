import { expect, test } from "@playwright/test";
import { PASSWORD, USERS, changePassword, restorePassword, signIn, signOut, signedIn, startSession } from "./helpers";

// A test that changed a demo user's password and stopped half-way puts it back, for its retry and
// the tests after it.
test.afterEach(async () => {
  if (test.info().status === test.info().expectedStatus) return;
  await restorePassword(USERS.manager, ["another-pass-1"]);
  await restorePassword(USERS.docketing, ["another-pass-1"]);
  await restorePassword(USERS.viewonly, ["temporary-pass-9"]);
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`sign-in with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("the root goes to sign-in, which shows the firm", async ({ page }) => {
      await page.goto("/");
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByTestId("firm-name")).toHaveText("Demo Law LLP");
      await expect(page).toHaveTitle("Sign in · ECFX");
    });

    test("the admin signs in, sees the dashboard with its widgets, and signs out", async ({ page }) => {
      await signIn(page, USERS.admin);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page).toHaveTitle("Dashboard · ECFX");
      await expect(page.getByTestId("documents")).toBeVisible();
      await expect(page.getByTestId("by-state").locator("svg.recharts-surface")).toBeVisible();
      await signOut(page);
      await page.goto("/dashboard");
      await expect(page).toHaveURL(/\/login\?from=%2Fdashboard$/);
    });

    test("a wrong password is refused with the spec's message", async ({ page }) => {
      await signIn(page, USERS.admin, "not-the-password");
      await expect(page.getByTestId("login-error")).toHaveText("The information you entered does not match the records in our system. Please try again.");
      await expect(page).toHaveURL(/\/login/);
    });

    test("an invalid email and a missing password get field messages", async ({ page }) => {
      await page.goto("/login");
      await page.getByLabel("Email").fill("not-an-email");
      // The browser's own checks would stop the form; the server must say the same.
      await page
        .locator("form")
        .first()
        .evaluate((f) => f.setAttribute("novalidate", ""));
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(page.getByText("Enter a valid email address.")).toBeVisible();
      await expect(page.getByText("This field is required.")).toBeVisible();
    });

    test("a deep link survives sign-in", async ({ page }) => {
      await page.goto("/profile?tab=role");
      await expect(page).toHaveURL(/\/login\?from=%2Fprofile%3Ftab%3Drole$/);
      await page.getByLabel("Email").fill(USERS.manager);
      await page.getByLabel(/^Password/).fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(page).toHaveURL(/\/profile\?tab=role$/);
    });

    test("an outside redirect target is ignored", async ({ page }) => {
      await signIn(page, USERS.manager, PASSWORD, "/login?from=%2F%2Fevil.test%2F");
      await expect(page).toHaveURL(/\/dashboard$/);
    });

    test("View Only opening a denied page lands on /success, and the drawer hides it", async ({ page }) => {
      await signIn(page, USERS.viewonly);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole("link", { name: "Developer" })).toHaveCount(0);
      await page.goto("/dev");
      await expect(page).toHaveURL(/\/success$/);
      await expect(page.getByTestId("no-access")).toBeVisible();
      // A declared page that is not built yet obeys its key too.
      await page.goto("/security-roles");
      await expect(page).toHaveURL(/\/success$/);
    });

    test("the drawer's icons are drawn from the one sprite the browser keeps", async ({ page }) => {
      await signIn(page, USERS.viewonly);
      await expect(page).toHaveURL(/\/dashboard$/);
      const icon = page.locator('.drawer-link[href="/matters"] use');
      await expect(icon).toHaveAttribute("href", /^\/icons\.svg(\?v=\w+)?#briefcase$/);
      // The symbol was fetched and drawn (under the page's CSP): the icon has a size of its own.
      await expect.poll(() => icon.evaluate((use) => (use as SVGGraphicsElement).getBBox().width)).toBeGreaterThan(5);
      const sprite = await page.request.get("/icons.svg");
      expect(sprite.headers()["content-type"]).toContain("image/svg+xml");
      expect(await sprite.text()).toContain('<symbol id="briefcase"');
    });

    test("the firm's theme colours come from one stylesheet the browser keeps", async ({ page }) => {
      await signIn(page, USERS.viewonly);
      await expect(page).toHaveURL(/\/dashboard$/);
      const link = page.locator('link[rel="stylesheet"][href^="/theme.css?"]');
      await expect(link).toHaveCount(1);
      // Not written into the page as well.
      await expect(page.locator('style[data-mantine-styles="true"]')).toHaveCount(0);
      // The firm's palette is in force and is the primary colour (Mantine's own default is blue).
      const variable = (name: string) => page.evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name);
      await expect.poll(() => variable("--mantine-color-firm-filled")).toMatch(/^#[0-9a-f]{6}$/);
      expect(await variable("--mantine-primary-color-filled")).toBe(await variable("--mantine-color-firm-filled"));
      const sheet = await page.request.get((await link.getAttribute("href"))!);
      expect(sheet.headers()["content-type"]).toContain("text/css");
      expect(sheet.headers()["cache-control"]).toContain("immutable");
      expect(await sheet.text()).toContain("--mantine-color-firm-filled:");
    });

    test("unknown paths answer 404 with a way home", async ({ page }) => {
      await signedIn(page, USERS.manager);
      const answer = await page.goto("/no-such-page");
      expect(answer?.status()).toBe(404);
      await expect(page).toHaveURL(/\/no-such-page$/);
      await expect(page.getByTestId("not-found")).toContainText("Page not found");
    });

    test("dark mode survives a reload", async ({ page }) => {
      // The dashboard hydrates its charts after the first paint: a click before that is lost.
      const hydrated = () => expect(page.locator("form[data-hydrated]").first()).toBeAttached();
      await signIn(page, USERS.docketing);
      await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");
      if (javaScriptEnabled) await hydrated();
      await page.getByTestId("toggle-dark-mode").click();
      await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
      await page.reload();
      await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
      if (javaScriptEnabled) await hydrated();
      await page.getByTestId("toggle-dark-mode").click();
      await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");
    });

    test("change password: mismatch message, then a real change", async ({ page }) => {
      const user = javaScriptEnabled ? USERS.manager : USERS.docketing;
      await startSession(page, user);
      await page.goto("/profile");
      await expect(page.getByTestId("role-table")).toContainText("Full Access");
      await page.getByLabel("Current password").fill(PASSWORD);
      await page.getByLabel(/^New password/).fill("another-pass-1");
      await page.getByLabel("Confirm new password").fill("another-pass-2");
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(page.getByText("Your password and confirmation password do not match.")).toBeVisible();

      await changePassword(page, PASSWORD, "another-pass-1");
      await expect(page.getByText("Your password was changed. Other sessions were signed out.")).toBeVisible();
      await signOut(page);
      await signIn(page, user, PASSWORD);
      await expect(page.getByTestId("login-error")).toBeVisible();
      await signedIn(page, user, "another-pass-1");
      await changePassword(page, "another-pass-1", PASSWORD);
      await expect(page.getByText("Your password was changed. Other sessions were signed out.")).toBeVisible();
    });
  });
}

test("an expired session lands on /login with the spec's toast", async ({ browser }) => {
  const first = await browser.newContext();
  const second = await browser.newContext();
  const a = await first.newPage();
  const b = await second.newPage();
  await signedIn(a, USERS.viewonly);
  // Another session of the same user changes the password: every other session ends.
  await signedIn(b, USERS.viewonly);
  await changePassword(b, PASSWORD, "temporary-pass-9");
  await expect(b.getByText("Your password was changed. Other sessions were signed out.")).toBeVisible();

  await a.goto("/profile");
  await expect(a).toHaveURL(/\/login$/);
  await expect(a.getByText("Your session has expired. You have been logged out.")).toBeVisible();

  await changePassword(b, "temporary-pass-9", PASSWORD);
  await expect(b.getByText("Your password was changed. Other sessions were signed out.")).toBeVisible();
  await first.close();
  await second.close();
});
