import { expect, test } from "@playwright/test";
import { type ProLawTestServer, startProLawServer } from "../dms/prolaw/prolaw-server";
import { field, open, press } from "./forms";
import { USERS, e2eInstance, startSession } from "./helpers";

// A ProLaw credential made through its wizard (the required fields, an address that is no URL),
// its API key never shown back, and "Test connection" against a local ProLaw that speaks the
// contract of docs/dms/prolaw.md, working and then failing on a wrong key — with JavaScript and
// without.

let proLaw: ProLawTestServer;

test.beforeAll(async () => {
  proLaw = await startProLawServer({ port: e2eInstance().proLawPort });
});

test.afterAll(async () => {
  await proLaw?.close();
});

for (const js of [true, false]) {
  test.describe(`ProLaw credentials, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });
    const tag = `${js ? "J" : "N"}${Date.now().toString(36)}`;

    test("a ProLaw credential through its wizard: required fields, the API key kept unseen, a connection that works and one that does not", async ({
      page,
    }) => {
      await startSession(page, USERS.admin);
      await open(page, js, "/dms");
      await page.getByTestId("sibling-tabs").getByRole("link", { name: "ProLaw credentials", exact: true }).click();
      await expect(page).toHaveURL(/\/dms-prolaw$/);
      await expect(page.getByTestId("page-title")).toHaveText("ProLaw credentials");

      await open(page, js, "/dms-prolaw/new");
      await press(page, "Next");
      // Name, base URL and API key are required.
      await expect(page.getByText("This field is required.")).toHaveCount(3);
      const settings = proLaw.credentialSettings() as Record<string, string>;
      // The screen says plainly that ProLaw has no API of its own and the firm provides the endpoint.
      await expect(page.getByText("ProLaw has no public API. Enter the address of the endpoint your firm provides")).toBeVisible();
      await field(page, "Name").fill(`ProLaw ${tag}`);
      await field(page, "ProLaw API base URL").fill("prolaw.firm.local/api");
      await field(page, "API key").fill(settings.api_key!);
      await press(page, "Next");
      await expect(page.getByText("Enter a URL that starts with https://")).toBeVisible();
      await field(page, "ProLaw API base URL").fill(settings.base_url!);
      // The key typed before the refused step may not come back: type it again when it is empty.
      if ((await field(page, "API key").inputValue()) === "") await field(page, "API key").fill(settings.api_key!);
      await press(page, "Next");
      await field(page, "Folder creation sync delay (ms)").fill("250");
      await press(page, "Create");
      await expect(page).toHaveURL(/\/dms-prolaw\/[0-9a-f-]{36}$/);
      const details = page.getByTestId("record-details");
      await expect(details.locator('tr[data-field="api_key"] td')).not.toContainText(settings.api_key!);
      await expect(page.locator("body")).not.toContainText(settings.api_key!);
      await expect(details).toContainText(settings.base_url!);

      await press(page, "Test connection");
      const report = page.getByTestId("connection-test");
      await expect(report.getByText("The connection works.")).toBeVisible();
      await expect(report).toContainText("accepted the API key");
      await expect(report).toContainText("M-501");

      // A wrong key: the edit keeps everything else, and the test says ProLaw refused it.
      await page.goto(`${page.url()}?edit`);
      if (js) await expect(page.locator("main form[data-hydrated]").first()).toBeAttached();
      await field(page, "API key").fill("not-the-key");
      await press(page, "Save changes");
      await expect(page.getByText("Changes saved.")).toBeVisible();
      await press(page, "Test connection");
      await expect(report.getByText("The connection does not work yet.")).toBeVisible();
      await expect(report).toContainText("ProLaw refused the API key (401)");
      await expect(report).toContainText("Authorization has been denied for this request.");
      expect(proLaw.contractViolations()).toEqual([]);
    });
  });
}
