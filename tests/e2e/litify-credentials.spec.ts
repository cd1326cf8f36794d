import { expect, test } from "@playwright/test";
import { type LitifyTestServer, MATTER_COLUMN, startLitifyServer } from "../dms/litify/litify-server";
import { field, open, press } from "./forms";
import { USERS, e2eInstance, startSession } from "./helpers";

// A Litify credential made through its wizard (the required fields, a matter field that must be
// a field API name), its consumer secret and password never shown back, and "Test connection"
// against a local Salesforce org that speaks the REST API's contract: working, then failing on a
// wrong password. With JavaScript and without.

let litify: LitifyTestServer;

test.beforeAll(async () => {
  litify = await startLitifyServer({ port: e2eInstance().litifyPort });
  litify.addMatter({ Name: "Peña v. Bluebonnet", [MATTER_COLUMN]: "M-501" });
});

test.afterAll(async () => {
  await litify?.close();
});

for (const js of [true, false]) {
  test.describe(`Litify credentials, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });
    const tag = `${js ? "J" : "N"}${Date.now().toString(36)}`;

    test("a Litify credential through its wizard: required fields, secrets kept unseen, a working connection", async ({ page }) => {
      await startSession(page, USERS.admin);
      await open(page, js, "/dms-litify");
      await expect(page.getByTestId("page-title")).toHaveText("Litify credentials");

      await open(page, js, "/dms-litify/new");
      await press(page, "Next");
      // Name, instance URL, consumer key and consumer secret are required; username and password are not.
      await expect(page.getByText("This field is required.")).toHaveCount(4);
      const settings = litify.credentialSettings() as Record<string, string>;
      await field(page, "Name").fill(`Litify ${tag}`);
      await field(page, "Salesforce instance URL").fill(settings.instance_url!);
      await field(page, "Consumer key (client ID)").fill(settings.client_id!);
      await field(page, "Consumer secret, or private key (PEM) for JWT bearer").fill(settings.client_secret!);
      await field(page, "Username").fill(settings.username!);
      await field(page, "Password").fill(settings.password!);
      await press(page, "Next");
      await press(page, "Create");
      await expect(page.getByText("This field is required.")).toHaveCount(1);
      await field(page, "Matter field to search by").fill("Name' OR Name != '");
      await press(page, "Create");
      await expect(page.getByText(/^Enter a field API name such as litify_pm__Display_Name__c/)).toBeVisible();
      await field(page, "Matter field to search by").fill(settings.matter_column_name!);
      await press(page, "Create");
      await expect(page).toHaveURL(/\/dms-litify\/[0-9a-f-]{36}$/);
      const details = page.getByTestId("record-details");
      await expect(details.locator('tr[data-field="matter_column_name"] td')).toContainText(MATTER_COLUMN);
      await expect(page.locator("body")).not.toContainText(settings.client_secret!);
      await expect(page.locator("body")).not.toContainText(settings.password!);

      await press(page, "Test connection");
      const report = page.getByTestId("connection-test");
      await expect(report.getByText("The connection works.")).toBeVisible();
      await expect(report).toContainText(`as ${settings.username}`);
      await expect(report).toContainText(`by ${MATTER_COLUMN}, e.g. M-501`);
      // How far a passing test goes: Salesforce Files, not Litify Docs, which has no published API.
      await expect(report.getByTestId("verified-against")).toContainText("Verified against Salesforce's REST API");
      await expect(report.getByTestId("verified-against")).toContainText("not against Litify Docs (Docrio)");

      // A wrong password: the edit keeps everything else, and the test says where it fails.
      await page.goto(`${page.url()}?edit`);
      if (js) await expect(page.locator("main form[data-hydrated]").first()).toBeAttached();
      await field(page, "Password").fill("not-the-password");
      await press(page, "Save changes");
      await expect(page.getByText("Changes saved.")).toBeVisible();
      await expect(page.locator("body")).not.toContainText("not-the-password");
      await press(page, "Test connection");
      await expect(report.getByText("The connection does not work yet.")).toBeVisible();
      await expect(report).toContainText("Token generation failed: invalid_grant: authentication failure");
    });
  });
}
