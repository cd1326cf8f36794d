import { type Locator, type Page, expect, test } from "@playwright/test";
import { USERS, signedIn, startSession } from "./helpers";

// The page around the content: on a phone (390 px, under the spec's sm breakpoint) the drawer
// starts closed and closes again on navigation, and tables scroll inside themselves; on a laptop
// (1366 px) every table column can be reached and a toast never covers the page title.

const drawer = (page: Page) => page.locator("nav.mantine-AppShell-navbar");

async function ready(page: Page, js: boolean) {
  if (js) await expect(page.locator("body[data-hydrated]")).toBeAttached();
}

/** The page itself never scrolls sideways: whatever is wider scrolls inside its own box. */
async function expectNoSidewaysPage(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/**
 * The last column header is on screen once the table's own container has scrolled to it. With
 * JavaScript, the table measured is the interactive one, which takes over once the page has its rows.
 */
async function expectLastHeaderReachable(page: Page, js: boolean) {
  const table = page.getByTestId("resource-table");
  await expect(table).toHaveAttribute("data-renderer", js ? "interactive" : "plain");
  const last: Locator = table.locator("thead th").last();
  await last.scrollIntoViewIfNeeded();
  await expect(last).toBeInViewport();
  await expectNoSidewaysPage(page);
}

for (const js of [true, false]) {
  test.describe(`JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test.describe("on a 390 px phone", () => {
      test.use({ viewport: { width: 390, height: 844 } });

      test("the drawer starts closed, opens from the menu button and closes on navigation", async ({ page }) => {
        await startSession(page, USERS.admin);
        await page.goto("/dashboard");
        await ready(page, js);
        // The saved preference (open, by default) is the wide screen's: here the page comes first.
        await expect(drawer(page)).not.toBeInViewport();
        await expect(page.getByTestId("page-title")).toBeInViewport();

        const toggle = page.getByTestId("mobile-drawer-toggle");
        await expect(toggle).toHaveAttribute("aria-expanded", "false");
        await toggle.click();
        await expect(drawer(page)).toBeInViewport();
        await expect(toggle).toHaveAttribute("aria-expanded", "true");

        await drawer(page).getByRole("link", { name: "Cases", exact: true }).click();
        await expect(page).toHaveURL(/\/cases$/);
        await expect(page.getByTestId("page-title")).toHaveText("Cases");
        await expect(drawer(page)).not.toBeInViewport();
        await expect(page.getByTestId("mobile-drawer-toggle")).toHaveAttribute("aria-expanded", "false");
      });

      test("the menu button closes the drawer it opened", async ({ page }) => {
        await startSession(page, USERS.admin);
        await page.goto("/profile");
        await ready(page, js);
        const toggle = page.getByTestId("mobile-drawer-toggle");
        await toggle.click();
        await expect(drawer(page)).toBeInViewport();
        await toggle.click();
        await expect(drawer(page)).not.toBeInViewport();
        await expect(page).toHaveURL(/\/profile$/);
      });

      test("the dashboard's charts are whole, and a long page title leaves Sign out on screen", async ({ page }) => {
        await startSession(page, USERS.admin);
        await page.goto("/dashboard?period=last_year");
        await ready(page, js);
        for (const chart of ["by-state", "by-hour", "by-month"]) {
          // With JavaScript a chart draws once its box is measured, after the page has hydrated.
          const surface = page.getByTestId(chart).locator("svg.recharts-surface");
          await expect(surface).toBeVisible();
          const card = (await page.getByTestId(chart).boundingBox())!;
          const drawing = (await surface.boundingBox())!;
          expect(drawing.x, chart).toBeGreaterThanOrEqual(card.x);
          expect(drawing.x + drawing.width, chart).toBeLessThanOrEqual(card.x + card.width);
        }
        await expectNoSidewaysPage(page);

        await page.goto("/jurisdiction-preferences");
        await ready(page, js);
        await expect(page.getByTestId("page-title")).toHaveText("Jurisdiction preferences");
        await expect(page.getByRole("button", { name: "Sign out" })).toBeInViewport({ ratio: 1 });
        await expectNoSidewaysPage(page);
      });

      test("the inbox table keeps its columns readable and scrolls inside its box", async ({ page }) => {
        await startSession(page, USERS.admin);
        await page.goto("/inbox-items");
        await ready(page, js);
        const table = page.getByTestId("resource-table");
        // With JavaScript, the interactive table takes the plain one's place once it has loaded:
        // measured before, the cells measured may be the ones being replaced.
        await expect(table).toHaveAttribute("data-renderer", js ? "interactive" : "plain");
        const first = table.locator("thead th").first();
        await expect(first).toBeInViewport();
        // A named column keeps the tables' minimum width (60 px): never squeezed to a sliver.
        const widths = await table
          .locator("thead th")
          .evaluateAll((ths) => ths.filter((th) => th.textContent?.trim()).map((th) => Math.round(th.getBoundingClientRect().width)));
        expect(widths.length).toBeGreaterThan(3);
        expect(Math.min(...widths)).toBeGreaterThanOrEqual(60);
        await expectLastHeaderReachable(page, js);
      });
    });

    test.describe("on a 1366 px laptop", () => {
      test.use({ viewport: { width: 1366, height: 768 } });

      test("with the drawer open every column of a table can be reached", async ({ page }) => {
        await signedIn(page, USERS.admin);
        for (const path of ["/cases", "/inbox-items", "/clients"]) {
          await page.goto(path);
          await ready(page, js);
          await expect(drawer(page)).toBeInViewport();
          await expectLastHeaderReachable(page, js);
        }
      });

      test("status badges on the developer page show their whole word", async ({ page }) => {
        // A reset request puts a captured mail, with its status, on the developer page.
        await page.goto("/password-forgot");
        await ready(page, js);
        await page.getByLabel("Email").fill(USERS.viewonly);
        await page.getByRole("button", { name: "Send reset link" }).click();
        await expect(page.getByTestId("reset-sent")).toBeVisible();
        await startSession(page, USERS.admin);
        await page.goto("/dev");
        await ready(page, js);
        const labels = page.getByTestId("outbox").locator(".mantine-Badge-label");
        await expect(labels.first()).toBeVisible();
        const cut = await labels.evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent));
        expect(cut).toEqual([]);
      });

      test("a toast sits below the toolbar, clear of the page title", async ({ page }) => {
        await startSession(page, USERS.admin);
        // An export without a file name comes back to the list with an error toast.
        await page.goto("/cases/export?filename=%20");
        await expect(page).toHaveURL(/\/cases$/);
        // With JavaScript the server's toast gives way to Mantine's stack once the page hydrates:
        // the one measured is the stack's, once its entry transition has ended.
        const toast = js ? page.locator(".toast-area .mantine-Notification-root").first() : page.locator(".static-toasts");
        await expect(toast).toBeVisible();
        const placement = async () => {
          const title = await page.getByTestId("page-title").boundingBox();
          const box = await toast.boundingBox();
          if (!title || !box) return "not drawn";
          const overlaps = box.x < title.x + title.width && title.x < box.x + box.width && box.y < title.y + title.height && title.y < box.y + box.height;
          // Below the 70 px toolbar, where the title and the account controls are.
          return overlaps ? "over the title" : box.y < 70 ? "in the toolbar" : "clear";
        };
        await expect.poll(placement).toBe("clear");
      });
    });
  });
}
