import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type Page, expect, test } from "@playwright/test";
import { API_URL, SLOW_WAIT, USERS, apiCreate, apiFetch, apiToken, signedIn } from "./helpers";

const fixture = path.join(import.meta.dirname, "../fixtures/notices/nef-folded-subject.eml");

/** The N.D. Cal. notice for 3:24-cv-00456 as a new message, once it waits for its case. */
async function uploadNotice(page: Page, label: string) {
  const token = await apiToken();
  const raw = fs.readFileSync(fixture, "latin1").replace(/^Message-I[Dd]:.*$/m, `Message-ID: <${label}@e2e.test>`);
  const upload = await apiFetch(`${API_URL}/api/v1/inbox/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "message/rfc822" },
    body: Buffer.from(raw, "latin1"),
  });
  expect(upload.status).toBe(201);
  const itemId = ((await upload.json()) as { id: string }).id;
  await signedIn(page, USERS.docketing);
  await expect(async () => {
    await page.goto(`/inbox-items/id/${itemId}`);
    await expect(page.getByTestId("card-status")).toHaveText("Action Required", { timeout: 1000 });
  }).toPass(SLOW_WAIT);
}

/** A case of another number and court than the notice's. */
async function otherCase(label: string) {
  const token = await apiToken();
  const jurisdiction = await apiCreate(token, "/api/v1/jurisdiction", { name: `W.D. Tex. ${label}`, ecfx_jurisdictions: ["txwd"] });
  const timekeeper = await apiCreate(token, "/api/v1/timekeeper", { full_name: `Keeper ${label}`, email: `${label}@lawfirm.test` });
  const client = await apiCreate(token, "/api/v1/client", { name: `Client ${label}`, unique_key: `C-${label}` });
  const matter = await apiCreate(token, "/api/v1/matter", { name: `Matter ${label}`, unique_key: `M-${label}`, client_id: client });
  await apiCreate(token, "/api/v1/case", {
    name: `Mismatch ${label} v. Card`,
    case_number: "5:24-cv-09911",
    matter_id: matter,
    jurisdiction_id: jurisdiction,
    assigned_timekeepers: [timekeeper],
  });
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`a notice without its case, with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a case of another number and court is warned about and used only once confirmed", async ({ page }) => {
      const label = `mismatch${randomBytes(4).toString("hex")}`;
      await otherCase(label);
      await uploadNotice(page, label);

      const picker = page.getByTestId("case-picker");
      await picker.getByLabel("Find a case by number or name").fill(`Mismatch ${label}`);
      await picker.getByRole("button", { name: "Search" }).click();
      await expect(picker.getByLabel("Case", { exact: true })).toContainText(`Mismatch ${label} v. Card`);
      await picker.getByRole("button", { name: "Process onto this case" }).click();

      const warning = page.getByTestId("case-mismatch");
      await expect(warning).toContainText("3:24-cv-00456-AB (cand)");
      await expect(warning).toContainText(`5:24-cv-09911 (W.D. Tex. ${label})`);
      await expect(page.getByTestId("card-status")).toHaveText("Action Required");

      await warning.getByRole("button", { name: "Process onto this case anyway" }).click();
      await expect(page.getByText("The notice is being processed again.")).toBeVisible();
      await expect(async () => {
        await page.reload();
        await expect(page.getByTestId("card-case")).toContainText(`Mismatch ${label} v. Card`, { timeout: 1000 });
      }).toPass(SLOW_WAIT);
    });

    test("a notice whose case was not found opens the case wizard filled from it", async ({ page }) => {
      await uploadNotice(page, `create${randomBytes(4).toString("hex")}`);
      await page.getByTestId("card-create-case").click();
      await expect(page).toHaveURL(/\/cases\/new\?/);
      await expect(page.locator('input[name="case_number"]')).toHaveValue("3:24-cv-00456");
      await expect(page.locator('input[name="name"]')).toHaveValue("Martínez v. Pacific Coast Shipping Corp.");
    });
  });
}
