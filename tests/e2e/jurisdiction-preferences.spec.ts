import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type Page, expect, test } from "@playwright/test";
import { field, open, pick, press } from "./forms";
import { API_URL, USERS, apiCreate, apiToken, apiFetch, startSession } from "./helpers";

// Jurisdiction groups, jurisdiction preferences and document processing settings, with
// JavaScript off and on: made through their wizards, the preferences reordered with the move
// buttons (and by dragging a row), the §5 wait rule said on its field, and the inbox card naming
// the preference that applied to a notice.

const fixture = path.join(import.meta.dirname, "../fixtures/notices/nef-district-qp-utf8.eml");
const details = (page: Page) => page.getByTestId("record-details");
const value = (page: Page, name: string) => details(page).locator(`tr[data-field="${name}"] td`);
/** The names of the order panel's rows, top to bottom, among those given. */
const orderOf = async (page: Page, names: string[]) =>
  (
    await page
      .getByTestId("preference-order")
      .locator("tr[data-preference]")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-preference") ?? ""))
  ).filter((name) => names.includes(name));

async function apiPut(route: string, body: unknown) {
  const res = await apiFetch(`${API_URL}${route}`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${await apiToken()}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

for (const js of [false, true]) {
  test.describe(`jurisdiction preferences, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });
    const tag = randomBytes(3).toString("hex");
    const names = { court: `Pref Court ${tag}`, group: `Pref Group ${tag}`, preference: `Pref ${tag}`, setting: `Stamp ${tag}` };

    test.beforeAll(async () => {
      const token = await apiToken();
      await apiCreate(token, "/api/v1/jurisdiction", { name: names.court, ecfx_jurisdictions: ["txed"] });
    });

    test.beforeEach(async ({ page }) => {
      await startSession(page, USERS.admin);
    });

    test("a jurisdiction group, then a preference on it", async ({ page }) => {
      await open(page, js, "/jurisdiction-groups/new");
      await press(page, "Create");
      await expect(page.getByText("This field is required.")).toBeVisible();
      await field(page, "Name").fill(names.group);
      await pick(page, js, "Jurisdictions", names.court);
      await press(page, "Create");
      await expect(value(page, "name")).toHaveText(names.group);
      await expect(value(page, "jurisdiction_references")).toContainText(names.court);

      await open(page, js, "/jurisdiction-preferences/new");
      await field(page, "Name").fill(names.preference);
      await field(page, "Enabled").check();
      await press(page, "Next");
      await pick(page, js, "Jurisdiction groups", names.group);
      await field(page, "Party e-mail domains").fill("not a domain");
      await press(page, "Next");
      await expect(page.getByText("Enter a valid domain such as example.com.")).toBeVisible();
      await field(page, "Party e-mail domains").fill(`party-${tag}.test`);
      await press(page, "Next");
      await press(page, "Create");
      await expect(value(page, "name")).toHaveText(names.preference);
      await expect(value(page, "jurisdiction_groups")).toContainText(names.group);
      await expect(value(page, "party_email_domains")).toHaveText(`party-${tag}.test`);
    });

    test(js ? "reordering by dragging a row, and by the move buttons" : "reordering by the move buttons", async ({ page }) => {
      const token = await apiToken();
      const three = [`Alpha ${tag}`, `Bravo ${tag}`, `Charlie ${tag}`];
      for (const name of three) await apiCreate(token, "/api/v1/jurisdiction-preference", { name });
      await open(page, js, "/jurisdiction-preferences");
      expect(await orderOf(page, three)).toEqual(three);

      await page.getByRole("button", { name: `Move Charlie ${tag} up`, exact: true }).click();
      await expect(page.getByText("Order of the jurisdiction preferences saved.")).toBeVisible();
      expect(await orderOf(page, three)).toEqual([`Alpha ${tag}`, `Charlie ${tag}`, `Bravo ${tag}`]);

      if (js) {
        const row = (name: string) => page.getByTestId("preference-order").locator(`tr[data-preference="${name}"]`);
        await expect(page.getByTestId("preference-order")).toHaveAttribute("data-hydrated", "true");
        await row(`Bravo ${tag}`).dragTo(row(`Alpha ${tag}`));
        await expect(page.getByText("Order of the jurisdiction preferences saved.").first()).toBeVisible();
        await expect.poll(() => orderOf(page, three)).toEqual([`Bravo ${tag}`, `Alpha ${tag}`, `Charlie ${tag}`]);
      }
    });

    test("document processing: the wait before an unstamped release stays below the max wait", async ({ page }) => {
      await open(page, js, "/document-processing/new");
      await field(page, "Name").fill(names.setting);
      await field(page, "Wait for the court's stamp").check();
      await field(page, "Max minutes wait for stamp").fill("10");
      await field(page, "Release unstamped while waiting").check();
      await field(page, "Minutes wait before unstamped release").fill("30");
      await press(page, "Next");
      await expect(page.getByText("The wait value must be below max minutes wait for stamp")).toBeVisible();
      await field(page, "Minutes wait before unstamped release").fill("5");
      await press(page, "Next");
      // The next step's Next is another button: pressed before the step shows, it would press this one.
      await expect(field(page, "Minutes wait before unstamped release")).toBeHidden();
      await press(page, "Next");
      await field(page, "Provider client secret").fill(`s3cret-${tag}`);
      await press(page, "Create");
      await expect(value(page, "name")).toHaveText(names.setting);
      await expect(value(page, "minutes_wait_before_unstamped_release")).toHaveText("5");
      // The secret is never sent back to the browser, only that it is set.
      await expect(value(page, "extraction_client_secret")).toHaveText("********");
      expect(await page.content()).not.toContain(`s3cret-${tag}`);
    });

    test("the inbox card names the preference that applied, with a link to it", async ({ page }) => {
      const token = await apiToken();
      const name = `Card ${tag}`;
      const preference = await apiCreate(token, "/api/v1/jurisdiction-preference", { name, enabled: true });
      await apiPut("/api/v1/jurisdiction-preference/order", { ids: [preference] });
      const raw = fs.readFileSync(fixture, "latin1").replace(/^Message-I[Dd]:.*$/m, `Message-ID: <pref-${tag}@e2e.test>`);
      const upload = await apiFetch(`${API_URL}/api/v1/inbox/upload`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "message/rfc822" },
        body: Buffer.from(raw, "latin1"),
      });
      expect(upload.status).toBe(201);
      const id = ((await upload.json()) as { id: string }).id;
      const card = async () =>
        ((await (await apiFetch(`${API_URL}/api/v1/inbox/${id}/card`, { headers: { authorization: `Bearer ${token}` } })).json()) as { preference: unknown })
          .preference;
      await expect.poll(card).toEqual({ id: preference, name });

      await page.goto(`/inbox-items/id/${id}`);
      const shown = page.getByTestId("card-preference");
      await expect(shown).toContainText(name);
      await shown.getByRole("link", { name }).click();
      await expect(page).toHaveURL(new RegExp(`/jurisdiction-preferences/${preference}$`));
      await expect(value(page, "name")).toHaveText(name);
    });
  });
}
