import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { field, open, pick, press } from "./forms";
import { SLOW_WAIT, API_URL, USERS, apiCreate, apiToken, apiFetch, startSession } from "./helpers";

// Ethical walls in the console: the firm's switch and its state above the walls' table, and a
// wall made through the wizard, without JavaScript (every step a real POST).

const tag = randomBytes(4).toString("hex");
const names = { client: `Walled Client ${tag}`, matter: `Walled Matter ${tag}`, keeper: `Wanda Wall ${tag}`, wall: `Wall ${tag}` };

const post = apiCreate;

test.beforeAll(async () => {
  const token = await apiToken();
  const client = await post(token, "/api/v1/client", { name: names.client, unique_key: `WC-${tag}` });
  await post(token, "/api/v1/matter", { name: names.matter, unique_key: `WM-${tag}`, client_id: client });
  await post(token, "/api/v1/timekeeper", { full_name: names.keeper, email: `wall-${tag}@lawfirm.test` });
});

// Other files do not expect walls to hold: leave them off.
test.afterAll(async () => {
  const token = await apiToken();
  await apiFetch(`${API_URL}/api/v1/firm/internal-walls`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ enabled: false }),
  });
});

test.describe("ethical walls without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("turn walls on, see the state follow, and build a wall through the wizard", async ({ page }) => {
    await startSession(page, USERS.admin);
    await open(page, false, "/ethical-walls");
    const walls = page.getByTestId("walls-switch");
    await expect(walls.getByTestId("walls-state")).toHaveText("Unapplied");
    await walls.getByLabel("Enforce ethical walls").check();
    await walls.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Ethical walls saved.")).toBeVisible();
    // The worker carries the change out within moments: Applying, then Applied.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("walls-state")).toHaveText("Applied");
    }).toPass(SLOW_WAIT);
    await expect(page.getByTestId("walls-switch").getByLabel("Enforce ethical walls")).toBeChecked();

    await open(page, false, "/ethical-walls/new");
    await field(page, "Name").fill(names.wall);
    await field(page, "Type").selectOption({ label: "Exclusionary" });
    await press(page, "Next");
    // Neither a matter nor a client: the step says what is missing.
    await expect(page.getByText("Choose a matter or a client")).toBeVisible();
    await pick(page, false, "Matter", names.matter);
    await press(page, "Next");
    await pick(page, false, "Timekeepers", names.keeper);
    await press(page, "Create");
    await expect(page.getByTestId("record-details")).toContainText(names.matter);
    await expect(page.getByTestId("record-details")).toContainText(names.keeper);

    await open(page, false, `/ethical-walls?q=${encodeURIComponent(tag)}`);
    await expect(page.getByTestId("resource-table")).toContainText(names.wall);
  });
});
