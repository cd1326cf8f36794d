import fs from "node:fs";
import { type Browser, type Page, expect, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { API_URL, PASSWORD, USERS, signedIn, apiFetch, startSession } from "./helpers";

// The one table of every entity: filters, sort, paging and quick filters live in the URL, work
// with JavaScript off (links and GET forms) and on (mantine-react-table), and export the
// filtered rows as CSV. Data is created through the API first.

interface Seeded {
  alpha: string;
  beta: string;
  jurisdiction: string;
}

let seeded: Seeded;
const CASES_PER_MATTER = 12;
// Each test signs in (a deliberately slow password hash) and drives several page loads.
test.describe.configure({ timeout: 90_000 });

async function apiAs(email: string) {
  const login = await apiFetch(`${API_URL}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: email, password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  const { access_token } = (await login.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${access_token}`, "content-type": "application/json" };
  return {
    async post(path: string, body: unknown): Promise<{ id: string }> {
      const res = await apiFetch(`${API_URL}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(201);
      return (await res.json()) as { id: string };
    },
    async get<T>(path: string): Promise<T> {
      const res = await apiFetch(`${API_URL}${path}`, { headers });
      expect(res.status, path).toBe(200);
      return (await res.json()) as T;
    },
    async put(path: string, body: unknown) {
      return apiFetch(`${API_URL}${path}`, { method: "PUT", headers, body: JSON.stringify(body) });
    },
    async remove(path: string) {
      return apiFetch(`${API_URL}${path}`, { method: "DELETE", headers: { authorization: headers.authorization } });
    },
  };
}

test.beforeAll(async () => {
  const admin = await apiAs(USERS.admin);
  expect((await admin.put("/api/v1/firm/web-preferences", { web_preferences: "{}" })).status).toBe(200);
  // A worker started again after a failure finds the rows of the first one.
  const [alphaFound] = await admin.get<{ id: string }[]>("/api/v1/matter/search?filter.unique_key=TBL-MA");
  if (alphaFound) {
    const [betaFound] = await admin.get<{ id: string }[]>("/api/v1/matter/search?filter.unique_key=TBL-MB");
    const [court] = await admin.get<{ id: string }[]>(`/api/v1/jurisdiction/search?filter.name=${encodeURIComponent("Tbl Southern District")}`);
    seeded = { alpha: alphaFound.id, beta: betaFound!.id, jurisdiction: court!.id };
    return;
  }
  const jurisdiction = await admin.post("/api/v1/jurisdiction", { name: "Tbl Southern District", ecfx_jurisdictions: ["nysd"] });
  const timekeeper = await admin.post("/api/v1/timekeeper", { full_name: "Tbl Timekeeper", email: "tbl.keeper@demo.ecfx.test" });
  const client = await admin.post("/api/v1/client", { name: "Tbl Client", unique_key: "TBL-C1" });
  await admin.post("/api/v1/client", { name: "Tbl Lonely Client", unique_key: "TBL-C2" });
  const alpha = await admin.post("/api/v1/matter", { name: "Tbl Alpha Matter", unique_key: "TBL-MA", client_id: client.id });
  const beta = await admin.post("/api/v1/matter", { name: "Tbl Beta Matter", unique_key: "TBL-MB", client_id: client.id });
  for (let i = 0; i < CASES_PER_MATTER * 2; i++) {
    const n = String(i).padStart(2, "0");
    await admin.post("/api/v1/case", {
      name: i === 3 ? "=Tbl Formula Case" : `Tbl Case ${n}`,
      case_number: `2:26-cv-2${n}`,
      matter_id: i % 2 === 0 ? alpha.id : beta.id,
      jurisdiction_id: jurisdiction.id,
      assigned_timekeepers: [timekeeper.id],
      status: i % 4 === 0 ? "closed" : "open",
      filed_date: `2026-02-${String(i + 1).padStart(2, "0")}`,
    });
  }
  seeded = { alpha: alpha.id, beta: beta.id, jurisdiction: jurisdiction.id };
});

/** The body rows of whichever renderer is on the page, as text. */
async function rowTexts(page: Page): Promise<string[]> {
  // Without JavaScript a followed link's page streams in: read it once it has all arrived.
  await page.waitForLoadState("load");
  const rows = page.getByTestId("resource-table").locator("tbody tr");
  return (await rows.allInnerTexts()).map((r) => r.replace(/\s+/g, " ").trim());
}

/** The case numbers in the table, in order. */
async function caseNumbers(page: Page): Promise<string[]> {
  return (await rowTexts(page)).map((r) => r.match(/2:26-cv-2\d\d/)?.[0] ?? r);
}

const alphaNumbers = Array.from({ length: CASES_PER_MATTER }, (_, k) => `2:26-cv-2${String(k * 2).padStart(2, "0")}`);

async function freshPage(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  await signedIn(page, USERS.admin);
  return page;
}

function readDownload(path: string): Record<string, string>[] {
  const text = fs.readFileSync(path, "utf8");
  expect(text.charCodeAt(0)).toBe(0xfeff);
  return parse(text.slice(1), { columns: true }) as Record<string, string>[];
}

test.describe("tables without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("filter with the GET form, sort with header links, and the URL brings back the same rows", async ({ page, browser }) => {
    await startSession(page, USERS.admin);
    await page.goto("/cases");
    await expect(page.getByTestId("page-title")).toHaveText("Cases");
    await expect(page.getByTestId("resource-table")).toHaveAttribute("data-renderer", "plain");
    const filters = page.getByTestId("table-filters");
    await filters.locator("summary").click();
    await filters.getByLabel("Matter", { exact: true }).selectOption({ label: "Tbl Alpha Matter" });
    await filters.getByRole("button", { name: "Apply filters" }).click();
    // The form's leftovers (empty inputs, the two date inputs) are redirected to the canonical URL.
    await expect(page).toHaveURL(`/cases?filter.matter_id=${seeded.alpha}`);
    expect((await caseNumbers(page)).sort()).toEqual(alphaNumbers);
    await expect(page.getByTestId("resource-table")).toContainText("Tbl Alpha Matter");
    await expect(page.getByTestId("resource-table")).toContainText("Tbl Southern District");

    await page.getByRole("link", { name: "Sort by Case number" }).click();
    await expect(page).toHaveURL(`/cases?filter.matter_id=${seeded.alpha}&sort=case_number`);
    expect(await caseNumbers(page)).toEqual(alphaNumbers);
    await page.getByRole("link", { name: "Sort by Case number" }).click();
    await expect(page).toHaveURL(`/cases?filter.matter_id=${seeded.alpha}&sort=-case_number`);
    expect(await caseNumbers(page)).toEqual([...alphaNumbers].reverse());

    await filters.getByLabel("Status").selectOption({ label: "Closed" });
    await page.getByRole("searchbox", { name: "Search" }).fill("Tbl");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(`/cases?q=Tbl&filter.matter_id=${seeded.alpha}&filter.status=closed&sort=-case_number`);
    const shared = page.url();
    const expected = await rowTexts(page);
    expect(expected).toHaveLength(6);

    // Another browser, the same link: the same rows in the same order.
    const other = await freshPage(browser, false);
    await other.goto(shared);
    expect(await rowTexts(other)).toEqual(expected);
    await other.context().close();
  });

  test("a date range needs two dates", async ({ page }) => {
    await startSession(page, USERS.admin);
    await page.goto(`/cases?filter.matter_id=${seeded.alpha}`);
    const filters = page.getByTestId("table-filters");
    const filed = filters.locator("[data-filter=filed_date]");
    await filed.getByLabel("From").fill("2026-02-01");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect(filed.getByRole("alert")).toHaveText("Select two dates");
    await expect(filed.getByLabel("From")).toHaveValue("2026-02-01");

    await filed.getByLabel("To").fill("2026-02-05");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(`/cases?filter.matter_id=${seeded.alpha}&filter.filed_date=2026-02-01..2026-02-05`);
    expect((await caseNumbers(page)).sort()).toEqual(["2:26-cv-200", "2:26-cv-202", "2:26-cv-204"]);
  });

  test("page sizes, previous and next, and quick filters are links", async ({ page }) => {
    await startSession(page, USERS.admin);
    await page.goto(`/cases?filter.matter_id=${seeded.alpha}&sort=case_number`);
    await page.getByTestId("page-controls").getByRole("link", { name: "10", exact: true }).click();
    await expect(page).toHaveURL(`/cases?filter.matter_id=${seeded.alpha}&sort=case_number&size=10`);
    expect(await caseNumbers(page)).toEqual(alphaNumbers.slice(0, 10));
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2&size=10&after=[\w-]+$/);
    expect(await caseNumbers(page)).toEqual(alphaNumbers.slice(10));
    // The same page by its number alone, as a bookmark without the cursor.
    const byCursor = await caseNumbers(page);
    await page.goto(page.url().replace(/&after=[\w-]+$/, ""));
    expect(await caseNumbers(page)).toEqual(byCursor);

    await page.getByTestId("quick-filters").getByRole("link", { name: "Recent" }).click();
    await expect(page).toHaveURL(`/cases?quick=recent&filter.matter_id=${seeded.alpha}&sort=case_number&size=10`);
    await expect(page.getByTestId("quick-filters").getByRole("link", { name: "Recent" })).toHaveAttribute("aria-current", "true");
    expect(await caseNumbers(page)).toEqual(alphaNumbers.slice(0, 10));

    await page.goto("/clients?q=Tbl");
    expect(await rowTexts(page)).toHaveLength(2);
    await page.getByTestId("quick-filters").getByRole("link", { name: "Not Mapped" }).click();
    await expect(page).toHaveURL("/clients?q=Tbl&quick=notMapped");
    const mapped = await rowTexts(page);
    expect(mapped).toHaveLength(1);
    expect(mapped[0]).toContain("Tbl Lonely Client");
    // Quick filters only where they mean something: ignored cases have no Not Mapped, ECFX's
    // court list has neither a creation time nor a mapping (and firms cannot add to it).
    await page.goto("/ignored-cases");
    await expect(page.getByTestId("quick-filters").getByRole("link")).toHaveText(["All", "Recent"]);
    await page.goto("/ecfx-jurisdictions?filter.id=nysd");
    await expect(page.getByTestId("resource-table").locator("tbody tr")).toHaveCount(1);
    await expect(page.getByTestId("resource-table")).toContainText("Southern District of New York");
    await expect(page.getByTestId("quick-filters")).toHaveCount(0);
    await expect(page.getByRole("link", { name: /^New / })).toHaveCount(0);
  });

  test("exports the filtered rows, all pages of them, as the named CSV file", async ({ page }) => {
    await startSession(page, USERS.admin);
    await page.goto(`/cases?filter.matter_id=${seeded.alpha}&size=10`);
    const exporter = page.getByTestId("export-form");
    await exporter.locator("summary").click();
    await exporter.getByLabel("File name").fill("alpha cases");
    const [download] = await Promise.all([page.waitForEvent("download"), exporter.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toBe("alpha cases.csv");
    const records = readDownload(await download.path());
    // Columns carry the names the table shows; a reference's id sits beside its title.
    expect(records.map((r) => r["Case number"]).sort()).toEqual(alphaNumbers);
    expect(records.every((r) => r["Matter (ID)"] === seeded.alpha)).toBe(true);
    expect(records.find((r) => r["Case number"] === "2:26-cv-203")).toBeUndefined();

    // The server checks the name too.
    await page.goto(`/cases/export?filename=%20&filter.matter_id=${seeded.alpha}`);
    await expect(page).toHaveURL(`/cases?filter.matter_id=${seeded.alpha}`);
    await expect(page.locator("[data-toast=error]")).toHaveText("Filename required");
  });

  test("the Columns form hides a column for this user only", async ({ page, browser }) => {
    await startSession(page, USERS.admin);
    await page.goto("/cases");
    const columns = page.getByTestId("columns-form");
    await columns.locator("summary").click();
    await columns.getByLabel("Jurisdiction").uncheck();
    await columns.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL("/cases");
    await expect(page.getByTestId("resource-table").locator("th[data-field=jurisdiction_id]")).toHaveCount(0);
    await expect(page.getByTestId("resource-table").locator("th[data-field=matter_id]")).toHaveCount(1);

    const manager = await browser.newContext({ javaScriptEnabled: false });
    const managerPage = await manager.newPage();
    await startSession(managerPage, USERS.manager);
    await managerPage.goto("/cases");
    await expect(managerPage.getByTestId("resource-table").locator("th[data-field=jurisdiction_id]")).toHaveCount(1);
    await manager.close();

    await columns.locator("summary").click();
    await columns.getByRole("button", { name: "Reset layout" }).click();
    await expect(page.getByTestId("resource-table").locator("th[data-field=jurisdiction_id]")).toHaveCount(1);
  });

  test("the Striped rows form saves the firm's preference", async ({ page }) => {
    await startSession(page, USERS.admin);
    await page.goto("/practice-groups");
    await expect(page.getByTestId("resource-table")).not.toHaveAttribute("data-striped", /.+/);
    const form = page.getByTestId("striped-form");
    // The switch's checkbox is drawn over by its track: the label is what a person clicks.
    await form.getByText("Striped rows").click();
    await form.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL("/practice-groups");
    await expect(page.getByTestId("resource-table")).toHaveAttribute("data-striped", "odd");
    await expect(form.getByLabel("Striped rows")).toBeChecked();
    await form.getByText("Striped rows").click();
    await expect(form.getByLabel("Striped rows")).not.toBeChecked();
    await form.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("resource-table")).not.toHaveAttribute("data-striped", /.+/);
  });

  test("the users table names each user's role, and filters by it", async ({ page }) => {
    await startSession(page, USERS.admin);
    await page.goto("/users?filter.email=viewonly");
    const table = page.getByTestId("resource-table");
    await expect(table.getByRole("cell", { name: "View Only" })).toBeVisible();
    await expect(table.getByText(/^[0-9a-f-]{36}$/)).toHaveCount(0);
  });
});

test.describe("tables with JavaScript", () => {
  test("the interactive table sorts, filters and pages through the URL", async ({ page, browser }) => {
    await startSession(page, USERS.admin);
    await page.goto(`/cases?filter.matter_id=${seeded.alpha}`);
    const table = page.getByTestId("resource-table");
    await expect(table).toHaveAttribute("data-renderer", "interactive");
    await expect(table).toContainText("Tbl Alpha Matter");

    await page.getByRole("button", { name: "Sort by Case number ascending" }).click();
    await expect(page).toHaveURL(`/cases?filter.matter_id=${seeded.alpha}&sort=case_number`);
    await expect.poll(() => caseNumbers(page)).toEqual(alphaNumbers);

    await page.getByPlaceholder("Filter by Status").click();
    await page.getByRole("option", { name: "Closed" }).click();
    await expect(page).toHaveURL(`/cases?filter.matter_id=${seeded.alpha}&filter.status=closed&sort=case_number`);
    await expect.poll(() => caseNumbers(page)).toEqual(["2:26-cv-200", "2:26-cv-204", "2:26-cv-208", "2:26-cv-212", "2:26-cv-216", "2:26-cv-220"]);

    await page.goto(`/cases?filter.matter_id=${seeded.alpha}&sort=case_number`);
    await page.locator("[aria-labelledby=rpp-label]").click();
    await page.getByRole("option", { name: "10", exact: true }).click();
    await expect(page).toHaveURL(`/cases?filter.matter_id=${seeded.alpha}&sort=case_number&size=10`);
    await expect.poll(() => caseNumbers(page)).toEqual(alphaNumbers.slice(0, 10));
    await page.getByRole("button", { name: "Go to next page" }).click();
    // The page number, and the API's cursor of the page after the one shown (decision 121).
    await expect(page).toHaveURL(new RegExp(`/cases\\?filter.matter_id=${seeded.alpha}&sort=case_number&page=2&size=10&after=[\\w-]+$`));
    await expect.poll(() => caseNumbers(page)).toEqual(alphaNumbers.slice(10));
    await page.getByRole("button", { name: "Go to previous page" }).click();
    await expect(page).toHaveURL(`/cases?filter.matter_id=${seeded.alpha}&sort=case_number&size=10`);
    await expect.poll(() => caseNumbers(page)).toEqual(alphaNumbers.slice(0, 10));

    // Every word must start a word of the row: "22" finds cases 220 to 229 and "Tbl Case 22".
    await page.getByPlaceholder("Search", { exact: true }).fill("Tbl Case 22");
    await expect(page).toHaveURL(`/cases?q=Tbl+Case+22&filter.matter_id=${seeded.alpha}&sort=case_number&size=10`);
    await expect.poll(() => caseNumbers(page)).toEqual(["2:26-cv-220", "2:26-cv-222"]);

    const shared = page.url();
    const other = await freshPage(browser, true);
    await other.goto(shared);
    await expect(other.getByTestId("resource-table")).toHaveAttribute("data-renderer", "interactive");
    await expect.poll(() => caseNumbers(other)).toEqual(["2:26-cv-220", "2:26-cv-222"]);
    await other.context().close();

    await page.getByTestId("quick-filters").getByRole("link", { name: "Recent" }).click();
    await expect(page).toHaveURL(`/cases?q=Tbl+Case+22&quick=recent&filter.matter_id=${seeded.alpha}&sort=case_number&size=10`);
  });

  test("a shared URL keeps its page, size, sort, search and filters through hydration and reload", async ({ page }) => {
    await signedIn(page, USERS.admin);
    const shared = `/cases?q=Tbl&filter.matter_id=${seeded.alpha}&sort=case_number&page=2&size=10`;
    await page.goto(shared);
    const table = page.getByTestId("resource-table");
    await expect(table).toHaveAttribute("data-renderer", "interactive");
    await expect.poll(() => caseNumbers(page)).toEqual(alphaNumbers.slice(10));
    // Hydration must not navigate: give the table's own effects and debounced inputs their time.
    await page.waitForTimeout(1500);
    await expect(page).toHaveURL(shared);
    await expect(page.getByRole("button", { name: "Go to next page" })).toBeDisabled();
    await page.reload();
    await expect(table).toHaveAttribute("data-renderer", "interactive");
    await page.waitForTimeout(1500);
    await expect(page).toHaveURL(shared);
    await expect.poll(() => caseNumbers(page)).toEqual(alphaNumbers.slice(10));
  });

  test("a date range filter waits for its second date", async ({ page }) => {
    await startSession(page, USERS.admin);
    await page.goto(`/cases?filter.matter_id=${seeded.alpha}&sort=case_number`);
    await expect(page.getByTestId("resource-table")).toHaveAttribute("data-renderer", "interactive");
    // A filter in the URL opens the filter row.
    const filed = page.getByRole("columnheader").filter({ hasText: "Filed date" });
    await filed.getByPlaceholder("From").fill("2026-02-03");
    await filed.getByPlaceholder("From").press("Tab");
    await expect(page.getByRole("alert").filter({ hasText: "Select two dates" })).toHaveText("Filed date: Select two dates");
    await expect(page).toHaveURL(`/cases?filter.matter_id=${seeded.alpha}&sort=case_number`);

    // A slow answer: the dates stay while the page loads, and nothing late brings the half range back.
    let slow = true;
    await page.route(/\/cases\?.*_data=/, async (route) => {
      if (slow) await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await filed.getByPlaceholder("To").fill("2026-02-07");
    await filed.getByPlaceholder("To").press("Tab");
    const ranged = `/cases?filter.matter_id=${seeded.alpha}&filter.filed_date=2026-02-03..2026-02-07&sort=case_number`;
    await expect(page).toHaveURL(ranged);
    await expect(filed.getByPlaceholder("From")).toHaveValue("2026-02-03");
    await expect(filed.getByPlaceholder("To")).toHaveValue("2026-02-07");
    await expect.poll(() => caseNumbers(page)).toEqual(["2:26-cv-202", "2:26-cv-204", "2:26-cv-206"]);
    await expect(page.getByRole("alert").filter({ hasText: "Select two dates" })).toHaveCount(0);
    await page.waitForTimeout(1500);
    await expect(page).toHaveURL(ranged);
    await expect(page.getByRole("alert").filter({ hasText: "Select two dates" })).toHaveCount(0);
    slow = false;

    // Clearing one end takes the range out of the URL and asks for the second date again.
    await filed.getByPlaceholder("To").fill("");
    await filed.getByPlaceholder("To").press("Tab");
    await expect(page.getByRole("alert").filter({ hasText: "Select two dates" })).toHaveText("Filed date: Select two dates");
    await expect(page).toHaveURL(`/cases?filter.matter_id=${seeded.alpha}&sort=case_number`);
    await expect.poll(() => caseNumbers(page)).toHaveLength(12);

    // Back brings the range, and its dates, back.
    await page.goBack();
    await expect(page).toHaveURL(ranged);
    await expect(filed.getByPlaceholder("To")).toHaveValue("2026-02-07");
    await expect.poll(() => caseNumbers(page)).toEqual(["2:26-cv-202", "2:26-cv-204", "2:26-cv-206"]);
  });

  test("export asks for a file name, then downloads the filtered rows", async ({ page }) => {
    await startSession(page, USERS.admin);
    await page.goto(`/cases?filter.matter_id=${seeded.beta}&sort=-case_number`);
    await expect(page.getByTestId("resource-table")).toHaveAttribute("data-renderer", "interactive");
    const exporter = page.getByTestId("export-form");
    await exporter.locator("summary").click();
    await expect(exporter.getByLabel("File name")).toHaveValue(/^cases-\d{4}-\d{2}-\d{2}$/);
    await exporter.getByLabel("File name").fill("");
    await exporter.getByRole("button", { name: "Download CSV" }).click();
    await expect(exporter).toContainText("Filename required");

    await exporter.getByLabel("File name").fill("beta");
    const [download] = await Promise.all([page.waitForEvent("download"), exporter.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toBe("beta.csv");
    const records = readDownload(await download.path());
    expect(records).toHaveLength(CASES_PER_MATTER);
    expect(records[0]!["Case number"]).toBe("2:26-cv-223");
    // A cell that would start a spreadsheet formula stays text.
    expect(records.find((r) => r["Case number"] === "2:26-cv-203")!["Case name"]).toBe("'=Tbl Formula Case");
  });

  test("the column layout is saved for the user and drawn by the server", async ({ page, browser }) => {
    await startSession(page, USERS.admin);
    await page.goto("/cases");
    await expect(page.getByTestId("resource-table")).toHaveAttribute("data-renderer", "interactive");
    await page.getByRole("button", { name: "Show/Hide columns" }).click();
    const saved = page.waitForResponse((r) => r.request().method() === "POST" && (r.request().postData() ?? "").includes("intent=layout"));
    await page.getByRole("menu").getByText("Filed date").click();
    expect((await saved).status()).toBe(200);

    const plain = await freshPage(browser, false);
    await plain.goto("/cases");
    await expect(plain.getByTestId("resource-table").locator("th[data-field=filed_date]")).toHaveCount(0);
    await expect(plain.getByTestId("resource-table").locator("th[data-field=case_number]")).toHaveCount(1);
    await plain.context().close();

    const admin = await apiAs(USERS.admin);
    expect((await admin.remove("/api/v1/preferences/table.cases")).status).toBe(204);
  });

  test("the Striped rows switch saves the firm's preference at once", async ({ page, browser }) => {
    await startSession(page, USERS.admin);
    await page.goto("/clients");
    const table = page.getByTestId("resource-table");
    await expect(table).toHaveAttribute("data-renderer", "interactive");
    await expect(table).not.toHaveAttribute("data-striped", /.+/);
    const saved = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/clients"));
    await page.getByText("Striped rows").click();
    await saved;
    await expect(table).toHaveAttribute("data-striped", "odd");
    await page.reload();
    await expect(table).toHaveAttribute("data-striped", "odd");
    await expect(table.locator("tbody tr").first()).toHaveAttribute("data-striped", "odd");

    // Managers read the firm settings but may not change them: striped rows, no switch.
    const manager = await browser.newContext();
    const managerPage = await manager.newPage();
    await startSession(managerPage, USERS.manager);
    await managerPage.goto("/clients");
    await expect(managerPage.getByTestId("resource-table")).toHaveAttribute("data-renderer", "interactive");
    await expect(managerPage.getByText("Striped rows")).toHaveCount(0);
    await manager.close();

    const admin = await apiAs(USERS.admin);
    expect((await admin.put("/api/v1/firm/web-preferences", { web_preferences: "{}" })).status).toBe(200);
  });
});
