import { randomBytes } from "node:crypto";
import { type Page, expect, test } from "@playwright/test";
import { field, open, press } from "./forms";
import { USERS, firmApi, startSession } from "./helpers";

// The firm settings page with JavaScript on and off: settings saved and shown again, the form's
// rules in the catalogue's words, the logo upload, and the roles that may not change the firm.

const tag = randomBytes(4).toString("hex");
// The smallest valid PNG: one transparent pixel.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

const HIDDEN = [
  "web_preferences",
  "host_names",
  "storage_policy_hierarchy",
  "storage_policy_id",
  "internal_walls_enabled",
  "entitled_features",
  "ignored_case_statuses",
];

let original: Record<string, unknown>;

test.beforeAll(async () => {
  original = await firmApi("GET");
});

// Other spec files expect the demo firm as it was.
test.afterAll(async () => {
  await firmApi("PUT", original);
});

/** Appends an item to a list box (one item a line). */
async function addToList(page: Page, label: string, item: string) {
  const box = field(page, label);
  const current = await box.inputValue();
  await box.fill(current ? `${current}\n${item}` : item);
}

for (const js of [false, true]) {
  const mode = js ? "with JavaScript" : "without JavaScript";
  const reply = `reply-${js ? "js" : "nojs"}-${tag}@lawfirm.test`;
  const domain = `${js ? "js" : "nojs"}-${tag}.courts.test`;
  const recipient = `extra-${js ? "js" : "nojs"}-${tag}@lawfirm.test`;
  const courtSender = `clerk-${js ? "js" : "nojs"}-${tag}@county.example.gov`;
  const cadence = js ? "DAILY_AND_REALTIME" : "DAILY";
  const zone = js ? "Europe/London" : "America/Chicago";
  const hours = js ? "6" : "12";
  const docketing = `docketing-${js ? "js" : "nojs"}-${tag}@lawfirm.test`;

  test.describe(`firm settings ${mode}`, () => {
    test.use({ javaScriptEnabled: js });

    test.beforeEach(async ({ page }) => {
      await startSession(page, USERS.admin);
      await open(page, js, "/firm-information");
    });

    test("change settings, save, and see them after a reload", async ({ page }) => {
      await field(page, "Reply-to e-mail").fill(reply);
      await field(page, "Notification cadence").selectOption(cadence);
      await field(page, "Time zone").selectOption(zone);
      await addToList(page, "Accepted e-mail domains", domain);
      await addToList(page, "Additional e-mail recipients", recipient);
      await field(page, "Hours to wait for a tracked entry's notice").fill(hours);
      await addToList(page, "Missed-notice recipients (docketing team)", docketing);
      await addToList(page, "Court and e-filing senders", courtSender);
      await press(page, "Save");
      await expect(page.getByText("Firm settings saved.")).toBeVisible();

      await page.reload();
      await expect(field(page, "Reply-to e-mail")).toHaveValue(reply);
      await expect(field(page, "Notification cadence")).toHaveValue(cadence);
      await expect(field(page, "Time zone")).toHaveValue(zone);
      await expect(field(page, "Accepted e-mail domains")).toHaveValue(new RegExp(domain.replace(/\./g, "\\.")));
      await expect(field(page, "Additional e-mail recipients")).toHaveValue(new RegExp(recipient.replace(/\./g, "\\.")));
      await expect(field(page, "Hours to wait for a tracked entry's notice")).toHaveValue(hours);
      await expect(field(page, "Missed-notice recipients (docketing team)")).toHaveValue(new RegExp(docketing.replace(/\./g, "\\.")));
      await expect(field(page, "Court and e-filing senders")).toHaveValue(new RegExp(courtSender.replace(/\./g, "\\.")));
      // What the form does not show was carried over as stored.
      const saved = await firmApi("GET");
      for (const name of HIDDEN) expect(saved[name], name).toEqual(original[name]);
    });

    test("a repeated address and a bad firm name are refused in the catalogue's words", async ({ page }) => {
      const twice = `twice-${tag}@lawfirm.test`;
      await field(page, "Additional e-mail recipients").fill(`${twice}\n${twice}`);
      await field(page, "Firm name").fill("Demo | Firm");
      await press(page, "Save");
      await expect(page.getByText("Email added already")).toBeVisible();
      await expect(page.getByText("Only letters, digits, spaces and , : - + . & are allowed.")).toBeVisible();
      // Nothing was saved.
      expect((await firmApi("GET")).name).toBe(original.name);
    });

    test("upload a PNG logo and see it", async ({ page }) => {
      await page.getByLabel("Logo file").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
      await press(page, "Upload logo");
      await expect(page.getByText("Logo uploaded.")).toBeVisible();
      const logo = page.getByTestId("firm-logo");
      await expect(logo).toBeVisible();
      await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    });

    test("a file that is no PNG is refused", async ({ page }) => {
      await page.getByLabel("Logo file").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from("not a png at all") });
      await press(page, "Upload logo");
      await expect(page.getByText("Image Upload Failed")).toBeVisible();
    });
  });
}

test.describe("roles that may not change the firm", () => {
  test.use({ javaScriptEnabled: false });

  test("View Only may not open the page (firm access DENY)", async ({ page }) => {
    await startSession(page, USERS.viewonly);
    await page.goto("/firm-information");
    await expect(page).toHaveURL(/\/success$/);
  });

  test("Manager sees the settings without Save or upload (firm access READ)", async ({ page }) => {
    await startSession(page, USERS.manager);
    await page.goto("/firm-information");
    await expect(field(page, "Firm name")).toHaveValue(String(original.name));
    await expect(field(page, "Firm name")).toBeDisabled();
    await expect(page.getByTestId("read-only")).toBeVisible();
    await expect(page.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Upload logo" })).toHaveCount(0);
  });
});
