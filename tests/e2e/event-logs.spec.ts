import { expect, test } from "@playwright/test";
import { API_URL, USERS, apiToken, signedIn, apiFetch, startSession } from "./helpers";

// /event-logs through the shared table, with JavaScript on and off: a severity filter in the
// URL, and the AUDIT entry a role change writes.

async function call(method: string, route: string, body?: unknown) {
  const token = await apiToken();
  const res = await apiFetch(`${API_URL}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown> & Record<string, unknown>[];
}

test.beforeAll(async () => {
  // A role given and given back: two AUDIT entries about the View Only user.
  const [user] = (await call("GET", `/api/v1/user/search?filter.email=${encodeURIComponent(USERS.viewonly)}`)) as unknown as Record<string, string>[];
  const roles = (await call("GET", "/api/v1/security-role/search?max=20")) as unknown as { id: string; name: string }[];
  const docketing = roles.find((r) => r.name === "Docketing")!.id;
  const own = user!.security_role_id!;
  await call("PUT", `/api/v1/user/${user!.id}`, { ...user, security_role_id: docketing });
  await call("PUT", `/api/v1/user/${user!.id}`, { ...user, security_role_id: own });
});

for (const javaScriptEnabled of [true, false]) {
  test(`the firm's events, filtered by severity through the URL (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({ browser }) => {
    const page = await browser.newPage({ javaScriptEnabled });
    await startSession(page, USERS.admin);
    await page.goto("/event-logs?filter.level=AUDIT");
    await expect(page.getByTestId("page-title")).toHaveText("Event Logs");
    const table = page.getByTestId("resource-table");
    await expect(table).toHaveAttribute("data-renderer", javaScriptEnabled ? "interactive" : "plain");
    await expect(table.getByRole("row").filter({ hasText: USERS.viewonly }).first()).toBeVisible();
    const levels = await table.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.textContent ?? ""));
    expect(levels.length).toBeGreaterThan(1);
    for (const row of levels) expect(row).toContain("Audit");
    await page.close();
  });
}

test("a role without the firm settings is not shown the event logs", async ({ page }) => {
  await signedIn(page, USERS.docketing);
  const answer = await page.goto("/event-logs");
  await expect(page).toHaveURL(/\/success$/);
  expect(answer?.status()).toBe(403);
});
