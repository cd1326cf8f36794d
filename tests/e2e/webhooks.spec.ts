import { randomBytes } from "node:crypto";
import { type Page, expect, test } from "@playwright/test";
import { field, open, press } from "./forms";
import { USERS, startSession } from "./helpers";

// Webhooks in the console, with JavaScript off and on: made through the wizard (with the
// messages of what is missing or refused), the signing secret shown once, a test event in the
// delivery log, filtered by status, and re-sent.

const details = (page: Page) => page.getByTestId("record-details");
const value = (page: Page, name: string) => details(page).locator(`tr[data-field="${name}"] td`);
const logRows = (page: Page) => page.getByTestId("webhook-delivery-log").locator("tbody tr");

for (const js of [false, true]) {
  test.describe(`webhooks, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });
    const name = `Hook ${randomBytes(3).toString("hex")}`;

    test.beforeEach(async ({ page }) => {
      await startSession(page, USERS.admin);
    });

    test("made through the wizard, then a test event in its log, re-sent", async ({ page }) => {
      await open(page, js, "/webhooks/new");
      await press(page, "Next");
      // Spec §5: name, URL and events required.
      await expect(page.getByText("This field is required.")).toHaveCount(2);
      await expect(page.getByText("Choose at least one event.")).toBeVisible();
      await field(page, "Name").fill(name);
      await field(page, "URL").fill("http://hooks.example.test/ecfx");
      await page.getByLabel("Notice received").check();
      await page.getByLabel("Documents stored").check();
      await press(page, "Next");
      await press(page, "Create");
      await expect(page.getByText("The webhook URL must be an https address.")).toBeVisible();
      await field(page, "URL").fill("https://hooks.example.test/ecfx");
      await press(page, "Next");
      await field(page, "Type").selectOption({ label: "BOOMI" });
      await press(page, "Create");
      await expect(value(page, "events")).toHaveText("Notice received, Documents stored");
      await expect(value(page, "type")).toHaveText("BOOMI");

      await page.getByTestId("webhook-deliveries-link").click();
      await expect(page).toHaveURL(/\/webhooks\/[^/]+\/deliveries$/);
      await press(page, "Show signing secret");
      await expect(page.getByTestId("webhook-secret")).toContainText("whsec_");
      await press(page, "Show signing secret");
      await expect(page.getByText("The signing secret was shown once already. Rotate it to get a new one.")).toBeVisible();

      await press(page, "Send test event");
      await expect(page.getByText("A test event is queued.").first()).toBeVisible();
      await expect(logRows(page)).toHaveCount(1);
      await expect(logRows(page).first()).toContainText("webhook.test");

      await logRows(page).first().getByRole("button", { name: "Re-send" }).click();
      await expect(page.getByText("A new delivery is queued.").first()).toBeVisible();
      await expect(logRows(page)).toHaveCount(2);

      // The filter is in the address: no delivery to a host that cannot be reached succeeds.
      await field(page, "Status").selectOption({ label: "Succeeded" });
      await press(page, "Filter");
      await expect(page).toHaveURL(/status=succeeded/);
      await expect(page.getByText("No deliveries yet.")).toBeVisible();
    });
  });
}
