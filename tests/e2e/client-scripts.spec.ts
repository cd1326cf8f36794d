import { type Browser, type BrowserContext, type Request, expect, test } from "@playwright/test";
import { USERS, signedIn } from "./helpers";

// What a page makes the browser download and run before it is interactive: the scripts it names
// for loading (module preloads: the manifest, the entry, its route modules and their chunks), as
// the console sends them, compressed. The interactive table loads after, on its own.

const KIB = 1024;

interface Scripts {
  /** Compressed bytes of the scripts the page names in its head. */
  beforeInteractive: number;
  /** Compressed bytes of the scripts loaded once it is interactive. */
  after: number;
}

/**
 * Loads a page in a browser with nothing cached (a new context), signed in when `storageState` says
 * so; `loadedWhen` names what is there once the scripts loaded after hydration have run.
 */
async function scriptsOf(
  browser: Browser,
  path: string,
  storageState?: Awaited<ReturnType<BrowserContext["storageState"]>>,
  loadedWhen?: string,
): Promise<Scripts> {
  const context = await browser.newContext({ storageState });
  const page = await context.newPage();
  const sizes: Promise<[string, number]>[] = [];
  const measure = (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/build/") && url.pathname.endsWith(".js")) sizes.push(request.sizes().then((s) => [url.pathname, s.responseBodySize]));
  };
  page.on("requestfinished", measure);
  const response = await page.goto(path);
  const html = (await response?.text()) ?? "";
  const named = new Set([...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]));
  await expect(page.locator("body[data-hydrated]")).toBeAttached();
  // A later script may start loading only once the network was quiet for a moment: waited for by what it draws.
  if (loadedWhen) await expect(page.locator(loadedWhen)).toBeAttached();
  await page.waitForLoadState("networkidle");
  const loaded = await Promise.all(sizes);
  await context.close();
  expect(loaded.length).toBeGreaterThan(named.size / 2);
  const sum = (rows: [string, number][]) => rows.reduce((total, [, bytes]) => total + bytes, 0);
  return { beforeInteractive: sum(loaded.filter(([p]) => named.has(p))), after: sum(loaded.filter(([p]) => !named.has(p))) };
}

test("the sign-in page's scripts stay under 200 KiB as sent", async ({ browser }) => {
  const scripts = await scriptsOf(browser, "/login");
  console.log(`/login: ${(scripts.beforeInteractive / KIB).toFixed(1)} KiB before interactive, ${(scripts.after / KIB).toFixed(1)} KiB after`);
  expect(scripts.beforeInteractive).toBeGreaterThan(100 * KIB);
  expect(scripts.beforeInteractive).toBeLessThan(200 * KIB);
  expect(scripts.after).toBe(0);
});

test("a list page's scripts stay under 280 KiB before it is interactive; the interactive table follows", async ({ browser, page }) => {
  await signedIn(page, USERS.admin);
  const scripts = await scriptsOf(browser, "/cases", await page.context().storageState(), '[data-renderer="interactive"]');
  console.log(`/cases: ${(scripts.beforeInteractive / KIB).toFixed(1)} KiB before interactive, ${(scripts.after / KIB).toFixed(1)} KiB after`);
  expect(scripts.beforeInteractive).toBeGreaterThan(150 * KIB);
  expect(scripts.beforeInteractive).toBeLessThan(280 * KIB);
  // mantine-react-table came after: the page without it is the one measured above.
  expect(scripts.after).toBeGreaterThan(30 * KIB);
});

test("signed in from the sign-in page, the signed-in pages' words arrive with them, and no page fails to hydrate", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  // The sign-in page holds only its own namespaces; the dashboard comes by a client-side navigation.
  await page.goto("/login");
  await expect(page.locator("body[data-hydrated]")).toBeAttached();
  await signedIn(page, USERS.admin);
  await expect(page.getByText("Welcome, ")).toBeVisible();
  await page.getByRole("link", { name: "Cases", exact: true }).first().click();
  await expect(page).toHaveURL(/\/cases/);
  await expect(page.getByRole("columnheader", { name: /Case number/ }).first()).toBeVisible();
  // Drawn by the server, then hydrated with the same words.
  await page.reload();
  await expect(page.locator("body[data-hydrated]")).toBeAttached();
  await expect(page.getByRole("columnheader", { name: /Case number/ }).first()).toBeVisible();
  expect(errors).toEqual([]);
});
