import { expect, test } from "@playwright/test";
import { type ClioTestServer, startClioServer } from "../dms/clio/clio-server";
import { field, open, press } from "./forms";
import { USERS, e2eInstance, startSession } from "./helpers";

// A Clio credential made through its wizard, its secret never shown back, connected to the local
// Clio the way a person does it ("Connect to Clio", Clio's consent page, back to the console's
// callback), and "Test connection" failing before the connection and working after — with
// JavaScript and without.

let clio: ClioTestServer;

test.beforeAll(async () => {
  clio = await startClioServer({ port: e2eInstance().clioPort });
});

test.afterAll(async () => {
  await clio?.close();
});

for (const js of [true, false]) {
  test.describe(`Clio credentials, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });
    const tag = `${js ? "J" : "N"}${Date.now().toString(36)}`;

    test("a Clio credential through its wizard, connected through Clio's consent page, tested before and after", async ({ page }) => {
      await startSession(page, USERS.admin);
      await open(page, js, "/dms-clio/new");
      await press(page, "Next");
      await expect(page.getByText("This field is required.").first()).toBeVisible();
      for (const label of ["Name", "Application key (client ID)", "Application secret"])
        await expect(field(page, label)).toHaveAttribute("aria-invalid", "true");

      const settings = clio.credentialSettings() as Record<string, string | number | boolean>;
      await field(page, "Name").fill(`Clio ${tag}`);
      await field(page, "Region").selectOption("us");
      await field(page, "Application key (client ID)").fill(String(settings.client_id));
      await field(page, "Application secret").fill(String(settings.client_secret));
      await press(page, "Next");
      await field(page, "Calendar ID").fill(String(settings.calendar_id));
      await press(page, "Create");
      await expect(page).toHaveURL(/\/dms-clio\/[0-9a-f-]{36}$/);
      const recordUrl = page.url();
      await expect(page.locator("body")).not.toContainText(String(settings.client_secret));

      const connection = page.getByTestId("vendor-connection");
      await expect(connection.getByTestId("vendor-not-connected")).toContainText("Not connected to Clio yet");
      await press(page, "Test connection");
      const report = page.getByTestId("connection-test");
      await expect(report.getByText("The connection does not work yet.")).toBeVisible();
      await expect(report).toContainText("Not connected to Clio yet");
      // How far a passing test goes: what the connector's calls were checked against.
      await expect(report.getByTestId("verified-against")).toContainText("Verified against Clio's API v4 reference");

      // Clio's consent page approves at once and sends the browser back to the console's callback.
      await page.getByRole("link", { name: "Connect to Clio", exact: true }).click();
      await expect(page).toHaveURL(recordUrl);
      await expect(page.getByText("Connected to Clio.").first()).toBeVisible();
      await expect(page.getByTestId("vendor-connected")).toContainText(/Connected to Clio since/);
      await press(page, "Test connection");
      await expect(report.getByText("The connection works.")).toBeVisible();
      await expect(report).toContainText("Signed in as Adaeze Okafor");
      await expect(page.locator("body")).not.toContainText(String(settings.client_secret));

      // Clio refuses the firm's app from now on: the test says where it fails.
      clio.revokeAccessTokens();
      clio.revokeRefreshTokens();
      await press(page, "Test connection");
      await expect(report.getByText("The connection does not work yet.")).toBeVisible();
      await expect(report).toContainText("Token generation failed");
      expect(clio.contractViolations()).toEqual([]);
    });

    test("a callback that was not started here is refused in plain words", async ({ page }) => {
      await startSession(page, USERS.admin);
      await page.goto("/oauth/clio/callback?code=made-up&state=not-signed");
      await expect(page).toHaveURL(/\/dms-clio$/);
      await expect(page.getByText(/Clio did not connect: This connection answer is incomplete or was not made by ECFX/)).toBeVisible();
      await page.goto("/oauth/clio/callback?error=access_denied&error_description=The+user+denied+access");
      await expect(page.getByText("Clio did not connect: The user denied access")).toBeVisible();
    });
  });
}
