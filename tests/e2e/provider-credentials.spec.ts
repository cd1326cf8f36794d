import { expect, test } from "@playwright/test";
import { type CourtSimulator, PACER_REFUSAL, PACER_TEST_ACCOUNT, startCourtSimulator } from "../../server/courts/simulator";
import { field, open, press } from "./forms";
import { API_URL, USERS, apiToken, e2eInstance, apiFetch, startSession } from "./helpers";

// /provider-credentials: the firm's PACER account made through its wizard (required fields, the
// password never shown back), a second PACER credential refused with the spec's words, "Test
// connection" signing in to PACER's Authentication API on the court simulator and failing with
// PACER's own words, and the credential deleted — with JavaScript and without.

let pacer: CourtSimulator;

test.beforeAll(async () => {
  pacer = await startCourtSimulator(e2eInstance().pacerPort);
});

test.afterAll(async () => {
  await pacer?.close();
});

/** The firm has at most one PACER credential: each test starts without one. */
async function removeProviderCredentials() {
  const token = await apiToken();
  const headers = { authorization: `Bearer ${token}` };
  const listed = (await (await apiFetch(`${API_URL}/api/v1/provider-credential/search`, { headers })).json()) as { id: string }[];
  for (const { id } of listed) expect((await apiFetch(`${API_URL}/api/v1/provider-credential/${id}`, { method: "DELETE", headers })).status).toBe(204);
}

for (const js of [true, false]) {
  test.describe(`Provider credentials, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });
    const tag = `${js ? "J" : "N"}${Date.now().toString(36)}`;

    test("a PACER credential through its wizard: required fields, one per type, a password unseen, a connection test", async ({ page }) => {
      await removeProviderCredentials();
      await startSession(page, USERS.admin);
      await open(page, js, "/provider-credentials");
      await expect(page.getByTestId("page-title")).toHaveText("Provider Credentials");

      const create = async (name: string, password: string) => {
        await open(page, js, "/provider-credentials/new");
        await field(page, "Provider").selectOption("PACER");
        await field(page, "Name").fill(name);
        await press(page, "Next");
        await field(page, "Login ID").fill(PACER_TEST_ACCOUNT.loginId);
        await field(page, "Password").fill(password);
        await press(page, "Create");
      };

      await open(page, js, "/provider-credentials/new");
      await press(page, "Next");
      // The name is required; the provider is a choice, PACER the one there is.
      await expect(page.getByText("This field is required.")).toHaveCount(1);
      await expect(field(page, "Provider")).toHaveValue("PACER");
      await field(page, "Provider").selectOption("PACER");
      await field(page, "Name").fill(`PACER ${tag}`);
      await press(page, "Next");
      await press(page, "Create");
      // Login ID and password are required.
      await expect(page.getByText("This field is required.")).toHaveCount(2);
      await field(page, "Login ID").fill(PACER_TEST_ACCOUNT.loginId);
      await field(page, "Password").fill(PACER_TEST_ACCOUNT.password);
      await field(page, "Client code").fill("docketing");
      await press(page, "Create");
      await expect(page).toHaveURL(/\/provider-credentials\/[0-9a-f-]{36}$/);
      const recordUrl = page.url();
      await expect(page.getByTestId("record-details")).toContainText(PACER_TEST_ACCOUNT.loginId);
      await expect(page.locator("body")).not.toContainText(PACER_TEST_ACCOUNT.password);

      await press(page, "Test connection");
      const report = page.getByTestId("connection-test");
      await expect(report.getByText("The connection works.")).toBeVisible();
      await expect(report).toContainText(`Signed in as ${PACER_TEST_ACCOUNT.loginId}`);

      // A second PACER credential: refused with the spec's words.
      await create(`PACER again ${tag}`, "another-password");
      await expect(page.getByText("A credential for this provider type already exists.")).toBeVisible();
      await expect(page).toHaveURL(/\/provider-credentials\/new/);

      // A wrong password: the test says PACER's own words.
      await page.goto(`${recordUrl}?edit`);
      if (js) await expect(page.locator("main form[data-hydrated]").first()).toBeAttached();
      await field(page, "Password").fill("not-the-password");
      await press(page, "Save changes");
      await expect(page.getByText("Changes saved.")).toBeVisible();
      await expect(page.locator("body")).not.toContainText("not-the-password");
      await press(page, "Test connection");
      await expect(report.getByText("The connection does not work yet.")).toBeVisible();
      await expect(report).toContainText(PACER_REFUSAL);

      await press(page, "Delete");
      await press(page, "Yes, delete");
      await expect(page.getByText("Provider credential deleted.")).toBeVisible();
      await expect(page).toHaveURL(/\/provider-credentials$/);
      expect(pacer.contractViolations()).toEqual([]);
    });
  });
}
