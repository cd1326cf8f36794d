import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { API_URL, PASSWORD, USERS, signedIn, startSession } from "./helpers";

// Where the inbox leads: each row to its card, a case to its notices and documents, an ECF
// notification to its documents; and the pages around them that must not look unfinished.

const fixtures = path.join(import.meta.dirname, "../fixtures/notices");
const tag = `pages-${randomBytes(4).toString("hex")}`;
const ids = { item: "", case: "", envelope: "", template: "" };

async function adminApi(request: APIRequestContext) {
  const login = await request.post(`${API_URL}/auth/login`, { data: { username: USERS.admin, password: PASSWORD } });
  const headers = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
  return {
    /** The first record a search finds. */
    find: async (route: string) => ((await (await request.get(`${API_URL}${route}`, { headers })).json()) as { id: string }[])[0]?.id,
    post: async (route: string, data: unknown) => {
      const response = await request.post(`${API_URL}${route}`, { data, headers });
      expect(response.status(), route).toBe(201);
      return ((await response.json()) as { id: string }).id;
    },
    upload: async (file: string) => {
      // Its own Message-ID and a tag in the subject, so that this run's notice is found by search.
      const raw = fs
        .readFileSync(path.join(fixtures, file), "latin1")
        .replace(/^Message-I[Dd]:.*$/m, `Message-ID: <${tag}@e2e.test>`)
        .replace(/^Subject:[ \t]*/m, `Subject: [${tag}] `);
      const response = await request.post(`${API_URL}/api/v1/inbox/upload`, {
        data: Buffer.from(raw, "latin1"),
        headers: { ...headers, "content-type": "message/rfc822" },
      });
      expect(response.status()).toBe(201);
      return ((await response.json()) as { id: string }).id;
    },
    card: async (id: string) =>
      (await (await request.get(`${API_URL}/api/v1/inbox/${id}/card`, { headers })).json()) as {
        item: { status: string; case_id: string | null };
        envelopes: { id: string }[];
        documents: { stored: boolean }[];
      },
  };
}

/** The Arkansas case the fixture notice is about, on a jurisdiction mapped to E.D. Ark. */
async function addCase(api: Awaited<ReturnType<typeof adminApi>>) {
  const jurisdiction = await api.post("/api/v1/jurisdiction", { name: "Eastern District of Arkansas", ecfx_jurisdictions: ["ared"] });
  const timekeeper = await api.post("/api/v1/timekeeper", { full_name: "Marisol Vega", email: `${tag}@lawfirm.test` });
  const client = await api.post("/api/v1/client", { name: "Ozark Timber Co.", unique_key: `E2E-C-${tag}` });
  const matter = await api.post("/api/v1/matter", { name: "Lindqvist v. Ozark Timber", unique_key: `E2E-M-${tag}`, client_id: client });
  return api.post("/api/v1/case", {
    name: "Lindqvist v. Ozark Timber Co.",
    case_number: "4:24-cv-00321",
    matter_id: matter,
    jurisdiction_id: jurisdiction,
    assigned_timekeepers: [timekeeper],
  });
}

test.beforeAll(async ({ request }, testInfo) => {
  // Processing fetches the notice's document from the court simulator: more than the default half-minute on a busy machine.
  testInfo.setTimeout(120_000);
  const api = await adminApi(request);
  // After a retry the case is there already; a second one with its number would make the match ambiguous.
  ids.case = (await api.find("/api/v1/case/search?freeText=4%3A24-cv-00321")) ?? (await addCase(api));
  ids.item = await api.upload("nef-forwarded-outlook.eml");
  await expect(async () => {
    const card = await api.card(ids.item);
    expect(card.item.status, JSON.stringify(card).slice(0, 3000)).toBe("Succeeded");
    expect(
      card.documents.some((d) => d.stored),
      JSON.stringify(card.documents),
    ).toBe(true);
    ids.envelope = card.envelopes[0]!.id;
  }).toPass({ timeout: 90_000 });
  ids.template = await api.post("/api/v1/email-template", { name: `Preview ${tag}`, template: "<p>Notice for <b>{{case.name}}</b></p>" });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`inbox pages with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("every inbox row opens its card, and the old record address leads there too", async ({ page }) => {
      await startSession(page, USERS.docketing);
      await page.goto(`/inbox-items?q=${tag}`);
      const table = page.getByTestId("resource-table");
      await expect(table).toHaveAttribute("data-renderer", javaScriptEnabled ? "interactive" : "plain");
      await table.getByRole("link", { name: new RegExp(tag) }).click();
      await expect(page).toHaveURL(new RegExp(`/inbox-items/id/${ids.item}$`));
      await expect(page.getByTestId("card-status")).toHaveText("Succeeded");
      await expect(page.getByTestId("card-documents")).toContainText("Main Document");

      await page.goto(`/inbox-items/${ids.item}`);
      await expect(page).toHaveURL(new RegExp(`/inbox-items/id/${ids.item}$`));
      await expect(page.getByTestId("card-original")).toBeVisible();
    });

    test("a case page lists its notices, which open their cards, and their documents, which open", async ({ page }) => {
      await startSession(page, USERS.docketing);
      await page.goto(`/cases/${ids.case}`);
      const documents = page.getByTestId("related-documents");
      await expect(documents).toContainText("Main Document");
      const open = documents.getByRole("link", { name: "Open" }).first();
      const pdf = await page.request.get((await open.getAttribute("href"))!);
      expect(pdf.status()).toBe(200);
      expect(pdf.headers()["content-type"]).toContain("application/pdf");

      const notices = page.getByTestId("related-notices");
      await expect(notices).toContainText("Succeeded");
      await notices.getByRole("link", { name: new RegExp(tag) }).click();
      await expect(page).toHaveURL(new RegExp(`/inbox-items/id/${ids.item}$`));
    });

    test("an ECF notification page lists its documents with their notice", async ({ page }) => {
      await startSession(page, USERS.docketing);
      await page.goto(`/ecfx-notification/${ids.envelope}`);
      const documents = page.getByTestId("related-documents");
      await expect(documents).toContainText("Main Document");
      await expect(documents.getByRole("link", { name: "Open" })).toHaveCount(1);
      await documents.getByRole("link", { name: "Notice" }).click();
      await expect(page).toHaveURL(new RegExp(`/inbox-items/id/${ids.item}$`));
    });

    test("a template page shows the mail rendered in a sandboxed frame, not its HTML source", async ({ page }) => {
      await startSession(page, USERS.admin);
      await page.goto(`/templates/${ids.template}`);
      const frame = page.getByTestId("template-preview").locator("iframe");
      await expect(frame).toHaveAttribute("sandbox", "");
      await expect(page.frameLocator('[data-testid="template-preview"] iframe').locator("p")).toContainText("Notice for");
      await expect(page.getByTestId("record-details")).not.toContainText("<p>");
      await expect(page.getByText("<p>Notice for", { exact: false })).toHaveCount(0);
    });

    test("an unknown address answers 404 with a way home, signed out and signed in", async ({ page }) => {
      const signedOut = await page.goto("/no-such-page");
      expect(signedOut?.status()).toBe(404);
      await expect(page.getByTestId("not-found")).toContainText("Page not found");
      await page.getByRole("link", { name: "Go to sign in" }).click();
      await expect(page).toHaveURL(/\/login$/);

      await signedIn(page, USERS.docketing);
      for (const address of ["/no-such-page", "/no-such/123", "/cases/one/two/three"]) {
        const answer = await page.goto(address);
        expect(answer?.status(), address).toBe(404);
        await expect(page.getByTestId("not-found"), address).toContainText("There is no page at this address.");
      }
      await page.getByRole("link", { name: "Go to the dashboard" }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
    });

    test("a denied page lands on No Access, which answers 403", async ({ page }) => {
      await signedIn(page, USERS.viewonly);
      const answer = await page.goto("/dev");
      await expect(page).toHaveURL(/\/success$/);
      expect(answer?.status()).toBe(403);
      await expect(page.getByTestId("no-access")).toBeVisible();
    });
  });
}

test("every drawer entry has an icon", async ({ page }) => {
  await startSession(page, USERS.admin);
  await page.goto("/profile");
  const links = page.locator("nav .drawer-link");
  await expect(links.first()).toBeVisible();
  expect(await links.count()).toBeGreaterThan(20);
  for (const link of await links.all()) await expect(link.locator("svg"), (await link.textContent()) ?? "").toHaveCount(1);
  // The page's own entry, and only it, is marked as the current page.
  await expect(page.locator('nav .drawer-link[aria-current="page"]')).toHaveText(["Profile"]);
});

test("a drawer link stays the element the server drew once the page is interactive, and then moves without loading a document", async ({ page }) => {
  const inbox = 'nav a.drawer-link[href="/inbox-items"]';
  // The link as the parser makes it, before any script runs: a click pressed on it while the page
  // hydrates must be released on the same element, or the browser drops it.
  await page.addInitScript((selector) => {
    new MutationObserver((_, observer) => {
      const link = document.querySelector(selector);
      if (!link) return;
      (window as unknown as { drawn: Element }).drawn = link;
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  }, inbox);
  await startSession(page, USERS.docketing);
  await page.goto("/profile");
  await expect(page.locator("body[data-hydrated]")).toBeAttached();
  const same = (selector: string) => {
    const drawn = (window as unknown as { drawn?: Element }).drawn;
    return drawn !== undefined && drawn.isConnected && drawn === document.querySelector(selector);
  };
  expect(await page.evaluate(same, inbox)).toBe(true);
  await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
  await page.locator(inbox).click();
  await expect(page).toHaveURL(/\/inbox-items$/);
  await expect(page.locator('nav .drawer-link[aria-current="page"]')).toHaveText(["Inbox"]);
  expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(true);
});

test("entity names and import formats read as sentences, not keys", async ({ page }) => {
  await startSession(page, USERS.admin);
  await page.goto("/profile");
  await expect(page.getByTestId("role-table")).toContainText("Storage policies");
  await expect(page.getByTestId("role-table")).not.toContainText(/policys|resourceTypes\./);
  await page.goto("/storage-policies/import");
  await expect(page.getByTestId("import-columns")).toContainText("name=value pairs, one per line");
  await expect(page.locator("main")).not.toContainText("import.formats.");
});

test("a crafted upload that is not a multipart form is refused with a 4xx and a clear message", async ({ page }) => {
  await signedIn(page, USERS.docketing);
  const bodies = [
    { headers: { "content-type": "text/plain" }, data: "file=abc" },
    { headers: { "content-type": "application/json" }, data: '{"file":"abc"}' },
    { headers: { "content-type": "multipart/form-data; boundary=nothing" }, data: "file=abc" },
  ];
  for (const body of bodies) {
    const answer = await page.request.post("/inbox-items/upload", body);
    expect(answer.status(), body.headers["content-type"]).toBeGreaterThanOrEqual(400);
    expect(answer.status(), body.headers["content-type"]).toBeLessThan(500);
    expect(await answer.text()).toMatch(/The form could not be read\. Reload the page and send it again\.|Choose a non-empty \.eml file to upload\./);
  }
});
