import { expect, test } from "@playwright/test";
import { type BoxTestServer, startBoxServer } from "../dms/box/box-server";
import { field, open, press } from "./forms";
import { USERS, e2eInstance, startSession } from "./helpers";

// The DMS credential types as tabs of /dms, a vendor credential made through its wizard, its
// secret never shown back, and "Test connection" against a local Box that speaks Box's API —
// with JavaScript and without.

let box: BoxTestServer;

test.beforeAll(async () => {
  box = await startBoxServer({ port: e2eInstance().boxPort });
});

test.afterAll(async () => {
  await box?.close();
});

for (const js of [true, false]) {
  test.describe(`DMS credentials, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });
    const tag = `${js ? "J" : "N"}${Date.now().toString(36)}`;

    test("a Box credential through its wizard: required fields, a secret kept unseen, a working connection", async ({ page }) => {
      await startSession(page, USERS.admin);
      await open(page, js, "/dms");
      const tabs = page.getByTestId("sibling-tabs");
      await expect(tabs.getByRole("link", { name: "DMS credentials", exact: true })).toHaveAttribute("aria-current", "page");
      await tabs.getByRole("link", { name: "Box credentials", exact: true }).click();
      await expect(page).toHaveURL(/\/dms-box$/);
      await expect(page.getByTestId("page-title")).toHaveText("Box credentials");

      await open(page, js, "/dms-box/new");
      await press(page, "Next");
      // Name, client ID, client secret and subject ID are required; the subject type has a choice.
      await expect(page.getByText("This field is required.")).toHaveCount(4);
      const settings = box.credentialSettings() as Record<string, string>;
      await field(page, "Name").fill(`Box ${tag}`);
      await field(page, "Client ID (key)").fill(settings.client_key!);
      await field(page, "Client secret").fill(settings.client_secret!);
      await field(page, "Subject type").selectOption("enterprise");
      await field(page, "Subject ID").fill(settings.box_subject_id!);
      await press(page, "Next");
      await field(page, "Folder creation sync delay (ms)").fill("-5");
      await press(page, "Create");
      await expect(page.getByText("Enter whole milliseconds, up to 600000")).toBeVisible();
      await field(page, "Folder creation sync delay (ms)").fill("250");
      await press(page, "Create");
      await expect(page).toHaveURL(/\/dms-box\/[0-9a-f-]{36}$/);
      const details = page.getByTestId("record-details");
      await expect(details.locator('tr[data-field="client_secret"] td')).not.toContainText(settings.client_secret!);
      await expect(page.locator("body")).not.toContainText(settings.client_secret!);

      await press(page, "Test connection");
      const report = page.getByTestId("connection-test");
      await expect(report.getByText("The connection works.")).toBeVisible();
      await expect(report).toContainText(/Signed in/i);

      // A wrong secret: the edit keeps everything else, and the test says where it fails.
      await page.goto(`${page.url()}?edit`);
      if (js) await expect(page.locator("main form[data-hydrated]").first()).toBeAttached();
      await field(page, "Client secret").fill("not-the-secret");
      await press(page, "Save changes");
      await expect(page.getByText("Changes saved.")).toBeVisible();
      await press(page, "Test connection");
      await expect(report.getByText("The connection does not work yet.")).toBeVisible();
      await expect(report).toContainText("Token generation failed");
    });
  });
}
