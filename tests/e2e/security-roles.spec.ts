import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { type Page, expect, test } from "@playwright/test";
import protobuf from "protobufjs";
import { field, open, pick, press } from "./forms";
import { API_URL, USERS, apiCreate, apiToken, apiFetch, startSession } from "./helpers";

// Security roles in the console: the roles' table, a role made and changed through its
// permission matrix and deleted once it has no users, with JavaScript and without; what roles
// that may only view, or not at all, get; and a signed-in user following a change at once.

const tag = randomBytes(4).toString("hex");
const UserSecurityRole = protobuf.loadSync(fileURLToPath(new URL("../../proto/security_role.proto", import.meta.url))).lookupType("ecfx.UserSecurityRole");
const PROTOBUF = "application/x-protobuf";

async function call(method: string, route: string, body?: unknown): Promise<Response> {
  const binary = body instanceof Uint8Array;
  return apiFetch(`${API_URL}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${await apiToken()}`,
      accept: binary || route.includes("user-security-role") ? PROTOBUF : "application/json",
      ...(body ? { "content-type": binary ? PROTOBUF : "application/json" } : {}),
    },
    body: binary ? new Uint8Array(body) : body ? JSON.stringify(body) : undefined,
  });
}

const roleId = async (name: string) => {
  const rows = (await (await call("GET", `/api/v1/security-role/search?filter.name=${encodeURIComponent(name)}`)).json()) as { id: string; name: string }[];
  return rows.find((r) => r.name === name)!.id;
};
const userId = async (email: string) =>
  ((await (await call("GET", `/api/v1/user/search?filter.email=${encodeURIComponent(email)}`)).json()) as { id: string }[])[0]!.id;
const giveRole = async (email: string, role: string) => {
  const res = await call("PUT", `/api/v1/user/${await userId(email)}`, { security_role_id: await roleId(role) });
  expect(res.status).toBe(200);
};

/** A radio of the matrix: "Cases: Full Access", or "Cases, Case number: Read Only" under the case row's disclosure. */
const level = (page: Page, what: string, access: "Full Access" | "Read Only" | "No Access") =>
  page.getByRole("radio", { name: `${what}: ${access}`, exact: true });

async function showFields(page: Page, area: string) {
  await page.getByText(`Field rights of ${area}`, { exact: true }).click();
}

for (const js of [true, false]) {
  test.describe(`security roles with JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });
    const role = `Paralegals ${tag} ${js ? "js" : "nojs"}`;
    const member = { name: `Rita Role ${tag} ${js ? "js" : "nojs"}`, email: `rita-${tag}-${js ? "js" : "nojs"}@demo.ecfx.test` };

    test.beforeAll(async () => {
      const token = await apiToken();
      await apiCreate(token, "/api/v1/user", {
        email: member.email,
        full_name: member.name,
        display_name: "Rita",
        security_role_id: await roleId("View Only"),
      });
    });

    test("create a role with levels and field levels, change it, find it listed, delete it once its user has another role", async ({ page }) => {
      // A dozen pages, each drawing the whole matrix.
      test.slow();
      await startSession(page, USERS.admin);
      await open(page, js, "/security-roles");
      await page.getByRole("link", { name: "New Security role" }).click();
      await expect(page).toHaveURL(/\/security-roles\/new$/);
      if (js) await expect(page.locator("main form[data-hydrated]").first()).toBeAttached();

      // A stepper like every "new" page: who first. Nothing typed: the rules of the spec, next to their fields.
      await expect(page.getByTestId("wizard-step")).toHaveText("Step 1 of 2: Role and users");
      await press(page, "Next");
      await expect(page.getByText("This field is required.")).toBeVisible();
      await expect(page.getByText("Assign at least one user.")).toBeVisible();
      await expect(page.getByTestId("wizard-step")).toHaveText("Step 1 of 2: Role and users");

      await field(page, "Name").fill(role);
      await pick(page, js, "Users", member.name);
      await press(page, "Next");
      await expect(page.getByTestId("wizard-step")).toHaveText("Step 2 of 2: Rights");
      // Back and on again: what each step holds is kept.
      await level(page, "Matters", "Read Only").check();
      await press(page, "Back");
      await expect(field(page, "Name")).toHaveValue(role);
      await press(page, "Next");
      await expect(level(page, "Matters", "Read Only")).toBeChecked();
      await level(page, "Matters", "No Access").check();
      await level(page, "Cases", "Full Access").check();
      await level(page, "Clients", "Read Only").check();
      await showFields(page, "Cases");
      await level(page, "Cases, Case number", "Read Only").check();
      await showFields(page, "Clients");
      // Above its resource's level: saved as Read Only.
      await level(page, "Clients, Name", "Full Access").check();
      await press(page, "Create");

      await expect(page.getByText("Security role created.")).toBeVisible();
      await expect(page).toHaveURL(/\/security-roles\/[0-9a-f-]{36}$/);
      await expect(level(page, "Cases", "Full Access")).toBeChecked();
      await expect(level(page, "Clients", "Read Only")).toBeChecked();
      await expect(level(page, "Matters", "No Access")).toBeChecked();
      await showFields(page, "Cases");
      await showFields(page, "Clients");
      await expect(level(page, "Cases, Case number", "Read Only")).toBeChecked();
      await expect(level(page, "Cases, Case name", "Full Access")).toBeChecked();
      await expect(level(page, "Clients, Name", "Read Only")).toBeChecked();

      // Another role's name of this firm is taken.
      await field(page, "Name").fill("Manager");
      await press(page, "Save changes");
      await expect(page.getByTestId("form-error")).toHaveText("Error code: 409. Entity already exists. Make sure fields are unique.");
      await field(page, "Name").fill(role);
      await level(page, "Cases", "Read Only").check();
      await press(page, "Save changes");
      await expect(page.getByText("Changes saved.")).toBeVisible();
      await expect(level(page, "Cases", "Read Only")).toBeChecked();
      // The field held lower stays; the one at its area's level moved with it.
      await showFields(page, "Cases");
      await expect(level(page, "Cases, Case number", "Read Only")).toBeChecked();
      await expect(level(page, "Cases, Case name", "Read Only")).toBeChecked();

      await open(page, js, `/security-roles?q=${encodeURIComponent(role)}`);
      const row = page.getByTestId("resource-table").locator("tbody tr", { hasText: role });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText("1");
      await row.getByRole("link", { name: role }).click();
      await expect(field(page, "Name")).toHaveValue(role);

      // Still has a user: refused with the reason.
      await press(page, "Delete");
      await press(page, "Yes, delete");
      await expect(page.getByText("This role still has users. Give them another role first.")).toBeVisible();

      await giveRole(member.email, "View Only");
      await page.reload();
      // A click while the reloaded page hydrates is lost.
      if (js) await expect(page.locator("main form[data-hydrated]").first()).toBeAttached();
      await press(page, "Delete");
      await expect(page.getByTestId("confirm-delete")).toContainText(role);
      await press(page, "Yes, delete");
      await expect(page.getByText("Security role deleted.")).toBeVisible();
      await expect(page).toHaveURL(/\/security-roles$/);
      await open(page, js, `/security-roles?q=${encodeURIComponent(role)}`);
      await expect(page.getByTestId("resource-table").locator("tbody tr", { hasText: role })).toHaveCount(0);
    });

    test("a Manager views roles read-only, View Only is sent to /success, the Administrator role cannot be changed", async ({ page }) => {
      await startSession(page, USERS.manager);
      await open(page, false, "/security-roles");
      await expect(page.getByTestId("resource-table")).toContainText("Docketing");
      await expect(page.getByRole("link", { name: "New Security role" })).toHaveCount(0);
      await page.getByTestId("resource-table").getByRole("link", { name: "Docketing", exact: true }).click();
      await expect(page.getByTestId("read-only")).toBeVisible();
      await expect(level(page, "Cases", "Full Access")).toBeDisabled();
      await expect(page.getByRole("button", { name: "Save changes" })).toHaveCount(0);
      await page.goto("/security-roles/new");
      await expect(page).toHaveURL(/\/success$/);

      await page.context().clearCookies();
      await startSession(page, USERS.viewonly);
      await page.goto("/security-roles");
      await expect(page).toHaveURL(/\/success$/);

      await page.context().clearCookies();
      await startSession(page, USERS.admin);
      await page.goto(`/security-roles/${await roleId("Administrator")}`);
      await expect(page.getByTestId("admin-role")).toBeVisible();
      await expect(level(page, "Firm settings", "Full Access")).toBeChecked();
      await expect(level(page, "Firm settings", "Full Access")).toBeDisabled();
      await expect(page.getByRole("button", { name: "Delete" })).toHaveCount(0);
    });
  });
}

test.describe("a role change and a user already signed in", () => {
  const role = `Followers ${tag}`;

  test.beforeAll(async () => {
    const docketing = (await call("GET", `/api/v1/user-security-role/${await roleId("Docketing")}`)) as Response;
    const copy = UserSecurityRole.toObject(UserSecurityRole.decode(new Uint8Array(await docketing.arrayBuffer())), {
      enums: String,
      longs: Number,
      defaults: true,
    });
    const body = UserSecurityRole.encode(UserSecurityRole.fromObject({ ...copy, id: "", name: role, userIds: [await userId(USERS.docketing)] })).finish();
    expect((await call("POST", "/api/v1/user-security-role", body)).status).toBe(201);
  });

  test.afterAll(async () => {
    await giveRole(USERS.docketing, "Docketing");
    await call("DELETE", `/api/v1/user-security-role/${await roleId(role)}`);
  });

  test("follows it on the next page", async ({ browser }) => {
    // Two sessions, two sign-ins and the role editor: about 13 s on an idle slow machine, and
    // more than 30 s there while other browser tests ran beside it.
    test.slow();
    const admin = await (await browser.newContext()).newPage();
    const user = await (await browser.newContext()).newPage();
    await startSession(user, USERS.docketing);
    await user.goto("/security-roles");
    await expect(user).toHaveURL(/\/success$/);

    await startSession(admin, USERS.admin);
    await open(admin, true, `/security-roles/${await roleId(role)}`);
    await level(admin, "Firm settings", "Read Only").check();
    await press(admin, "Save changes");
    await expect(admin.getByText("Changes saved.")).toBeVisible();

    await user.goto("/security-roles");
    await expect(user).toHaveURL(/\/security-roles$/);
    await expect(user.getByTestId("resource-table")).toContainText(role);
  });
});
