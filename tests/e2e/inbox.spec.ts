import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { SLOW_WAIT, API_URL, PASSWORD, USERS, signedIn, startSession } from "./helpers";

const fixtures = path.join(import.meta.dirname, "../fixtures/notices");

async function adminApi(request: APIRequestContext) {
  const login = await request.post(`${API_URL}/auth/login`, { data: { username: USERS.admin, password: PASSWORD } });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const headers = { authorization: `Bearer ${token}` };
  return {
    post: async (route: string, data: unknown) => (await (await request.post(`${API_URL}${route}`, { data, headers })).json()) as { id: string },
    /** A fixture as a new message: its own Message-ID and `[label]` before the subject (which parsers skip). */
    upload: async (file: string, label: string) => {
      const raw = fs
        .readFileSync(path.join(fixtures, file), "latin1")
        .replace(/^Message-I[Dd]:.*$/m, `Message-ID: <${label}@e2e.test>`)
        .replace(/^Subject:[ \t]*/m, `Subject: [${label}] `);
      const response = await request.post(`${API_URL}/api/v1/inbox/upload`, {
        data: Buffer.from(raw, "latin1"),
        headers: { ...headers, "content-type": "message/rfc822" },
      });
      expect(response.status()).toBe(201);
      return ((await response.json()) as { id: string }).id;
    },
    status: async (id: string) =>
      ((await (await request.get(`${API_URL}/api/v1/inbox/${id}/card`, { headers })).json()) as { item: { status: string } }).item.status,
  };
}

/** Until the worker has taken every item through the pipeline. */
async function processed(api: Awaited<ReturnType<typeof adminApi>>, ids: string[]) {
  await expect(async () => {
    for (const id of ids) expect(["New", "Started"]).not.toContain(await api.status(id));
  }).toPass(SLOW_WAIT);
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
      await startSession(page, USERS.docketing);
      await page.goto("/inbox-items");
      await page.getByRole("link", { name: "Upload an e-mail" }).click();
      await expect(page).toHaveURL(/\/inbox-items\/upload$/);
      // The page says what it takes and what becomes of it.
      await expect(page.getByTestId("upload-accepts")).toContainText(".eml file");
      await expect(page.getByTestId("upload-accepts")).toContainText(".msg files are not read");
      await expect(page.getByTestId("upload-accepts")).toContainText("50 MB");
      await expect(page.getByTestId("upload-then")).toContainText("matches it to a case");
      // Each run sends a different message: the same one twice would be linked as a duplicate.
      const file = javaScriptEnabled ? "nef-district-qp-utf8.eml" : "nef-html-windows-1252.eml";
      await page.locator('input[type="file"][name="file"]').setInputFiles(path.join(fixtures, file));
      await page.getByRole("button", { name: "Upload" }).click();
      await expect(page).toHaveURL(/\/inbox-items\/id\//);
      // Processing takes a moment; the card follows it to its final state by itself (data read
      // again with JavaScript, the page reloading itself without), and then stops saying so.
      await expect(page.getByTestId("card-status")).toHaveText("Succeeded", SLOW_WAIT);
      await expect(page.getByTestId("card-following")).toHaveCount(0);
      await expect(page.getByTestId("card-case")).toContainText(javaScriptEnabled ? "2:24-cv-00123" : "2:23-cv-04567");
      await expect(page.getByTestId("card-parsed")).toContainText(javaScriptEnabled ? "Motion to Dismiss" : "Response in Opposition");
      await expect(page.getByTestId("card-documents")).toContainText("Stored");
      await expect(page.getByTestId("card-history")).toContainText("Documents fetched");
      const frame = page.getByTestId("card-original").locator("iframe");
      await expect(frame).toHaveAttribute("sandbox", "");
      await expect(page.getByTestId("card-raw")).toContainText("Subject:", { useInnerText: false });

      const documentLink = page.getByTestId("card-documents").getByRole("link", { name: "Open" }).first();
      const href = await documentLink.getAttribute("href");
      const response = await page.request.get(href!);
      expect(response.headers()["content-type"]).toContain("application/pdf");
    });

    test("a notice for an unknown case waits for a person; retry is a form that works", async ({ page }) => {
      await startSession(page, USERS.docketing);
      await page.goto("/inbox-items/upload");
      const file = javaScriptEnabled ? "nef-folded-subject.eml" : "nef-plain-iso-8859-1.eml";
      await page.locator('input[type="file"][name="file"]').setInputFiles(path.join(fixtures, file));
      await page.getByRole("button", { name: "Upload" }).click();
      await expect(page).toHaveURL(/\/inbox-items\/id\//);
      await expect(async () => {
        await page.reload();
        await expect(page.getByTestId("card-status")).toHaveText("Action Required", { timeout: 1000 });
      }).toPass(SLOW_WAIT);
      await expect(page.getByTestId("card-reason")).toContainText(javaScriptEnabled ? "cand" : "No jurisdiction");
      await page.getByRole("button", { name: "Retry" }).click();
      await expect(page.getByText("Done.")).toBeVisible();
    });
  });
}

test.describe("bulk actions on the inbox list with JavaScript on", () => {
  test("retries the ticked rows with progress and a summary, then archives everything matching the filter", async ({ page, request }) => {
    const api = await adminApi(request);
    const tag = `bulk-js-${randomBytes(4).toString("hex")}`;
    const ids = [
      await api.upload("unrecognised-layout.eml", `${tag}-1`),
      await api.upload("unrecognised-layout.eml", `${tag}-2`),
      await api.upload("court-announcement.eml", `${tag}-3`),
    ];
    await processed(api, ids);

    await startSession(page, USERS.docketing);
    await page.goto(`/inbox-items?q=${tag}`);
    const table = page.getByTestId("resource-table");
    await expect(table).toHaveAttribute("data-renderer", "interactive");
    await expect(table.getByRole("row")).toHaveCount(4);
    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await expect(page.getByTestId("bulk-selected")).toHaveText("3 selected");
    await page.getByRole("button", { name: "Retry" }).click();

    await expect(page.getByTestId("bulk-progress")).toContainText("3 of 3 processed");
    await expect(page.getByTestId("bulk-progress")).toHaveAttribute("data-running", "false");
    await expect(page.getByText("Retry: 2 done, 1 skipped (status Succeeded: 1).")).toBeVisible();
    await expect(page.getByTestId("bulk-selected")).toHaveText("0 selected");
    expect(await api.status(ids[2]!)).toBe("Succeeded");
    await processed(api, ids);

    // Every item the filter matches, whatever the page: the server resolves the ids.
    await page.getByRole("checkbox", { name: /Apply to all 3 items matching the filters/ }).check();
    await page.getByRole("button", { name: "Archive" }).click();
    await expect(page.getByText("Archive: 3 done, 0 skipped.")).toBeVisible();
    await expect(table.getByText(/^(No results found|No rows match\.)$/)).toBeVisible();
  });
});

test.describe("bulk actions on the inbox list with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("retries the items that need attention once their case exists; the list keeps its filters", async ({ page, request }) => {
    const api = await adminApi(request);
    const tag = `bulk-nojs-${randomBytes(4).toString("hex")}`;
    const ids = [await api.upload("nef-html-no-charset.eml", `${tag}-1`), await api.upload("nef-html-no-charset.eml", `${tag}-2`)];
    await processed(api, ids);
    expect(await api.status(ids[0]!)).toBe("Action Required");

    // The cause goes away: the court is mapped and the case exists.
    const georgia = await api.post("/api/v1/jurisdiction", { name: "Northern District of Georgia", ecfx_jurisdictions: ["gand"] });
    const client = await api.post("/api/v1/client", { name: "United States", unique_key: `E2E-C-${tag}` });
    const matter = await api.post("/api/v1/matter", { name: "USA v. Marsh", unique_key: `E2E-M-${tag}`, client_id: client.id });
    const timekeeper = await api.post("/api/v1/timekeeper", { full_name: "Riley Chen", email: `${tag}@lawfirm.test` });
    const created = await api.post("/api/v1/case", {
      name: "USA v. Marsh",
      case_number: "1:24-cr-00077",
      matter_id: matter.id,
      jurisdiction_id: georgia.id,
      assigned_timekeepers: [timekeeper.id],
    });
    expect(created.id).toBeTruthy();

    await signedIn(page, USERS.docketing);
    const listUrl = `/inbox-items?q=${tag}&filter.status=Action+Required`;
    await page.goto(listUrl);
    await expect(page.getByTestId("resource-table")).toHaveAttribute("data-renderer", "plain");
    const form = page.getByRole("form", { name: "Bulk actions" });
    const rows = form.locator('input[type="checkbox"][name="ids"]');
    await expect(rows).toHaveCount(2);
    for (const row of await rows.all()) await row.check();
    await form.getByRole("button", { name: "Retry" }).click();

    await expect(page).toHaveURL(/\/inbox-items\?q=bulk-nojs-[0-9a-f]+&filter\.status=Action\+Required$/);
    await expect(page.locator("[data-toast=success]")).toHaveText("Retry: 2 done, 0 skipped.");
    await expect(async () => {
      await page.goto(`/inbox-items?q=${tag}`);
      await expect(page.getByTestId("resource-table").getByRole("cell", { name: "Succeeded", exact: true })).toHaveCount(2, { timeout: 1000 });
    }).toPass(SLOW_WAIT);

    // The whole page at once, then everything the filter matches.
    await form.getByRole("checkbox", { name: "Select all on this page" }).check();
    await form.getByRole("button", { name: "Process manually" }).click();
    await expect(page.locator("[data-toast=success]")).toHaveText("Process manually: 2 done, 0 skipped.");
    await expect(page.getByTestId("resource-table").getByRole("cell", { name: "Manual", exact: true })).toHaveCount(2);
    await form.getByRole("checkbox", { name: /Apply to all 2 items matching the filters/ }).check();
    await form.getByRole("button", { name: "Archive" }).click();
    await expect(page.locator("[data-toast=success]")).toHaveText("Archive: 2 done, 0 skipped.");
    await expect(page.getByTestId("resource-table")).toContainText("No rows match.");
  });
});

test("a role that may only read the inbox sees no bulk actions, and a forged post is refused with a toast", async ({ page }) => {
  await startSession(page, USERS.viewonly);
  await page.goto("/inbox-items");
  await expect(page.getByTestId("resource-table")).toBeVisible();
  await expect(page.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: "Select all on this page" })).toHaveCount(0);
  const forged = await page.request.post("/inbox-items?index", { form: { action: "retry", ids: "any" } });
  expect(forged.status()).toBe(200);
  expect(await forged.text()).toContain("You do not have access to this.");
});

test("a role that may only read the inbox cannot upload", async ({ page }) => {
  await startSession(page, USERS.viewonly);
  await page.goto("/inbox-items/upload");
  await expect(page).toHaveURL(/\/success$/);
});
