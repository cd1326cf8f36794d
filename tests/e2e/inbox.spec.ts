import path from "node:path";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { API_URL, PASSWORD, USERS, signedIn } from "./helpers";

const fixtures = path.join(import.meta.dirname, "../fixtures/notices");

async function adminApi(request: APIRequestContext) {
  const login = await request.post(`${API_URL}/auth/login`, { data: { username: USERS.admin, password: PASSWORD } });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const headers = { authorization: `Bearer ${token}` };
  return {
    post: async (route: string, data: unknown) => (await (await request.post(`${API_URL}${route}`, { data, headers })).json()) as { id: string },
  };
}

test.beforeAll(async ({ request }) => {
  // The Texas case the fixture notice is about, on a jurisdiction mapped to E.D. Tex.
  const api = await adminApi(request);
  const jurisdiction = await api.post("/api/v1/jurisdiction", { name: "Eastern District of Texas", ecfx_jurisdictions: ["txed"] });
  const timekeeper = await api.post("/api/v1/timekeeper", { full_name: "Adaeze Okafor", email: "aokafor@lawfirm.test" });
  const client = await api.post("/api/v1/client", { name: "Bluebonnet Widgets Inc.", unique_key: "E2E-C-1" });
  const matter = await api.post("/api/v1/matter", { name: "Peña v. Bluebonnet", unique_key: "E2E-M-1", client_id: client.id });
  await api.post("/api/v1/case", {
    name: "Peña Industries, LLC v. Bluebonnet Widgets Inc.",
    case_number: "2:24-cv-00123",
    matter_id: matter.id,
    jurisdiction_id: jurisdiction.id,
    assigned_timekeepers: [timekeeper.id],
  });
  const pennsylvania = await api.post("/api/v1/jurisdiction", { name: "Eastern District of Pennsylvania", ecfx_jurisdictions: ["paed"] });
  await api.post("/api/v1/case", {
    name: "O'Connor v. Keystone Freight Lines, Inc.",
    case_number: "2:23-cv-04567",
    matter_id: matter.id,
    jurisdiction_id: pennsylvania.id,
    assigned_timekeepers: [timekeeper.id],
  });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`inbox with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("an uploaded .eml is processed onto its case; the card shows the notice, documents and original e-mail", async ({ page }) => {
      await signedIn(page, USERS.docketing);
      await page.goto("/inbox-items");
      await page.getByRole("link", { name: "Upload an e-mail" }).click();
      await expect(page).toHaveURL(/\/inbox-items\/upload$/);
      // Each run sends a different message: the same one twice would be linked as a duplicate.
      const file = javaScriptEnabled ? "nef-district-qp-utf8.eml" : "nef-html-windows-1252.eml";
      await page.locator('input[type="file"][name="file"]').setInputFiles(path.join(fixtures, file));
      await page.getByRole("button", { name: "Upload" }).click();
      await expect(page).toHaveURL(/\/inbox-items\/id\//);
      // Processing takes a moment; the card shows the state it is in.
      await expect(async () => {
        await page.reload();
        await expect(page.getByTestId("card-status")).toHaveText("Succeeded", { timeout: 1000 });
      }).toPass({ timeout: 20_000 });
      await expect(page.getByTestId("card-case")).toContainText(javaScriptEnabled ? "2:24-cv-00123" : "2:23-cv-04567");
      await expect(page.getByTestId("card-parsed")).toContainText(javaScriptEnabled ? "Motion to Dismiss" : "Response in Opposition");
      await expect(page.getByTestId("card-documents")).toContainText("Stored");
      await expect(page.getByTestId("card-history")).toContainText("documents fetched");
      const frame = page.getByTestId("card-original").locator("iframe");
      await expect(frame).toHaveAttribute("sandbox", "");
      await expect(page.getByTestId("card-raw")).toContainText("Subject:", { useInnerText: false });

      const documentLink = page.getByTestId("card-documents").getByRole("link", { name: "Open" }).first();
      const href = await documentLink.getAttribute("href");
      const response = await page.request.get(href!);
      expect(response.headers()["content-type"]).toContain("application/pdf");
    });

    test("a notice for an unknown case waits for a person; retry is a form that works", async ({ page }) => {
      await signedIn(page, USERS.docketing);
      await page.goto("/inbox-items/upload");
      const file = javaScriptEnabled ? "nef-folded-subject.eml" : "nef-plain-iso-8859-1.eml";
      await page.locator('input[type="file"][name="file"]').setInputFiles(path.join(fixtures, file));
      await page.getByRole("button", { name: "Upload" }).click();
      await expect(page).toHaveURL(/\/inbox-items\/id\//);
      await expect(async () => {
        await page.reload();
        await expect(page.getByTestId("card-status")).toHaveText("Action Required", { timeout: 1000 });
      }).toPass({ timeout: 20_000 });
      await expect(page.getByTestId("card-reason")).toContainText(javaScriptEnabled ? "cand" : "No jurisdiction");
      await page.getByRole("button", { name: "Retry" }).click();
      await expect(page.getByText("Done.")).toBeVisible();
    });
  });
}

test("a role that may only read the inbox cannot upload", async ({ page }) => {
  await signedIn(page, USERS.viewonly);
  await page.goto("/inbox-items/upload");
  await expect(page).toHaveURL(/\/success$/);
});
