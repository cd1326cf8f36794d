import http from "node:http";
import AxeBuilder from "@axe-core/playwright";
import { type Page, expect, test } from "@playwright/test";
import { API_URL, USERS, apiToken, e2eInstance, signIn, signedIn, apiFetch, startSession } from "./helpers";

// The dashboard with and without JavaScript: charts as server-drawn SVG, their tables behind
// "Show data", the period in the URL through a GET form, and no serious accessibility fault.

test.beforeAll(async () => {
  const token = await apiToken();
  for (const subject of ["Dashboard one", "Dashboard two"]) {
    const raw = `From: clerk@court.test\r\nTo: notices@demo.ecfx.test\r\nSubject: ${subject}\r\n\r\nA notice for the dashboard.\r\n`;
    const res = await apiFetch(`${API_URL}/api/v1/inbox/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "message/rfc822" },
      body: raw,
    });
    expect(res.status).toBe(201);
  }
});

async function choosePeriod(page: Page, hydrates: boolean, period: string, dates?: { from: string; to: string }) {
  // React sets the select to its rendered value when it takes the page over: choose after that.
  if (hydrates) await expect(page.locator("[data-testid=period-form][data-hydrated]")).toBeAttached();
  await page.getByLabel("Time period").selectOption(period);
  if (dates) {
    await page.getByLabel("From (custom period)").fill(dates.from);
    await page.getByLabel("To (custom period)").fill(dates.to);
  }
  await page.getByRole("button", { name: "Show", exact: true }).click();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`dashboard with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("draws every chart as SVG on the server, with its numbers behind Show data", async ({ page }) => {
      // A chart the client draws otherwise than the server fails hydration: React then says so here.
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      await startSession(page, USERS.admin);
      await page.goto("/dashboard?period=today");
      for (const chart of ["by-state", "by-hour", "by-month"]) {
        await expect(page.getByTestId(chart).locator("svg.recharts-surface")).toBeVisible();
        await expect(page.getByTestId(chart).locator(".recharts-bar-rectangle").first()).toBeAttached();
      }
      const table = page.getByTestId("by-hour-table");
      await expect(table).toBeHidden();
      await page.getByTestId("by-hour").getByText("Show data").click();
      await expect(table).toBeVisible();
      await expect(table.getByRole("row")).toHaveCount(25);
      await expect(page.getByTestId("period-shown")).toContainText(/[1-9]\d* notices in the period/);
      await expect(page.getByTestId("time-saved-how")).toContainText("minutes per notice");
      await expect(page.getByTestId("documents-received")).toBeVisible();
      await expect(page.getByTestId("top-clients")).toContainText("None in this period.");
      if (javaScriptEnabled) {
        // Once the page is interactive a bar tells its count.
        await expect(page.locator("[data-testid=period-form][data-hydrated]")).toBeAttached();
        await page.getByTestId("by-state").locator(".recharts-bar-rectangle path").first().hover();
        await expect(page.getByTestId("by-state").locator(".recharts-default-tooltip")).toContainText(/Notices : [1-9]/);
      }
      expect(pageErrors).toEqual([]);
    });

    test("keeps the period in the URL, so a bookmark opens on it", async ({ page }) => {
      await startSession(page, USERS.admin);
      await page.goto("/dashboard");
      if (javaScriptEnabled) await page.evaluate(() => Object.assign(window, { sameDocument: true }));
      await choosePeriod(page, javaScriptEnabled, "last_7_days");
      await expect(page).toHaveURL(/period=last_7_days/);
      await expect(page.getByLabel("Time period")).toHaveValue("last_7_days");
      await expect(page.getByTestId("period-shown")).toContainText(/[1-9]\d* notices in the period/);
      // With JavaScript the new period comes without loading the page again.
      if (javaScriptEnabled) expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

      await page.goto("/dashboard?period=custom&from=2020-01-01&to=2020-01-31");
      await expect(page.getByLabel("Time period")).toHaveValue("custom");
      await expect(page.getByTestId("period-shown")).toContainText("2020-01-01 to 2020-01-31 · 0 notices in the period");
    });

    test("dates chosen without choosing Custom show the custom period, and another period leaves it", async ({ page }) => {
      await startSession(page, USERS.admin);
      await page.goto("/dashboard?period=today");
      await choosePeriod(page, javaScriptEnabled, "today", { from: "2020-01-01", to: "2020-01-31" });
      await expect(page.getByTestId("period-shown")).toContainText("2020-01-01 to 2020-01-31 · 0 notices in the period");
      await expect(page.getByLabel("Time period")).toHaveValue("custom");

      // Back to a listed period: the dates the custom one left in the form do not hold it.
      await choosePeriod(page, javaScriptEnabled, "last_year");
      await expect(page.getByLabel("Time period")).toHaveValue("last_year");
      await expect(page.getByTestId("period-shown")).not.toContainText("2020-01-01");
    });

    test("asks for two dates when a custom period lacks one", async ({ page }) => {
      await startSession(page, USERS.admin);
      await page.goto("/dashboard");
      await choosePeriod(page, javaScriptEnabled, "custom", { from: "2026-01-01", to: "" });
      await expect(page.getByTestId("period-error")).toHaveText("Select two dates");
      await expect(page.getByTestId("by-state")).toHaveCount(0);
    });
  });
}

// As a user first sees it (the firm's colours, whose primary shade the theme picks to read at
// 4.5:1) and with the accessible-colours option (spec §2), in both schemes.
test.describe("dashboard accessibility", () => {
  for (const accessibleColors of [false, true])
    for (const darkMode of [false, true]) {
      const scheme = `${darkMode ? "dark" : "light"} scheme${accessibleColors ? " with accessible colours" : ""}`;
      test(`has no serious or critical axe violation in the ${scheme}`, async ({ page }) => {
        await signedIn(page, USERS.admin);
        await page.request.post("/preferences/theme", { form: { darkMode: String(darkMode), accessibleColors: String(accessibleColors) } });
        await page.goto("/dashboard?period=today");
        await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", darkMode ? "dark" : "light");
        await expect(page.getByTestId("by-state").locator("svg.recharts-surface")).toBeVisible();
        await page.getByTestId("by-state").getByText("Show data").click();
        const results = await new AxeBuilder({ page }).analyze();
        const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
        expect(serious.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}: ${n.any[0]?.message ?? ""}`))).toEqual([]);
      });
    }
});

// The console reports page views to the API, which sends them to the configured endpoint: here a
// receiver on the port the test configuration names. Sign-in is never counted.
test.describe("page views", () => {
  const views: { title: string; path: string; distinct_id: string }[] = [];
  const identifies: { $distinct_id: string; $set_once: { $email: string; $name: string } }[] = [];
  let receiver: http.Server;
  test.beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let text = "";
      req.on("data", (chunk: Buffer) => (text += chunk.toString()));
      req.on("end", () => {
        for (const e of JSON.parse(text) as { event?: string; properties?: (typeof views)[number] }[])
          if (e.event === "View Page") views.push(e.properties!);
          else if (req.url?.startsWith("/engage")) identifies.push(e as unknown as (typeof identifies)[number]);
        res.end("1");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(e2eInstance().analyticsPort, "127.0.0.1", resolve));
  });
  test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  for (const javaScriptEnabled of [true, false]) {
    test(`are sent for every page but sign-in, until the user opts out (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({ browser }) => {
      const page = await browser.newPage({ javaScriptEnabled });
      views.length = 0;
      await signedIn(page, USERS.docketing);
      await page.getByRole("link", { name: "Inbox" }).first().click();
      await expect(page).toHaveURL(/\/inbox-items/);
      await expect.poll(() => views.map((v) => v.title)).toEqual(["Dashboard", "Inbox"]);
      expect(views.map((v) => v.path)).toEqual(["/dashboard", "/inbox-items"]);

      await page.goto("/profile");
      await expect.poll(() => views.map((v) => v.title)).toEqual(["Dashboard", "Inbox", "Profile"]);
      await page.getByLabel("Do not count my page views").check();
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.getByText("Your analytics choice was saved.")).toBeVisible();
      await page.goto("/dashboard");
      await expect(page.getByTestId("documents")).toBeVisible();
      await page.goto("/profile");
      // Opted in again: the page after saving is the first one counted since the opt-out.
      await page.getByLabel("Do not count my page views").uncheck();
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.getByText("Your analytics choice was saved.")).toBeVisible();
      // A page after it closes the list: a page counted twice, or counted while opted out, would
      // stand before it and the list would never read so.
      await page.getByRole("link", { name: "Inbox" }).first().click();
      await expect(page).toHaveURL(/\/inbox-items/);
      await expect.poll(() => views.map((v) => v.title)).toEqual(["Dashboard", "Inbox", "Profile", "Profile", "Inbox"]);
      await page.close();
    });
  }

  // Spec §9: analytics persist in local storage. With JavaScript the browser keeps the identity
  // (never in a cookie) and reports the pages it moves to with it; identify goes once from it.
  test("keep the identity in local storage with JavaScript, identified once from this browser", async ({ browser }) => {
    const page = await browser.newPage();
    const me = (await (await apiFetch(`${API_URL}/auth/me`, { headers: { authorization: `Bearer ${await apiToken(USERS.manager)}` } })).json()) as {
      id: string;
    };
    views.length = 0;
    identifies.length = 0;
    // Through the sign-in page, as staff sign in: the console moves to the dashboard with
    // JavaScript, so the browser reports it with the identity it keeps.
    await signIn(page, USERS.manager);
    await expect(page).toHaveURL(/\/dashboard/);
    const kept = () => page.evaluate(() => JSON.parse(localStorage.getItem("ecfx-analytics") ?? "null") as unknown);
    await expect.poll(kept).toEqual({ distinctId: me.id, identified: true, firm: "Demo Law LLP" });
    await page.getByRole("link", { name: "Inbox" }).first().click();
    await expect(page).toHaveURL(/\/inbox-items/);
    await page.getByRole("link", { name: "Profile" }).first().click();
    await expect(page).toHaveURL(/\/profile/);
    await expect.poll(() => views.map((v) => v.path)).toEqual(["/dashboard", "/inbox-items", "/profile"]);
    expect(views.map((v) => v.distinct_id)).toEqual([me.id, me.id, me.id]);
    expect(identifies).toEqual([expect.objectContaining({ $distinct_id: me.id, $set_once: { $email: USERS.manager, $name: expect.any(String) } })]);
    // Kept in local storage, not in a cookie.
    expect((await page.context().cookies()).map((c) => c.value).join(" ")).not.toContain(me.id);
    // A page drawn as a document and the pages after it: no second identify. The click waits for
    // the scripts, as a click made while they start is not what this test is about.
    await page.reload();
    await expect(page.locator("body[data-hydrated]")).toBeAttached();
    await page.getByRole("link", { name: "Inbox" }).first().click();
    await expect(page).toHaveURL(/\/inbox-items/);
    await expect.poll(() => views.map((v) => v.path)).toEqual(["/dashboard", "/inbox-items", "/profile", "/profile", "/inbox-items"]);
    expect(identifies).toHaveLength(1);
    await page.close();
  });
});
