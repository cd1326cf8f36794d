import { type Page, expect, test } from "@playwright/test";
import { field, open, press } from "./forms";
import { API_URL, USERS, apiToken, apiFetch, startSession } from "./helpers";

// /dictionary: the firm's own words for the catalogue, with JavaScript on and off. A page title
// and a table header changed here show at once on the pages that use them, and go back on reset.

const TOUCHED = ["resources/clients.title", "common/pages.clients", "resources/clients.fields.unique_key", "errors/userExists"];

async function resetAll() {
  const token = await apiToken();
  for (const entry of TOUCHED) {
    const res = await apiFetch(`${API_URL}/api/v1/dictionary/${entry}`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(204);
  }
}

test.afterEach(resetAll);

/** Opens the entry from the dictionary's search, as a person finds it. */
async function findEntry(page: Page, js: boolean, q: string, area: string, entry: string) {
  // Reached from the drawer, among the firm's settings.
  await open(page, js, "/firm-information");
  await page.locator("nav.mantine-AppShell-navbar").getByRole("link", { name: "Dictionary", exact: true }).click();
  await expect(page).toHaveURL(/\/dictionary$/);
  await field(page, "Key or text").fill(q);
  await field(page, "Area").selectOption(area);
  await press(page, "Search");
  await expect(page).toHaveURL(new RegExp(`q=${q.replace(/\./g, "\\.")}`));
  const row = page.locator(`[data-entry="${entry}"]`);
  await expect(row).toBeVisible();
  await row.getByRole("link").click();
  await expect(page.getByTestId("page-title")).toHaveText("Dictionary entry");
}

for (const js of [false, true]) {
  test.describe(`dictionary ${js ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled: js });

    test("search finds an entry; its new words rename the page title and drawer at once, and reset brings them back", async ({ page }) => {
      await startSession(page, USERS.admin);
      await findEntry(page, js, "clients.title", "resources", "resources:clients.title");
      await expect(page.getByTestId("dictionary-default")).toHaveText("Clients");
      await field(page, "Text").fill("Customers");
      await press(page, "Save");
      await expect(page.getByText("The entry now reads in the firm's words.")).toBeVisible();

      await open(page, js, "/clients");
      await expect(page.getByTestId("page-title")).toHaveText("Customers");
      await expect(page).toHaveTitle("Customers · ECFX");

      // The drawer names the page with an entry of its own.
      await open(page, js, "/dictionary/edit?namespace=common&key=pages.clients");
      await field(page, "Text").fill("Our customers");
      await press(page, "Save");
      await expect(page.getByText("The entry now reads in the firm's words.")).toBeVisible();
      await expect(page.getByRole("link", { name: "Our customers", exact: true })).toBeVisible();

      // The list shows the entries as changed, and only them under "Changed by the firm".
      await page.goto("/dictionary?show=overridden");
      await expect(page.locator("[data-entry]")).toHaveCount(2);
      await expect(page.locator('[data-entry="resources:clients.title"]')).toContainText("Customers");

      await open(page, js, "/dictionary/edit?namespace=resources&key=clients.title");
      await press(page, "Reset to default");
      await expect(page.getByText("The entry is back to its default text.")).toBeVisible();
      await open(page, js, "/clients");
      await expect(page.getByTestId("page-title")).toHaveText("Clients");
      await expect(page).toHaveTitle("Clients · ECFX");
    });

    test("a table header takes the firm's words at once", async ({ page }) => {
      await startSession(page, USERS.admin);
      await findEntry(page, js, "clients.fields.unique_key", "resources", "resources:clients.fields.unique_key");
      await field(page, "Text").fill("Customer code");
      await press(page, "Save");
      await expect(page.getByText("The entry now reads in the firm's words.")).toBeVisible();
      await page.goto("/clients");
      await expect(page.getByRole("columnheader", { name: /Customer code/ }).first()).toBeVisible();
      await expect(page.getByRole("columnheader", { name: /Client number/ })).toHaveCount(0);
    });

    test("a text with an unknown placeholder is refused in the catalogue's words and not stored", async ({ page }) => {
      await startSession(page, USERS.admin);
      await open(page, js, "/dictionary/edit?namespace=errors&key=userExists");
      await field(page, "Text").fill("{{email}} works at {{firm}}");
      await press(page, "Save");
      await expect(page.getByRole("alert").filter({ hasText: "Unknown placeholder {{firm}}: this text may use only {{email}}." })).toBeVisible();
      await expect(field(page, "Text")).toHaveValue("{{email}} works at {{firm}}");
      await page.goto("/dictionary?show=overridden");
      await expect(page.locator("[data-entry]")).toHaveCount(0);
    });

    test("an import changes every line of a good file and nothing of a file with a bad line", async ({ page }) => {
      await startSession(page, USERS.admin);
      await open(page, js, "/dictionary");
      const bad = "Namespace,Key,Text\ncommon,pages.clients,Customers\ncommon,no.such.key,Anything\n";
      await page.getByLabel("File").setInputFiles({ name: "dictionary.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
      await press(page, "Import");
      await expect(page.getByTestId("dictionary-import-errors")).toContainText("Line 3: The dictionary has no entry common:no.such.key.");
      await page.goto("/dictionary?show=overridden");
      await expect(page.locator("[data-entry]")).toHaveCount(0);

      const good = "Namespace,Key,Text\ncommon,pages.clients,Customers\n";
      await page.getByLabel("File").setInputFiles({ name: "dictionary.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
      await press(page, "Import");
      await expect(page.getByText("Dictionary imported: 1 entry changed.")).toBeVisible();
      await expect(page.getByTestId("page-title")).toHaveText("Dictionary");
      await page.goto("/dictionary?show=overridden");
      await expect(page.locator('[data-entry="common:pages.clients"]')).toContainText("Customers");
    });

    test("the export downloads every entry as CSV", async ({ page }) => {
      await startSession(page, USERS.admin);
      await open(page, js, "/dictionary");
      const response = await page.request.get("/dictionary/export");
      expect(response.status()).toBe(200);
      expect(response.headers()["content-disposition"]).toMatch(/dictionary-\d{4}-\d{2}-\d{2}\.csv/);
      expect(await response.text()).toContain("common,pages.clients,Clients,Clients");
    });

    test("a role that may read the firm sees the dictionary without forms; one without firm access goes to /success", async ({ page }) => {
      await startSession(page, USERS.manager);
      await page.goto("/dictionary/edit?namespace=common&key=pages.clients");
      await expect(page.getByText("Your role may read the dictionary but not change it.")).toBeVisible();
      await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
      await page.goto("/dictionary");
      await expect(page.getByRole("button", { name: "Import" })).toHaveCount(0);
      await page.context().clearCookies();
      await startSession(page, USERS.viewonly);
      await page.goto("/dictionary");
      await expect(page).toHaveURL(/\/success$/);
    });
  });
}
