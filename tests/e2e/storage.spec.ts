import { type Page, expect, test } from "@playwright/test";
import { API_URL, USERS, apiToken, signedIn, apiFetch, startSession } from "./helpers";

// The storage policy hierarchy page, with JavaScript on and off: every move is a real POST
// that saves at once, and the firm-level policy is a plain select.

const DEFAULT_ORDER = ["firm", "location", "practice_group", "client", "matter", "case"];

async function apiCall(token: string, method: string, segment: string, body: unknown): Promise<{ id?: string }> {
  const res = await apiFetch(`${API_URL}/api/v1/${segment}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(res.ok, await res.clone().text()).toBe(true);
  return (await res.json()) as { id?: string };
}

/** The levels as the page lists them, top to bottom. */
const shownOrder = (page: Page) =>
  page
    .getByTestId("hierarchy-levels")
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-level")));

/** Opens the page; with JavaScript, waits until the form is interactive (clicks during hydration are lost). */
async function open(page: Page, js: boolean) {
  await page.goto("/hierarchy");
  if (js) await expect(page.locator("main form[data-hydrated]")).toBeAttached();
}

/** Presses one of the form's buttons and waits for the save it posts (an earlier toast may still be on screen). */
async function submit(page: Page, button: string) {
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && /^\/hierarchy(\.data)?$/.test(new URL(r.url()).pathname)),
    page.getByRole("button", { name: button, exact: true }).click(),
  ]);
}

for (const js of [true, false]) {
  test.describe(`storage policy hierarchy, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });
    const tag = `${js ? "J" : "N"}${Date.now().toString(36)}`;
    let token = "";
    let policyName = "";

    test.beforeAll(async () => {
      token = await apiToken();
      const credential = await apiCall(token, "POST", "generic-credential", { name: `Store ${tag}`, field: `store-${tag}` });
      policyName = `Policy ${tag}`;
      await apiCall(token, "POST", "storage-policy", { name: policyName, dms_credential_id: credential.id });
    });

    test.beforeEach(async () => {
      await apiCall(token, "PUT", "firm/storage-hierarchy", { hierarchy: DEFAULT_ORDER, storage_policy_id: null });
    });

    test.afterEach(async () => {
      await apiCall(token, "PUT", "firm/storage-hierarchy", { hierarchy: DEFAULT_ORDER, storage_policy_id: null });
    });

    test("reorders the levels, picks the firm policy, and keeps both", async ({ page }) => {
      await startSession(page, USERS.admin);
      await open(page, js);
      await expect(page.getByRole("heading", { name: "Storage Policy Hierarchy" }).first()).toBeVisible();
      await expect(page.getByRole("navigation").getByRole("link", { name: "Storage Policy Hierarchy" })).toHaveAttribute("href", "/hierarchy");
      await expect.poll(() => shownOrder(page)).toEqual(DEFAULT_ORDER);
      await expect(page.getByRole("button", { name: "Move Firm up" })).toBeDisabled();
      await expect(page.getByRole("button", { name: "Move Case down" })).toBeDisabled();

      await submit(page, "Move Client down");
      await expect(page.getByText("Storage policy hierarchy saved.").first()).toBeVisible();
      await expect.poll(() => shownOrder(page)).toEqual(["firm", "location", "practice_group", "matter", "client", "case"]);
      await submit(page, "Move Case up");
      await expect.poll(() => shownOrder(page)).toEqual(["firm", "location", "practice_group", "matter", "case", "client"]);

      await page.getByLabel("Firm storage policy").selectOption({ label: policyName });
      await submit(page, "Save");

      await open(page, js);
      await expect.poll(() => shownOrder(page)).toEqual(["firm", "location", "practice_group", "matter", "case", "client"]);
      await expect(page.getByLabel("Firm storage policy").locator("option:checked")).toHaveText(policyName);
    });

    test("says 'Error while updating order' when the order cannot be saved", async ({ page }) => {
      await signedIn(page, USERS.admin);
      // A tampered form: one level instead of six. The API refuses it; nothing changes.
      const answer = await page.request.post("/hierarchy", { form: { hierarchy: "firm", intent: "save" }, maxRedirects: 0 });
      expect(answer.status()).toBe(302);
      await open(page, js);
      await expect(page.getByText("Error while updating order").first()).toBeVisible();
      await expect.poll(() => shownOrder(page)).toEqual(DEFAULT_ORDER);
    });
  });
}
