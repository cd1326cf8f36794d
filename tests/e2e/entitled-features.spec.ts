import { expect, test } from "@playwright/test";
import { field, open, press } from "./forms";
import { USERS, ecfxFeatures, firmApi, startSession } from "./helpers";

// Spec §6: the firm's entitled features are what it bought. ECFX sets them (`ecfx features`);
// the firm information page shows them and a firm administrator's save keeps them as they are.

let original: Record<string, unknown>;

test.beforeAll(() => {
  expect(ecfxFeatures(["--set", "ECFX_TRACK"])).toBe("Demo Law LLP: ECFX_TRACK\n");
});

test.beforeAll(async () => {
  original = await firmApi("GET");
});

test.afterAll(async () => {
  await firmApi("PUT", original);
  ecfxFeatures(["--set="]);
});

for (const js of [false, true]) {
  test.describe(`entitled features, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("the firm information page shows what the firm bought, and a save keeps it", async ({ page }) => {
      await startSession(page, USERS.admin);
      await open(page, js, "/firm-information");
      const card = page.getByTestId("entitled-features");
      await expect(card.getByText("they cannot be changed here")).toBeVisible();
      await expect(card.getByTestId("feature-ECFX_TRACK")).toContainText("ECFX Track case tracking");
      await expect(card.getByTestId("feature-ECFX_TRACK")).toContainText("Included");
      await expect(card.getByTestId("feature-FAI_TITLE_EXTRACTION")).toContainText("AI title extraction");
      await expect(card.getByTestId("feature-FAI_TITLE_EXTRACTION")).toContainText("Not included");

      const reply = `features-${js ? "js" : "nojs"}@lawfirm.test`;
      await field(page, "Reply-to e-mail").fill(reply);
      await press(page, "Save");
      await expect(page.getByText("Firm settings saved.")).toBeVisible();
      const saved = await firmApi("GET");
      expect(saved.reply_to_email).toBe(reply);
      expect(saved.entitled_features).toEqual(["ECFX_TRACK"]);
      await page.reload();
      await expect(page.getByTestId("feature-ECFX_TRACK")).toContainText("Included");
    });

    test("a manager reads the firm's features too", async ({ page }) => {
      await startSession(page, USERS.manager);
      await page.goto("/firm-information");
      await expect(page.getByTestId("feature-ECFX_TRACK")).toContainText("Included");
    });
  });
}
