import { expect, test } from "@playwright/test";
import { type FileVineTestServer, startFileVineServer } from "../dms/filevine/filevine-server";
import { field, open, press } from "./forms";
import { USERS, e2eInstance, startSession } from "./helpers";

// A FileVine credential through its wizard, with JavaScript and without: one complete way of
// signing in asked for, the personal access token and client secret never shown back, an edit
// that leaves them as shown keeping them, and "Test connection" against a local FileVine that
// speaks FileVine's API v2, working and then failing with FileVine's reason.

let fileVine: FileVineTestServer;

test.beforeAll(async () => {
  fileVine = await startFileVineServer({ port: e2eInstance().fileVinePort });
});

test.afterAll(async () => {
  await fileVine?.close();
});

for (const js of [true, false]) {
  test.describe(`FileVine credentials, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });
    const tag = `${js ? "J" : "N"}${Date.now().toString(36)}`;

    test("a FileVine credential: one way of signing in required, secrets kept unseen, the connection tested", async ({ page }) => {
      await startSession(page, USERS.admin);
      await open(page, js, "/dms");
      await page.getByTestId("sibling-tabs").getByRole("link", { name: "FileVine credentials", exact: true }).click();
      await expect(page).toHaveURL(/\/dms-filevine$/);
      await expect(page.getByTestId("page-title")).toHaveText("FileVine credentials");

      await open(page, js, "/dms-filevine/new");
      await press(page, "Next");
      await expect(page.getByText("This field is required.")).toHaveCount(1);
      const settings = fileVine.credentialSettings() as Record<string, string>;
      await field(page, "Name").fill(`FileVine ${tag}`);
      await field(page, "Subdomain").fill(settings.subdomain!);
      await press(page, "Next");
      // Named, it still needs one way of signing in: the personal access token with its client ID and secret (or a key and secret).
      await expect(page.getByText("This field is required.")).toHaveCount(3);
      await field(page, "Personal access token").fill(settings.personalAccessToken!);
      await field(page, "Client ID").fill(settings.clientId!);
      await press(page, "Next");
      await expect(page.getByText("This field is required.")).toHaveCount(1);
      await field(page, "Client secret").fill(settings.clientSecret!);
      await press(page, "Next");
      await field(page, "Hashtags").fill("ecf court-notice");
      await field(page, "Billing item").fill("ECF notice review | 0.1 | 300");
      await press(page, "Create");
      await expect(page).toHaveURL(/\/dms-filevine\/[0-9a-f-]{36}$/);
      const body = page.locator("body");
      await expect(page.getByTestId("record-details")).toContainText("ECF notice review");
      await expect(body).not.toContainText(settings.personalAccessToken!);
      await expect(body).not.toContainText(settings.clientSecret!);

      await press(page, "Test connection");
      const report = page.getByTestId("connection-test");
      await expect(report.getByText("The connection works.")).toBeVisible();
      await expect(report).toContainText("Signed in as ECFX Filing");
      await expect(report.getByTestId("verified-against")).toContainText("Verified against Filevine's published API v2 reference");
      await expect(report).toContainText("Listed 2 projects");
      const record = page.url();

      // An edit that leaves the secrets as shown keeps them: the credential still signs in whole.
      await page.goto(`${record}?edit`);
      if (js) await expect(page.locator("main form[data-hydrated]").first()).toBeAttached();
      await expect(field(page, "Personal access token")).not.toHaveValue(settings.personalAccessToken!);
      await field(page, "Hashtags").fill("ecf");
      await press(page, "Save changes");
      await expect(page.getByText("Changes saved.")).toBeVisible();
      await press(page, "Test connection");
      await expect(report.getByText("The connection works.")).toBeVisible();

      // A revoked token: the test says where it fails, in FileVine's words.
      await page.goto(`${record}?edit`);
      if (js) await expect(page.locator("main form[data-hydrated]").first()).toBeAttached();
      await field(page, "Personal access token").fill("revoked-token");
      await press(page, "Save changes");
      await expect(page.getByText("Changes saved.")).toBeVisible();
      await press(page, "Test connection");
      await expect(report.getByText("The connection does not work yet.")).toBeVisible();
      await expect(report).toContainText("Token generation failed: The personal access token is invalid or revoked");
      await expect(body).not.toContainText("revoked-token");
    });
  });
}
