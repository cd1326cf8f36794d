import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { SLOW_WAIT, API_URL, USERS, apiCreate, apiToken, ecfxFeatures, apiFetch, startSession } from "./helpers";

// AI title extraction seen from the inbox card: a firm entitled to it whose document processing
// settings point at a client URL ECFX may not call gets the document filed under its own name,
// and the card says the title was not extracted and why, with JavaScript on and off.

const fixture = path.join(import.meta.dirname, "../fixtures/notices/nef-attached-message.eml");
let token: string;
let preference: string;

const call = (method: string, route: string, body?: unknown) =>
  apiFetch(`${API_URL}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

test.beforeAll(async () => {
  expect(ecfxFeatures(["--set", "FAI_TITLE_EXTRACTION"])).toBe("Demo Law LLP: FAI_TITLE_EXTRACTION\n");
  token = await apiToken();
  // The Minnesota case the fixture notice is about (D. Minn., 0:24-cv-01999).
  const court = await apiCreate(token, "/api/v1/jurisdiction", { name: "District of Minnesota (titles)", ecfx_jurisdictions: ["mnd"] });
  const keeper = await apiCreate(token, "/api/v1/timekeeper", { full_name: "Title Keeper", email: "title.keeper@lawfirm.test" });
  const client = await apiCreate(token, "/api/v1/client", { name: "Northstar Outfitters, Inc.", unique_key: "E2E-TITLE-C" });
  const matter = await apiCreate(token, "/api/v1/matter", { name: "Birch v. Northstar", unique_key: "E2E-TITLE-M", client_id: client });
  await apiCreate(token, "/api/v1/case", {
    name: "Birch v. Northstar Outfitters, Inc.",
    case_number: "0:24-cv-01999",
    matter_id: matter,
    jurisdiction_id: court,
    assigned_timekeepers: [keeper],
  });
  const processing = await apiCreate(token, "/api/v1/document-processing", {
    name: "Titles from a loopback provider",
    extraction_enabled: true,
    extraction_provider: "FAI",
    extraction_client_url: "https://127.0.0.1:9",
    extraction_auth_path: "/oauth/token",
    extraction_client_id: "e2e",
    extraction_client_secret: "e2e-secret",
  });
  preference = await apiCreate(token, "/api/v1/jurisdiction-preference", { name: "Titles first", enabled: true, document_processing_id: processing });
  expect((await call("PUT", "/api/v1/jurisdiction-preference/order", { ids: [preference] })).status).toBe(200);
});

test.afterAll(async () => {
  if (preference) expect((await call("DELETE", `/api/v1/jurisdiction-preference/${preference}`)).status).toBeLessThan(300);
  ecfxFeatures(["--set="]);
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`title extraction with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a client URL ECFX may not call leaves the document its name; the card says why", async ({ page }) => {
      const label = `titles-${javaScriptEnabled ? "js" : "nojs"}`;
      // A message and a court document of its own, so it is no duplicate of the other run's.
      const raw = fs
        .readFileSync(fixture, "latin1")
        .replace(/^Message-I[Dd]:.*$/m, `Message-ID: <${label}@e2e.test>`)
        .replace("101110002222", javaScriptEnabled ? "101110002231" : "101110002241");
      const uploaded = await apiFetch(`${API_URL}/api/v1/inbox/upload`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "message/rfc822" },
        body: Buffer.from(raw, "latin1"),
      });
      expect(uploaded.status).toBe(201);
      const { id } = (await uploaded.json()) as { id: string };

      await startSession(page, USERS.admin);
      await page.goto(`/inbox-items/id/${id}`);
      await expect(async () => {
        await page.reload();
        await expect(page.getByTestId("card-status")).toHaveText("Succeeded", { timeout: 1000 });
      }).toPass(SLOW_WAIT);
      const documents = page.getByTestId("card-documents");
      await expect(documents).toContainText("Main document");
      await expect(documents).toContainText("Title not extracted · Not fetched: 127.0.0.1 leads to 127.0.0.1, a loopback address ECFX may not call.");
      await expect(page.getByTestId("card-history")).toContainText("Title extraction failed");
    });
  });
}
