import { randomBytes } from "node:crypto";
import { type Page, expect, test } from "@playwright/test";
import { field, open, pick, press } from "./forms";
import { USERS, apiCreate, apiToken, startSession } from "./helpers";

// The firm's settings that send notices out and file them, made and changed through their wizards
// and edit forms with JavaScript off (and on): DMS credentials, a storage policy with document
// properties, a notification rule and an auto case creation rule.

const details = (page: Page) => page.getByTestId("record-details");
const value = (page: Page, name: string) => details(page).locator(`tr[data-field="${name}"] td`);

for (const js of [false, true]) {
  test.describe(`settings wizards, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });
    const tag = randomBytes(3).toString("hex");
    const names = {
      store: `Store ${tag}`,
      policy: `Policy ${tag}`,
      rule: `Orders ${tag}`,
      auto: `Auto ${tag}`,
      matter: `Auto Matter ${tag}`,
      keeper: `Auto Keeper ${tag}`,
    };

    test.beforeAll(async () => {
      const token = await apiToken();
      const post = (route: string, body: unknown) => apiCreate(token, route, body);
      const client = await post("/api/v1/client", { name: `Auto Client ${tag}`, unique_key: `AC-${tag}` });
      await post("/api/v1/matter", { name: names.matter, unique_key: `AM-${tag}`, client_id: client });
      await post("/api/v1/timekeeper", { full_name: names.keeper, email: `auto-${tag}@lawfirm.test` });
    });

    test.beforeEach(async ({ page }) => {
      await startSession(page, USERS.admin);
    });

    test("DMS credentials, then a storage policy on them with document properties, then an edit", async ({ page }) => {
      await open(page, js, "/dms/new");
      await field(page, "Name").fill(names.store);
      await field(page, "Root folder").fill(`firm-${tag}`);
      await press(page, "Create");
      await expect(value(page, "field")).toHaveText(`firm-${tag}`);

      await open(page, js, "/storage-policies/new");
      await press(page, "Next");
      // Spec §5: name and DMS credentials required.
      await expect(page.getByText("DMS credentials are required")).toBeVisible();
      await field(page, "Name").fill(names.policy);
      await pick(page, js, "DMS credentials", names.store);
      await field(page, "Notice storage type").selectOption({ label: "PDF" });
      await press(page, "Next");
      await field(page, "Document path").fill("{{client.name}}/{{case.case_number}}");
      await field(page, "Document properties").fill("Matter={{matter.unique_key}}\nSource=ECFX");
      await press(page, "Create");
      await expect(value(page, "dms_credential_id")).toHaveText(names.store);
      await expect(value(page, "store_email")).toHaveText("PDF");
      await expect(value(page, "document_properties")).toHaveText("Matter={{matter.unique_key}}\nSource=ECFX");

      // A template that cannot render is refused with the reason on its field.
      await page.getByRole("link", { name: "Edit", exact: true }).click();
      await field(page, "Document path").fill("{{client.nmae}}");
      await press(page, "Save changes");
      await expect(page.getByText(/document path template/)).toBeVisible();
      await field(page, "Document path").fill("{{client.name}}");
      await press(page, "Save changes");
      await expect(value(page, "document_path")).toHaveText("{{client.name}}");
    });

    test("a notification rule needs an address; an auto case creation rule a timekeeper or a domain", async ({ page }) => {
      await open(page, js, "/notification-rule/new");
      await field(page, "Name").fill(names.rule);
      await field(page, "Rule condition (words in the docket text)").fill("ORDER");
      await press(page, "Create");
      await expect(page.getByText("Add at least one e-mail")).toBeVisible();
      await field(page, "Also notify").fill(`docketing-${tag}@lawfirm.test`);
      await press(page, "Create");
      await expect(value(page, "include_emails")).toHaveText(`docketing-${tag}@lawfirm.test`);

      await open(page, js, "/auto-case-creation/new");
      await expect(page.getByText("Separate domains (such as example.com) with commas or new lines.")).toBeVisible();
      await field(page, "Name").fill(names.auto);
      await press(page, "Next");
      await expect(page.getByText("Either a timekeeper or a party email domain is required")).toBeVisible();
      await field(page, "Party e-mail domains").fill("not a domain");
      await press(page, "Next");
      await expect(page.getByText("Enter a valid domain such as example.com.")).toBeVisible();
      await expect(page.getByTestId("wizard-step")).toContainText("Step 1 of");
      await field(page, "Party e-mail domains").fill(`shiplaw-${tag}.test`);
      await pick(page, js, "Timekeepers", names.keeper);
      await press(page, "Next");
      await pick(page, js, "Matter", names.matter);
      await field(page, "Timekeeper assignment sync").selectOption({ label: "ADD NEW" });
      await press(page, "Create");
      await expect(value(page, "party_email_domains")).toHaveText(`shiplaw-${tag}.test`);
      await expect(value(page, "matter_id")).toContainText(names.matter);
      await expect(value(page, "assignment_maintenance")).toHaveText("ADD NEW");
    });
  });
}
