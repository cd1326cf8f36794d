import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Page, expect, test } from "@playwright/test";
import { API_URL, USERS, apiCreate, apiToken, signedIn, apiFetch } from "./helpers";

// Every main page, in the light and the dark scheme with the firm's default colours and without
// the accessible-colours option: axe finds no serious or critical fault. With JavaScript the
// interactive page is checked; without, the page exactly as the server sent it, for the sign-in
// page and the pages whose server markup differs from the interactive one.

// The longest file by far: its tests share no state but what beforeAll makes (each worker makes
// its own), so both workers take them instead of one worker running them all in a row.
test.describe.configure({ mode: "parallel" });

const fixture = path.join(import.meta.dirname, "../fixtures/notices/nef-district-qp-utf8.eml");
const ids = { case: "", inbox: "", role: "" };

const post = apiCreate;

test.beforeAll(async () => {
  const token = await apiToken();
  // A worker that starts again runs this again: its own keys each time.
  const tag = randomBytes(4).toString("hex");
  const client = await post(token, "/api/v1/client", { name: `Contrast Client ${tag}`, unique_key: `A11Y-C-${tag}` });
  const matter = await post(token, "/api/v1/matter", { name: `Contrast Matter ${tag}`, unique_key: `A11Y-M-${tag}`, client_id: client });
  const jurisdiction = await post(token, "/api/v1/jurisdiction", { name: `Contrast District ${tag}`, ecfx_jurisdictions: ["txed"] });
  const timekeeper = await post(token, "/api/v1/timekeeper", { full_name: `Dana Contrast ${tag}`, email: `a11y-${tag}@lawfirm.test` });
  ids.case = await post(token, "/api/v1/case", {
    name: `Contrast v. Shade ${tag}`,
    case_number: "1:26-cv-00042",
    matter_id: matter,
    jurisdiction_id: jurisdiction,
    assigned_timekeepers: [timekeeper],
  });
  const raw = fs.readFileSync(fixture, "latin1").replace(/^Message-I[Dd]:.*$/m, `Message-ID: <a11y-${tag}@e2e.test>`);
  const upload = await apiFetch(`${API_URL}/api/v1/inbox/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "message/rfc822" },
    body: Buffer.from(raw, "latin1"),
  });
  expect(upload.status).toBe(201);
  ids.inbox = ((await upload.json()) as { id: string }).id;
  const roles = await apiFetch(`${API_URL}/api/v1/security-role/search?filter.name=Docketing`, { headers: { authorization: `Bearer ${token}` } });
  ids.role = ((await roles.json()) as { id: string; name: string }[]).find((r) => r.name === "Docketing")!.id;
});

/** `serverDrawn`: also checked without JavaScript, where the server draws other markup (plain tables, static charts). */
const PAGES: { name: string; path: () => string; serverDrawn?: boolean }[] = [
  { name: "dashboard", serverDrawn: true, path: () => "/dashboard?period=today" },
  { name: "cases", serverDrawn: true, path: () => "/cases" },
  { name: "a case", serverDrawn: true, path: () => `/cases/${ids.case}` },
  { name: "the new case wizard", path: () => "/cases/new" },
  { name: "inbox", serverDrawn: true, path: () => "/inbox-items" },
  { name: "an inbox card", path: () => `/inbox-items/id/${ids.inbox}` },
  { name: "profile", path: () => "/profile" },
  { name: "firm information", path: () => "/firm-information" },
  { name: "dictionary", serverDrawn: true, path: () => "/dictionary" },
  { name: "a dictionary entry", path: () => "/dictionary/edit?namespace=common&key=pages.clients" },
  { name: "ethical walls", path: () => "/ethical-walls" },
  { name: "security roles", serverDrawn: true, path: () => "/security-roles" },
  { name: "a security role", serverDrawn: true, path: () => `/security-roles/${ids.role}` },
  { name: "storage policies", path: () => "/storage-policies" },
  { name: "email templates", path: () => "/templates" },
  { name: "developer page", path: () => "/dev" },
  { name: "demo reset", path: () => "/demo" },
  { name: "hierarchy", path: () => "/hierarchy" },
  { name: "jurisdiction preferences", serverDrawn: true, path: () => "/jurisdiction-preferences" },
];

async function setScheme(page: Page, darkMode: boolean) {
  const res = await page.request.post("/preferences/theme", { form: { darkMode: String(darkMode), accessibleColors: "false" }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
}

/** Serious and critical faults, one line each, so a failure names the element and the reason. */
async function seriousFaults(page: Page): Promise<string[]> {
  // Framed content is the sender's own HTML (an original e-mail, a template preview), not the console's.
  // Every rule runs; only the faults are reported in full (passes would be collected per node).
  const results = await new AxeBuilder({ page })
    .exclude("iframe")
    .options({ resultTypes: ["violations"] })
    .analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}: ${n.any[0]?.message ?? n.failureSummary ?? ""}`));
}

/**
 * Without JavaScript: the page exactly as the server sent it. The browser keeps JavaScript for
 * axe itself, but the console's own scripts are never loaded, so React never takes over.
 */
async function withoutConsoleScripts(page: Page) {
  await page.route(/\/build\/.*\.js(\?.*)?$/, (route) => route.abort());
}

for (const js of [true, false]) {
  for (const darkMode of [false, true]) {
    test.describe(`${darkMode ? "dark" : "light"} scheme, JavaScript ${js ? "on" : "off"}`, () => {
      const prepare = async (page: Page) => {
        if (!js) await withoutConsoleScripts(page);
        await setScheme(page, darkMode);
      };
      async function faultsOf(page: Page, path: string): Promise<string[]> {
        await page.goto(path);
        await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", darkMode ? "dark" : "light");
        // With JavaScript, check the page React has taken over, not the server's first draw.
        if (js) await expect(page.locator("body[data-hydrated]")).toBeAttached();
        else await expect(page.locator("body[data-hydrated]")).toHaveCount(0);
        return seriousFaults(page);
      }

      test("sign-in page", async ({ page }) => {
        await prepare(page);
        expect(await faultsOf(page, "/login")).toEqual([]);
      });

      // One sign-in for every page of the scheme: signing in is most of a page's cost, and a
      // failure still names each page with its faults.
      test("every main page", async ({ page }) => {
        const pages = PAGES.filter((p) => js || p.serverDrawn);
        // axe reads the whole page: slow on a busy machine.
        test.setTimeout(30_000 + pages.length * 20_000);
        await prepare(page);
        await signedIn(page, USERS.admin);
        const faults: Record<string, string[]> = {};
        for (const p of pages) {
          await test.step(p.name, async () => {
            const found = await faultsOf(page, p.path());
            if (found.length > 0) faults[p.name] = found;
          });
        }
        expect(faults).toEqual({});
      });
    });
  }
}
