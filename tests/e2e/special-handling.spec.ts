import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { field, open, press } from "./forms";
import { USERS, firmApi, startSession } from "./helpers";

// /special-handling: manual processing and who is told about held notices, on a page of its own
// (no longer on /firm-information), with JavaScript on and off.

const tag = randomBytes(4).toString("hex");
let original: Record<string, unknown>;

test.beforeAll(async () => {
  original = await firmApi("GET");
});

// Held notices would stop the other browser tests' notices: the firm goes back as it was.
test.afterAll(async () => {
  await firmApi("PUT", original);
});

for (const js of [false, true]) {
  test.describe(`special handling ${js ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled: js });

    test("manual processing and its recipients are saved on their own page", async ({ page }) => {
      const recipient = `clerk-${js ? "js" : "nojs"}-${tag}@lawfirm.test`;
      await startSession(page, USERS.admin);
      await open(page, js, "/special-handling");
      await expect(page.getByTestId("page-title")).toHaveText("Special Handling");
      await page.getByLabel("Manually process notices").check();
      await field(page, "Manual-process recipients").fill(recipient);
      await press(page, "Save");
      await expect(page.getByText("Firm settings saved.")).toBeVisible();

      await page.reload();
      await expect(page.getByLabel("Manually process notices")).toBeChecked();
      await expect(field(page, "Manual-process recipients")).toHaveValue(recipient);
      const saved = await firmApi("GET");
      expect(saved).toMatchObject({ manually_process_notices: true, manual_process_emails: [recipient], name: original.name });
      await firmApi("PUT", original);

      // The firm information page no longer holds them, and saving it leaves them as they are.
      await open(page, js, "/firm-information");
      await expect(page.getByLabel("Manually process notices")).toHaveCount(0);
      await firmApi("PUT", { ...original, manually_process_notices: true });
      await press(page, "Save");
      await expect(page.getByText("Firm settings saved.")).toBeVisible();
      expect((await firmApi("GET")).manually_process_notices).toBe(true);
      await firmApi("PUT", original);
    });

    test("a bad recipient is refused in the catalogue's words and nothing is saved", async ({ page }) => {
      await startSession(page, USERS.admin);
      await open(page, js, "/special-handling");
      await field(page, "Manual-process recipients").fill("not-an-address");
      await press(page, "Save");
      await expect(page.getByText("Enter a valid email address.")).toBeVisible();
      expect((await firmApi("GET")).manual_process_emails).toEqual(original.manual_process_emails);
    });

    test("fields are underlined, the spec's default field style, with a line one can see", async ({ page }) => {
      await startSession(page, USERS.admin);
      await open(page, js, "/special-handling");
      const box = field(page, "Manual-process recipients");
      const style = await box.evaluate((el) => {
        const css = getComputedStyle(el);
        return { top: css.borderTopWidth, left: css.borderLeftWidth, bottom: css.borderBottomWidth, color: css.borderBottomColor };
      });
      expect(style).toMatchObject({ top: "0px", left: "0px", bottom: "1px" });
      // At least 3:1 against the white card (WCAG 1.4.11, a field's edge).
      const [r, g, b] = style.color.match(/\d+/g)!.map(Number) as [number, number, number];
      const lum = [r, g, b].map((c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4));
      const luminance = 0.2126 * lum[0]! + 0.7152 * lum[1]! + 0.0722 * lum[2]!;
      expect(1.05 / (luminance + 0.05)).toBeGreaterThanOrEqual(3);
    });

    test("a role that may only read the firm sees the settings without Save", async ({ page }) => {
      await startSession(page, USERS.manager);
      await open(page, js, "/special-handling");
      await expect(page.getByTestId("read-only")).toBeVisible();
      await expect(page.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
    });
  });
}
