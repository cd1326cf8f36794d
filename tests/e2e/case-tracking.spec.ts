import { expect, test } from "@playwright/test";
import { SLOW_WAIT, apiCreate, apiToken, ecfxFeatures, signedIn, USERS, startSession } from "./helpers";

// ECFX Track on a case page (spec §2, §4): subscribe, stop and resume, each confirmed with what it
// costs or ends, in a dialog with JavaScript and on a page of its own without; hidden from a firm
// not entitled to it.

const cases: Record<string, string> = {};
// A failed test starts a new worker whose set-up runs again against the same product.
const run = Date.now().toString(36);

test.beforeAll(async () => {
  expect(ecfxFeatures(["--set", "ECFX_TRACK"])).toBe("Demo Law LLP: ECFX_TRACK\n");
  const token = await apiToken();
  const court = await apiCreate(token, "/api/v1/jurisdiction", { name: `S.D.N.Y. (tracking ${run})`, ecfx_jurisdictions: ["nysd"] });
  const keeper = await apiCreate(token, "/api/v1/timekeeper", { full_name: "Track Keeper", email: `track.keeper.${run}@lawfirm.test` });
  const client = await apiCreate(token, "/api/v1/client", { name: "Tracked Client", unique_key: `E2E-TRACK-C-${run}` });
  const matter = await apiCreate(token, "/api/v1/matter", { name: "Tracked matter", unique_key: `E2E-TRACK-M-${run}`, client_id: client });
  for (const [mode, number] of [
    ["js", 101],
    ["nojs", 102],
  ] as const) {
    cases[mode] = await apiCreate(token, "/api/v1/case", {
      name: `Tracked v. Case ${mode} ${run}`,
      case_number: `1:26-cv-${number}${run}`,
      matter_id: matter,
      jurisdiction_id: court,
      assigned_timekeepers: [keeper],
    });
  }
});

test.afterAll(() => {
  ecfxFeatures(["--set="]);
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`ECFX Track with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("subscribes, stops and resumes a case, each confirmed with its cost", async ({ page }) => {
      const caseId = cases[javaScriptEnabled ? "js" : "nojs"]!;
      await startSession(page, USERS.admin);
      await page.goto(`/cases/${caseId}`);
      const panel = page.getByTestId("case-tracking");
      await expect(panel.getByTestId("tracking-state")).toHaveText("This case is not tracked.");
      await expect(panel).toContainText("$25.00 a month, $0.10 per document received.");

      /** Opens the confirmation of an action, checks what it says, and confirms it. */
      const confirm = async (button: string, says: RegExp, confirmLabel: string) => {
        await panel.getByRole("link", { name: button, exact: true }).click();
        const confirmation = javaScriptEnabled ? page.getByRole("dialog") : page.locator("main");
        if (!javaScriptEnabled) await expect(page).toHaveURL(new RegExp(`/cases/${caseId}/tracking\\?action=`));
        await expect(confirmation).toContainText(says);
        await confirmation.getByRole("button", { name: confirmLabel, exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`/cases/${caseId}$`));
      };

      await confirm("Subscribe", /monthly fee of \$25\.00, and \$0\.10 for each document received/, "Subscribe");
      await expect(page.getByText("The case is tracked.")).toBeVisible();
      await expect(panel.getByTestId("tracking-state")).toHaveText(/^Tracked since /);

      await confirm("Stop", /no further monthly fee or document cost, and the subscription is not renewed/, "Stop tracking");
      await expect(panel.getByTestId("tracking-state")).toHaveText(/^Stopped since /);

      await confirm("Resume", /there is no backfill of the stopped period/, "Resume tracking");
      await expect(panel.getByTestId("tracking-state")).toHaveText(/^Tracked since /);
      await expect(panel.getByRole("link", { name: "Subscribe", exact: true })).toHaveCount(0);
      await expect(panel.getByRole("link", { name: "Unsubscribe", exact: true })).toBeVisible();
    });

    test("a cancelled confirmation changes nothing", async ({ page }) => {
      const caseId = cases[javaScriptEnabled ? "js" : "nojs"]!;
      await startSession(page, USERS.admin);
      await page.goto(`/cases/${caseId}`);
      const panel = page.getByTestId("case-tracking");
      await panel.getByRole("link", { name: "Stop", exact: true }).click();
      if (javaScriptEnabled) await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
      else await page.getByRole("link", { name: "Cancel" }).click();
      await expect(page).toHaveURL(new RegExp(`/cases/${caseId}$`));
      await expect(panel.getByTestId("tracking-state")).toHaveText(/^Tracked since /);
    });
  });
}

test("case retrieve on a local host updates the case from its court and retrieves its documents", async ({ page }) => {
  await signedIn(page, USERS.admin);
  const panel = page.getByTestId("case-retrieve");
  const statusBecomes = (status: string) =>
    expect(async () => {
      await page.goto(`/cases/${cases.nojs}`);
      await expect(panel.getByTestId("retrieve-status")).toHaveText(`Retrieve status: ${status}.`);
    }).toPass(SLOW_WAIT);
  await page.goto(`/cases/${cases.nojs}`);
  await expect(panel.getByTestId("retrieve-status")).toHaveText("Retrieve status: None.");
  await panel.getByRole("button", { name: "Update case" }).click();
  await expect(page.getByText("The case is being updated from its court.")).toBeVisible();
  await statusBecomes("Update Succeeded");
  await panel.getByRole("button", { name: "Retrieve documents" }).click();
  await expect(page.getByText("The case's available documents are being retrieved.")).toBeVisible();
  await statusBecomes("Retrieve Succeeded");
});

test("a reader sees the tracking but no action; a firm not entitled sees no tracking at all", async ({ page }) => {
  await startSession(page, USERS.viewonly);
  await page.goto(`/cases/${cases.js}`);
  await expect(page.getByTestId("tracking-state")).toHaveText(/^Tracked since /);
  await expect(page.getByTestId("case-tracking").getByRole("link")).toHaveCount(0);

  ecfxFeatures(["--set="]);
  // The console keeps the firm's parts for a few seconds.
  await expect(async () => {
    await page.goto(`/cases/${cases.js}`);
    await expect(page.getByTestId("case-tracking")).toHaveCount(0);
  }).toPass({ timeout: 10_000 });
  const confirmationPage = await page.goto(`/cases/${cases.js}/tracking?action=stop`);
  expect(confirmationPage?.status()).toBe(404);
});
