import { type Page, expect, test } from "@playwright/test";
import fs from "node:fs";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { SLOW_WAIT, API_URL, PASSWORD, USERS, apiToken, apiFetch, startSession } from "./helpers";

// Importing a clients file from the console, with and without JavaScript: the report names the
// bad line and why, a second import of the same file updates instead of duplicating, and a file
// the export downloaded can be edited and imported back.

const txt = (name: string, text: string) => ({ name, mimeType: "text/plain", buffer: Buffer.from(text) });

async function clientsWithKeyPrefix(prefix: string): Promise<{ unique_key: string; name: string }[]> {
  const login = await apiFetch(`${API_URL}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: USERS.admin, password: PASSWORD }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const found = await apiFetch(`${API_URL}/api/v1/client/search?max=100&sort=unique_key&filter.unique_key=${encodeURIComponent(prefix)}`, {
    headers: { authorization: `Bearer ${access_token}` },
  });
  return (await found.json()) as { unique_key: string; name: string }[];
}

async function upload(page: Page, file: ReturnType<typeof txt>, button = "Import") {
  await page.getByLabel("File (.txt or .csv)").setInputFiles(file);
  await page.getByRole("button", { name: button, exact: true }).click();
}

async function expectCounts(page: Page, counts: Record<string, number>) {
  await expect(page.getByText("Import finished")).toBeVisible(SLOW_WAIT);
  for (const [key, value] of Object.entries(counts)) await expect(page.getByTestId(`import-count-${key}`)).toContainText(String(value));
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`import with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });
    const prefix = javaScriptEnabled ? "E2E-JS-" : "E2E-NOJS-";

    test("imports clients, reports the bad line, and updates on a re-import", async ({ page }) => {
      await startSession(page, USERS.admin);
      await page.goto("/clients/import");
      await expect(page.getByTestId("import-header")).toHaveText("name,unique_key,reference_id,status,open_date,originating_timekeeper_id,storage_policy_id");
      const file = txt("clients.txt", `name,unique_key,status\nAlpha ${prefix},${prefix}1,active\nBeta ${prefix},${prefix}2,closed\n,${prefix}3,active\n`);

      await upload(page, file);
      await expect(page).toHaveURL(/\/clients\/import\?job=/);
      await expectCounts(page, { total: 3, created: 2, updated: 0, rejected: 1 });
      const bad = page.getByTestId("import-line-4");
      await expect(bad).toContainText("Rejected");
      await expect(bad).toContainText(`${prefix}3`);
      await expect(bad).toContainText("Name: This field is required.");
      await expect(page.getByTestId("import-line-2")).toContainText("Created");

      await page.getByRole("link", { name: "Import another file" }).click();
      await upload(page, file);
      await expectCounts(page, { created: 0, updated: 2, rejected: 1 });
      await expect(page.getByTestId("import-line-2")).toContainText("Updated");
      expect((await clientsWithKeyPrefix(prefix)).map((c) => c.unique_key)).toEqual([`${prefix}1`, `${prefix}2`]);

      await page.getByRole("link", { name: "Back to Clients" }).click();
      await expect(page).toHaveURL(/\/clients$/);
    });

    test("downloads an export under a dated name, and imports it back once edited", async ({ page }) => {
      const key = `${prefix}RT-`;
      const token = await apiToken();
      for (const n of [1, 2]) {
        const created = await apiFetch(`${API_URL}/api/v1/client`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ name: `Round ${n} ${prefix}`, unique_key: `${key}${n}` }),
        });
        expect(created.status).toBe(201);
      }
      await startSession(page, USERS.admin);
      await page.goto(`/clients?filter.unique_key=${encodeURIComponent(key)}`);
      await page.getByTestId("export-form").locator("summary").click();
      if (javaScriptEnabled) await expect(page.locator("form[data-testid=export-download][data-hydrated]")).toBeAttached();
      const name = page.getByLabel(/^File name/);
      await expect(name).toHaveValue(/^clients-\d{4}-\d{2}-\d{2}$/);
      const downloading = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download CSV" }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(`${await name.inputValue()}.csv`);

      const text = fs.readFileSync((await download.path())!, "utf8");
      const [header = [], ...rows] = parse(text.replace(/^\uFEFF/, "")) as string[][];
      expect(header.slice(0, 3)).toEqual(["ID", "Name", "Client number"]);
      expect(rows.map((r) => r[2]).sort()).toEqual([`${key}1`, `${key}2`]);
      const first = rows.find((r) => r[2] === `${key}1`)!;
      first[1] = `Edited ${prefix}`;

      await page.goto("/clients/import");
      if (javaScriptEnabled) await expect(page.locator("form[data-hydrated]")).toBeAttached();
      await upload(page, { name: download.suggestedFilename(), mimeType: "text/csv", buffer: Buffer.from(stringify([header, ...rows])) });
      await expectCounts(page, { total: 2, created: 0, updated: 2, rejected: 0 });
      const stored = await clientsWithKeyPrefix(key);
      expect(stored.map((c) => [c.unique_key, c.name])).toEqual([
        [`${key}1`, `Edited ${prefix}`],
        [`${key}2`, `Round 2 ${prefix}`],
      ]);
    });

    test("asks to confirm a file over the firm's warning threshold", async ({ page }) => {
      await startSession(page, USERS.admin);
      await page.goto("/clients/import");
      const lines = Array.from({ length: 1001 }, (_, i) => `Bulk ${i},${prefix}B${String(i).padStart(4, "0")}`);
      const file = txt("bulk.txt", ["name,unique_key", ...lines].join("\n"));
      await upload(page, file);
      await expect(page.getByTestId("import-confirm")).toContainText(
        "This file has 1001 lines, more than your firm's import warning threshold of 1000. Confirm to import it.",
      );
      let documentLoads = 0;
      page.on("load", () => documentLoads++);
      if (javaScriptEnabled) {
        // The chosen file is still in the form.
        await page.getByRole("button", { name: "Import anyway" }).click();
      } else {
        await expect(page.getByTestId("import-confirm")).toContainText("Choose the same file again, then confirm.");
        await upload(page, file, "Import anyway");
      }
      await expectCounts(page, { total: 1001, created: 1001, rejected: 0 });
      // A document's load event comes after its text is on screen (styles and images first).
      await page.waitForLoadState("load");
      // With JavaScript the progress is polled; the reload meant for pages without it never runs.
      if (javaScriptEnabled) expect(documentLoads).toBe(0);
      else expect(documentLoads).toBeGreaterThanOrEqual(1);
    });

    test("refuses a file that is not .txt or .csv, an empty file and no file, in the spec's terms", async ({ page }) => {
      await startSession(page, USERS.admin);
      await page.goto("/clients/import");
      await upload(page, txt("clients.xlsx", "name,unique_key\nA,B\n"));
      await expect(page.getByText("Import files must be .txt or .csv files of comma-separated values.")).toBeVisible();
      await upload(page, txt("empty.txt", ""));
      await expect(page.getByText("The file is empty. An import file needs a header row and at least one line.")).toBeVisible();
      await page.getByLabel("File (.txt or .csv)").setInputFiles([]);
      await page.getByRole("button", { name: "Import", exact: true }).click();
      await expect(page.getByText("No file was chosen. Choose a .txt or .csv file to import.")).toBeVisible();
      await upload(page, txt("semicolons.txt", "name;unique_key\nA;B\n"));
      await expect(page.getByText("The file is not comma-separated: its header row has a single column.", { exact: false })).toBeVisible();
    });
  });
}

test("a role that may only read clients cannot open their import", async ({ page }) => {
  await startSession(page, USERS.viewonly);
  await page.goto("/clients/import");
  await expect(page).toHaveURL(/\/success$/);
});
