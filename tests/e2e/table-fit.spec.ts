import { type Page, expect, test } from "@playwright/test";
import { API_URL, USERS, apiCreate, apiFetch, apiToken, signedIn } from "./helpers";

// The interactive tables fit their box: at a laptop's 1280 px and a phone's 390 px the page never
// scrolls sideways, and the columns a person reads a row by (the subject or name, the case) are
// in the table's visible box without scrolling it; the rest scroll inside the box.

const LONG = "Notice of Electronic Filing in a matter whose subject line runs on well past any column's width";

test.beforeAll(async () => {
  const token = await apiToken();
  const found = await apiFetch(`${API_URL}/api/v1/case/search?filter.case_number=${encodeURIComponent("1:26-cv-04410")}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (((await found.json()) as unknown[]).length > 0) return;
  const jurisdiction = await apiCreate(token, "/api/v1/jurisdiction", { name: "Fit District", ecfx_jurisdictions: ["nysd"] });
  const timekeeper = await apiCreate(token, "/api/v1/timekeeper", { full_name: "Fit Keeper", email: "fit.keeper@demo.ecfx.test" });
  const client = await apiCreate(token, "/api/v1/client", { name: "Fit Client", unique_key: "FIT-C" });
  const matter = await apiCreate(token, "/api/v1/matter", { name: "Fit Matter", unique_key: "FIT-M", client_id: client });
  await apiCreate(token, "/api/v1/case", {
    name: `Fit Holdings Incorporated v. The Very Long Named Defendant Corporation of America`,
    case_number: "1:26-cv-04410",
    matter_id: matter,
    jurisdiction_id: jurisdiction,
    assigned_timekeepers: [timekeeper],
  });
  const raw = `From: clerk@court.test\r\nTo: notices@demo.ecfx.test\r\nSubject: ${LONG}\r\nMessage-ID: <table-fit@e2e.test>\r\n\r\nA notice.\r\n`;
  const res = await apiFetch(`${API_URL}/api/v1/inbox/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "message/rfc822" },
    body: raw,
  });
  expect(res.status).toBe(201);
});

/** The key columns of each table, by their header. */
const TABLES = [
  { path: "/inbox-items", keys: ["Subject", "Case"] },
  { path: "/cases", keys: ["Case number", "Case name"] },
  { path: "/ecfx-notification", keys: ["Filing", "Case"] },
];

async function expectFits(page: Page, js: boolean, keys: string[]) {
  const table = page.getByTestId("resource-table");
  // With JavaScript the interactive table takes the plain one's place once the page has its rows.
  await expect(table).toHaveAttribute("data-renderer", js ? "interactive" : "plain");
  const measured = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(measured.scrollWidth).toBeLessThanOrEqual(measured.innerWidth);
  // The box that scrolls: the interactive table's container is the marked element, the plain table sits in one.
  const box = await table.evaluate((el) => {
    let at: Element | null = el;
    while (at && getComputedStyle(at).overflowX !== "auto" && getComputedStyle(at).overflowX !== "scroll") at = at.parentElement;
    const rect = (at ?? el).getBoundingClientRect();
    return { x: rect.x, width: rect.width };
  });
  expect(box.x + box.width).toBeLessThanOrEqual(measured.innerWidth);
  for (const key of keys) {
    const header = table
      .locator("thead th")
      .filter({ hasText: new RegExp(`^\\s*${key}`) })
      .first();
    const cell = (await header.boundingBox())!;
    // The header's start and a readable part of it (60 px, the tables' narrowest column) are in the box.
    expect(cell.x, key).toBeGreaterThanOrEqual(box.x - 1);
    expect(cell.x + Math.min(cell.width, 60), key).toBeLessThanOrEqual(box.x + box.width + 1);
  }
}

for (const [width, js] of [1280, 390].flatMap((w) => [true, false].map((j) => [w, j] as const))) {
  test.describe(`at ${width} px with JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ viewport: { width, height: 900 }, javaScriptEnabled: js });

    test("the inbox, cases and ECF notifications fit their box with the key columns in view", async ({ page }) => {
      await signedIn(page, USERS.admin);
      for (const { path, keys } of TABLES) {
        await page.goto(path);
        if (js) await expect(page.locator("body[data-hydrated]")).toBeAttached();
        await expectFits(page, js, keys);
      }
    });
  });
}
