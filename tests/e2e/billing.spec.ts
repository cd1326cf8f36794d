import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { issueDueInvoices } from "../../server/billing/invoices";
import { recordPacerDocument } from "../../server/billing/court-costs";
import { openDatabase } from "../../server/db/database";
import { type LocalStripe, startLocalStripe } from "../api/stripe-local";
import { ledes1998bErrors } from "../api/ledes-1998b";
import { API_URL, apiCreate, apiToken, e2eInstance, USERS, startSession } from "./helpers";

// /billing (spec §2, firmAccess), with JavaScript on and off: the month's invoice with its lines,
// its PDF, Pay through the payment provider's hosted page (a local server held to Stripe's
// published description) with the invoice turning paid through the signed webhook, and the
// costload and timeslips downloads, which the LEDES 1998B checker accepts.

let stripe: LocalStripe;
const run = Date.now().toString(36);
const DAY = 86_400_000;
const monthStart = (back: number) => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1);
};
const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);

test.beforeAll(async () => {
  stripe = await startLocalStripe({ port: e2eInstance().stripePort, hosted: { webhookUrl: `${API_URL}/api/v1/billing/stripe/webhook`, secret: "whsec_e2e" } });
  const token = await apiToken();
  const court = await apiCreate(token, "/api/v1/jurisdiction", { name: `S.D.N.Y. (billing ${run})`, ecfx_jurisdictions: ["nysd"] });
  const keeper = await apiCreate(token, "/api/v1/timekeeper", { full_name: "Billing Keeper", email: `billing.keeper.${run}@lawfirm.test` });
  const client = await apiCreate(token, "/api/v1/client", { name: "Billed Client", unique_key: `E2E-BILL-C-${run}`, reference_id: `BC${run}`.slice(0, 20) });
  const matter = await apiCreate(token, "/api/v1/matter", {
    name: "Billed matter",
    unique_key: `E2E-BILL-M-${run}`,
    reference_id: `BM${run}`.slice(0, 20),
    client_id: client,
  });
  const caseId = await apiCreate(token, "/api/v1/case", {
    name: `Billed v. Case ${run}`,
    case_number: `1:26-cv-77${run}`,
    matter_id: matter,
    jurisdiction_id: court,
    assigned_timekeepers: [keeper],
  });
  // Web services from two months back, issued as the worker would; a PACER document on the case last month.
  const database = openDatabase(`sqlite:${path.resolve(e2eInstance().dataDir, "ecfx.sqlite")}`);
  try {
    const db = database.db;
    const firm = await db.selectFrom("firm").select("id").where("is_default", "=", 1).executeTakeFirstOrThrow();
    const exists = await db.selectFrom("invoice").select("id").where("firm_id", "=", firm.id).executeTakeFirst();
    if (!exists) {
      await db
        .insertInto("firm_service")
        .values({
          id: `e2e-${run}`,
          firm_id: firm.id,
          service_kind: "FSX_WEB_SERVICES",
          amount_cents: 5000,
          time_unit: "MONTH",
          per_document_cents: 0,
          currency: "USD",
          started_at: monthStart(2),
          ended_at: null,
        })
        .execute();
      await issueDueInvoices(db, Date.now());
    }
    await recordPacerDocument(db, {
      firmId: firm.id,
      documentId: `e2e-doc-${run}`,
      caseId,
      name: "Order",
      docketText: "ORDER",
      pages: 12,
      at: monthStart(1) + DAY,
    });
  } finally {
    await database.close();
  }
});

test.afterAll(async () => {
  await stripe?.close();
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`billing with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled, acceptDownloads: true });

    test("shows the month's invoice with its lines, downloads its PDF and pays it; the webhook marks it paid", async ({ page }) => {
      await startSession(page, USERS.admin);
      await page.goto("/billing?sort=number");
      const table = page.locator("table");
      await expect(table).toContainText("Open");
      // The older invoice with JavaScript on, the newer without: each test pays its own.
      const link = table.getByRole("link").filter({ hasText: /^\d+$/ });
      await link.nth(javaScriptEnabled ? 0 : 1).click();
      await expect(page).toHaveURL(/\/billing\/invoices\//);
      await expect(page.getByTestId("invoice-lines")).toContainText("FSX web services, $50.00 per month");
      await expect(page.getByTestId("invoice-total")).toHaveText("$50.00");
      await expect(page.getByTestId("invoice-status")).toHaveText("Open");

      // The PDF link, fetched with the page's session as the browser would download it.
      const href = await page.getByRole("link", { name: "Download PDF" }).getAttribute("href");
      const pdf = await page.request.get(href!);
      expect(pdf.headers()["content-type"]).toBe("application/pdf");
      expect(pdf.headers()["content-disposition"]).toMatch(/invoice-\d+\.pdf/);
      expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");

      await page.getByRole("button", { name: "Pay $50.00" }).click();
      await expect(page.getByRole("heading", { name: "Pay 50 USD" })).toBeVisible();
      await page.getByRole("button", { name: "Pay", exact: true }).click();
      await expect(page).toHaveURL(/\/billing\/invoices\/.+\?paid=1$/);
      await expect(page.getByTestId("invoice-status")).toHaveText("Paid");
      await expect(page.getByRole("button", { name: /^Pay / })).toHaveCount(0);
      expect(stripe.violations).toEqual([]);
    });

    test("downloads the costload and the timeslips as LEDES 1998B", async ({ page }) => {
      await startSession(page, USERS.admin);
      await page.goto("/billing/exports");
      const codeField = page.getByLabel("Cost code");
      if ((await codeField.inputValue()) === "") {
        await expect(page.getByTestId("cost-code-required")).toHaveText("Cost Code required");
        await codeField.fill("E106");
        await page.getByRole("button", { name: "Save" }).click();
        await expect(page.getByLabel("Cost code")).toHaveValue("E106");
      }
      const from = isoDay(monthStart(1));
      const to = isoDay(monthStart(0) - DAY);
      const costs = page.locator("form", { has: page.getByRole("button", { name: "Download costload" }) });
      await costs.getByLabel("From").fill(from);
      await costs.getByLabel("To").fill(to);
      const costload = page.waitForEvent("download");
      await costs.getByRole("button", { name: "Download costload" }).click();
      const costFile = fs.readFileSync((await (await costload).path())!, "utf8");
      expect(ledes1998bErrors(costFile)).toEqual([]);
      expect(costFile).toContain("|1.20|");

      const time = page.locator("form", { has: page.getByRole("button", { name: "Download timeslips" }) });
      await time.getByLabel("From").fill(from);
      await time.getByLabel("To").fill(to);
      const slips = page.waitForEvent("download");
      await time.getByRole("button", { name: "Download timeslips" }).click();
      expect(ledes1998bErrors(fs.readFileSync((await (await slips).path())!, "utf8"))).toEqual([]);
    });
  });
}
