import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type Page, expect, test } from "@playwright/test";
import { SLOW_WAIT, API_URL, USERS, apiToken, signedIn, apiFetch, startSession } from "./helpers";

// The e-mail template editor (/templates/edit/{id}): Monaco with JavaScript, a plain textarea
// without; the preview renders the firm's latest processed notice; nothing loads from elsewhere.

const CASE_NUMBER = "24-40123";
const label = randomBytes(4).toString("hex");

async function apiCall(token: string, method: string, route: string, body?: unknown, contentType = "application/json") {
  const res = await apiFetch(`${API_URL}${route}`, {
    method,
    headers: { "content-type": contentType, authorization: `Bearer ${token}` },
    body: typeof body === "string" || body instanceof Buffer ? body : JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}

test.beforeAll(async () => {
  // A bankruptcy case of our own (no other browser test files a notice on it) and its notice, processed.
  const token = await apiToken();
  // Once per product instance: a test worker started again after a failure finds it done.
  const existing = await apiFetch(`${API_URL}/api/v1/case/search?filter.case_number=${CASE_NUMBER}`, { headers: { authorization: `Bearer ${token}` } });
  if (((await existing.json()) as unknown[]).length > 0) return;
  const post = (route: string, body: unknown) => apiCall(token, "POST", route, body);
  const jurisdiction = await post("/api/v1/jurisdiction", { name: `Bankr. E.D. Mich. ${label}`, ecfx_jurisdictions: ["mieb"] });
  const client = await post("/api/v1/client", { name: `Harbor Lights ${label}`, unique_key: `TPL-C-${label}` });
  const matter = await post("/api/v1/matter", { name: `Harbor Lights chapter 11 ${label}`, unique_key: `TPL-M-${label}`, client_id: client.id });
  const timekeeper = await post("/api/v1/timekeeper", { full_name: `Template Keeper ${label}`, email: `keeper-${label}@lawfirm.test` });
  await post("/api/v1/case", {
    name: "Harbor Lights Marine, LLC",
    case_number: CASE_NUMBER,
    matter_id: matter.id,
    jurisdiction_id: jurisdiction.id,
    assigned_timekeepers: [timekeeper.id],
  });
  const raw = fs
    .readFileSync(path.join(import.meta.dirname, "../fixtures/notices/nef-bankruptcy-base64.eml"), "latin1")
    .replace(/^Message-I[Dd]:.*$/m, `Message-ID: <templates-${label}@e2e.test>`);
  const { id } = await apiCall(token, "POST", "/api/v1/inbox/upload", Buffer.from(raw, "latin1"), "message/rfc822");
  await expect(async () => {
    const card = await apiCall(token, "GET", `/api/v1/inbox/${String(id)}/card`);
    expect((card.envelopes as unknown[]).length).toBe(1);
  }).toPass(SLOW_WAIT);
});

/** Every request the page makes, to prove the editor loads nothing from outside the console. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  return urls;
}

function expectOnlyLocal(urls: string[], baseURL: string | undefined) {
  expect(urls.length).toBeGreaterThan(0);
  // Workers may start from blob: URLs of the page's own origin; data: URLs are no network.
  const outside = urls.filter((url) => !url.startsWith("data:") && !url.replace(/^blob:/, "").startsWith(`${baseURL}/`));
  expect(outside).toEqual([]);
}

const previewFrame = (page: Page) => page.frameLocator('iframe[title="Preview of the e-mail"]');

test.describe("template editor with JavaScript", () => {
  test("a template made in the wizard is edited in Monaco, previewed with the notice, shown full screen and saved", async ({ page, baseURL }) => {
    await startSession(page, USERS.admin);
    await page.goto("/templates/new");
    await page.getByLabel(/^Name/).fill(`Editor test ${label}`);
    await page.getByLabel(/^Template/).fill("<p>First draft</p>");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await expect(page).toHaveURL(/\/templates\/[^/]+$/);

    const requests = recordRequests(page);
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await expect(page).toHaveURL(/\/templates\/edit\/[^/]+$/);
    const editorUrl = page.url();
    const editor = page.getByTestId("code-editor").locator(".monaco-editor");
    await expect(editor).toBeVisible(SLOW_WAIT);
    await expect(page.locator('input[type="hidden"][name="template"]')).toHaveValue("<p>First draft</p>");

    // Inserted as one input (as a paste or an input method would), then typed: typing the braces
    // key by key would meet Monaco's bracket closing. The system clipboard is not relied on: in a
    // headless browser a paste from it sometimes brings nothing.
    const source = "<h1>{{case.number}} {{case.name}}</h1> ok";
    await editor.locator(".view-lines").click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("Delete");
    await page.keyboard.insertText("<h1>{{case.number}} {{case.name}}</h1>");
    // Typed once the editor holds the insertion, with no suggestion open: on a loaded machine a
    // space typed while either was pending was lost.
    await expect(page.locator('input[type="hidden"][name="template"]')).toHaveValue("<h1>{{case.number}} {{case.name}}</h1>");
    await page.keyboard.press("Escape");
    await page.keyboard.type(" ok");
    await expect(page.locator('input[type="hidden"][name="template"]')).toHaveValue(source);

    await page.getByRole("button", { name: "Preview", exact: true }).click();
    await expect(page.getByTestId("preview-subject")).toContainText(`[${CASE_NUMBER}] Harbor Lights Marine, LLC`);
    await expect(previewFrame(page).locator("h1")).toHaveText(`${CASE_NUMBER} Harbor Lights Marine, LLC`);
    await expect(page.getByTestId("preview-sample")).toHaveCount(0);

    const fullscreen = page.getByRole("button", { name: "Full screen" });
    await fullscreen.click();
    await expect(page.getByTestId("code-editor")).toHaveAttribute("data-fullscreen", "true");
    const box = await page.getByTestId("code-editor").boundingBox();
    expect(box?.width).toBe(page.viewportSize()?.width);
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("code-editor")).not.toHaveAttribute("data-fullscreen");
    await fullscreen.click();
    await page.getByRole("button", { name: "Exit full screen (Esc)" }).click();
    await expect(page.getByTestId("code-editor")).not.toHaveAttribute("data-fullscreen");

    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Changes saved.")).toBeVisible();
    await page.goto(editorUrl);
    await expect(page.getByTestId("code-editor").locator(".monaco-editor")).toBeVisible(SLOW_WAIT);
    await expect(page.locator('input[type="hidden"][name="template"]')).toHaveValue(source);
    await expect(previewFrame(page).locator("h1")).toHaveText(`${CASE_NUMBER} Harbor Lights Marine, LLC`);
    expect(requests.some((url) => url.includes("/monaco/vs/"))).toBe(true);
    expectOnlyLocal(requests, baseURL);
  });

  test("a template that does not compile is refused with the engine's message on the field", async ({ page }) => {
    const token = await apiToken();
    const { id } = await apiCall(token, "POST", "/api/v1/email-template", { name: `Broken ${label}`, template: "<p>ok</p>" });
    await startSession(page, USERS.admin);
    await page.goto(`/templates/edit/${String(id)}`);
    const editor = page.getByTestId("code-editor").locator(".monaco-editor");
    await expect(editor).toBeVisible(SLOW_WAIT);
    await editor.locator(".view-lines").click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("Delete");
    // One input, as in the test above: typed key by key, the braces would meet Monaco's bracket closing.
    await page.keyboard.insertText("{{#if case.name}} never closed");
    await expect(page.locator('input[type="hidden"][name="template"]')).toHaveValue("{{#if case.name}} never closed");
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    await expect(page.getByTestId("preview-error")).toContainText("The template cannot be read:");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText(/^The template cannot be read: .*Parse error/)).toBeVisible();
  });
});

test.describe("template editor without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the textarea is previewed and saved by plain form posts", async ({ page, baseURL }) => {
    const token = await apiToken();
    const { id } = await apiCall(token, "POST", "/api/v1/email-template", { name: `No script ${label}`, template: "<p>Before</p>" });
    await signedIn(page, USERS.admin);
    const requests = recordRequests(page);
    await page.goto(`/templates/edit/${String(id)}`);
    const textarea = page.locator('textarea[name="template"]');
    await expect(textarea).toHaveValue("<p>Before</p>");
    await expect(page.getByRole("button", { name: "Full screen" })).toHaveCount(0);

    await textarea.fill("<p>No script {{case.number}}</p>");
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    await expect(previewFrame(page).locator("p")).toHaveText(`No script ${CASE_NUMBER}`);
    // The page came back with the text as typed, not as stored.
    await expect(textarea).toHaveValue("<p>No script {{case.number}}</p>");
    // Any recent notice can be chosen for the preview; the preview links the one it shows.
    const choice = page.getByLabel("Preview with");
    const notice = await choice.locator("option").nth(1).getAttribute("value");
    await choice.selectOption(notice!);
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    await expect(page.getByRole("link", { name: "Open the notice" })).toHaveAttribute("href", `/inbox-items/id/${notice}`);
    await expect(page.getByLabel("Preview with")).toHaveValue(notice!);

    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Changes saved.")).toBeVisible();
    await page.reload();
    await expect(textarea).toHaveValue("<p>No script {{case.number}}</p>");
    expectOnlyLocal(requests, baseURL);
  });
});
