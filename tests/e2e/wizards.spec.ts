import { type Locator, type Page, expect, test } from "@playwright/test";
import { field, open, pick, press } from "./forms";
import { API_URL, USERS, apiToken, apiFetch, startSession } from "./helpers";

// The stepper wizards, detail pages and reference pickers, once with JavaScript and once
// without: every step is a real POST, so both must reach the same records and messages.

/** Creates a row straight through the API (data the test needs but does not test). */
async function apiCreate(token: string, segment: string, body: Record<string, unknown>): Promise<string> {
  const res = await apiFetch(`${API_URL}/api/v1/${segment}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function apiDelete(token: string, segment: string, id: string) {
  const res = await apiFetch(`${API_URL}/api/v1/${segment}/${id}`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(204);
}

async function expectStep(page: Page, step: number) {
  await expect(page.getByTestId("wizard-step")).toContainText(`Step ${step} of`);
}

async function fieldValue(page: Page, field: string): Promise<Locator> {
  return page.getByTestId("record-details").locator(`tr[data-field="${field}"] td`);
}

for (const js of [true, false]) {
  test.describe(`wizards and record pages, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });
    const tag = `${js ? "J" : "N"}${Date.now().toString(36)}`;
    const seed = { timekeeper: `Taylor ${tag}`, jurisdiction: `Court ${tag}`, client: `Existing ${tag}`, clientNumber: `CX-${tag}` };

    test.beforeAll(async () => {
      const token = await apiToken();
      await apiCreate(token, "timekeeper", { full_name: seed.timekeeper, email: `taylor-${tag.toLowerCase()}@firm.test` });
      await apiCreate(token, "jurisdiction", { name: seed.jurisdiction });
      await apiCreate(token, "client", { name: seed.client, unique_key: seed.clientNumber });
    });

    test.beforeEach(async ({ page }) => {
      await startSession(page, USERS.admin);
    });

    test("client, matter and case through their wizards; a bad step shows its field errors", async ({ page }) => {
      await open(page, js, "/clients/new");
      await expect(page.getByTestId("page-title")).toHaveText("New Client");
      await press(page, "Next");
      await expectStep(page, 1);
      await expect(page.getByText("This field is required.")).toHaveCount(2);
      await field(page, "Name").fill(`Acme ${tag}`);
      await field(page, "Client number").fill(`C-${tag}`);
      await press(page, "Next");
      await expectStep(page, 2);
      // The client's storage policy is picked on this step like any other reference.
      await expect(field(page, "Storage policy").first()).toBeAttached();
      // Back keeps what was typed.
      await press(page, "Back");
      await expectStep(page, 1);
      await expect(field(page, "Name")).toHaveValue(`Acme ${tag}`);
      await press(page, "Next");
      await expectStep(page, 2);
      await field(page, "Reference ID").fill(`R-${tag}`);
      await press(page, "Create");
      await expect(page).toHaveURL(/\/clients\/[0-9a-f-]{36}$/);
      await expect(page.getByText("Client created.")).toBeVisible();
      await expect(await fieldValue(page, "name")).toHaveText(`Acme ${tag}`);
      await expect(await fieldValue(page, "reference_id")).toHaveText(`R-${tag}`);

      await open(page, js, "/matters/new");
      if (!js) {
        // Without JavaScript the picker's search narrows the listed options by a POST.
        await field(page, "Search Client").fill(`Acme ${tag}`);
        await page.getByRole("button", { name: "Search", exact: true }).click();
        await expect(field(page, "Client").locator("option")).toHaveText(["None", `Acme ${tag} (C-${tag})`]);
      }
      await pick(page, js, "Client", `Acme ${tag}`);
      await field(page, "Name").fill(`Smith ${tag}`);
      await field(page, "Matter number").fill(`M-${tag}`);
      await press(page, "Next");
      await expectStep(page, 2);
      await press(page, "Next");
      await expectStep(page, 3);
      await press(page, "Create");
      await expect(page).toHaveURL(/\/matters\/[0-9a-f-]{36}$/);
      await expect(page.getByText("Matter created.")).toBeVisible();
      await expect((await fieldValue(page, "client_id")).getByRole("link")).toHaveText(`Acme ${tag} (C-${tag})`);

      await open(page, js, "/cases/new");
      await press(page, "Next");
      await expect(page.getByText("This field is required.")).toHaveCount(2);
      await field(page, "Case name").fill(`Smith v Jones ${tag}`);
      await field(page, "Case number").fill(`1:24-cv-${tag}`);
      await press(page, "Next");
      await expectStep(page, 2);
      await pick(page, js, "Matter", `Smith ${tag}`);
      await press(page, "Next");
      await expectStep(page, 3);
      await pick(page, js, "Jurisdiction", seed.jurisdiction);
      await press(page, "Next");
      await expectStep(page, 4);
      await press(page, "Next");
      await expect(page.getByText("Assign at least one timekeeper.")).toBeVisible();
      await expectStep(page, 4);
      await pick(page, js, "Timekeepers", seed.timekeeper);
      await press(page, "Next");
      await expectStep(page, 5);
      // The client's storage policy is picked on this step like any other reference.
      await expect(field(page, "Storage policy").first()).toBeAttached();
      await press(page, "Create");
      await expect(page).toHaveURL(/\/cases\/[0-9a-f-]{36}$/);
      await expect(page.getByText("Case created.")).toBeVisible();
      await expect(await fieldValue(page, "matter_id")).toHaveText(`Smith ${tag} (M-${tag})`);
      await expect(await fieldValue(page, "jurisdiction_id")).toHaveText(seed.jurisdiction);
      await expect(await fieldValue(page, "assigned_timekeepers")).toHaveText(seed.timekeeper);
      // The fields left empty are folded under one line, so the case's notices follow its values.
      const empty = page.getByTestId("record-empty-fields");
      await expect(empty.locator("summary")).toContainText(/\d+ empty fields: .*Description/);
      await expect(await fieldValue(page, "description")).toBeHidden();
      await expect(await fieldValue(page, "name")).toBeVisible();
      const details = (await page.getByTestId("record-details").boundingBox())!;
      const notices = (await page.getByTestId("related-notices").boundingBox())!;
      expect(notices.y - (details.y + details.height)).toBeLessThan(100);
      await empty.locator("summary").click();
      await expect(await fieldValue(page, "description")).toBeVisible();
    });

    test("a case whose matter and client are made in place; a failed client is reported and kept", async ({ page }) => {
      await open(page, js, "/cases/new");
      await field(page, "Case name").fill(`In place ${tag}`);
      await field(page, "Case number").fill(`2:24-cv-${tag}`);
      await press(page, "Next");
      await expectStep(page, 2);
      await field(page, "A new matter").check();
      await field(page, "Matter name").fill(`New matter ${tag}`);
      await field(page, "Matter number").fill(`NM-${tag}`);
      await field(page, "A new client").check();
      await field(page, "Client name").fill(`New client ${tag}`);
      // A number another client already has: the client cannot be created.
      await field(page, "Client number").fill(seed.clientNumber);
      await press(page, "Next");
      await pick(page, js, "Jurisdiction", seed.jurisdiction);
      await press(page, "Next");
      await pick(page, js, "Timekeepers", seed.timekeeper);
      await press(page, "Next");
      await expectStep(page, 5);
      await press(page, "Create");
      await expectStep(page, 2);
      await expect(page.getByTestId("form-error")).toHaveText("Case creation failed: Error code: 409. Entity already exists. Make sure fields are unique.");
      await expect(field(page, "Matter name")).toHaveValue(`New matter ${tag}`);
      await expect(field(page, "Client name")).toHaveValue(`New client ${tag}`);
      await field(page, "Client number").fill(`CN-${tag}`);
      await press(page, "Next");
      await expectStep(page, 3);
      await press(page, "Next");
      await expectStep(page, 4);
      await press(page, "Next");
      await expectStep(page, 5);
      await press(page, "Create");
      await expect(page).toHaveURL(/\/cases\/[0-9a-f-]{36}$/);
      await expect(page.getByText("Case created.")).toBeVisible();
      await (await fieldValue(page, "matter_id")).getByRole("link").click();
      await expect(page).toHaveURL(/\/matters\/[0-9a-f-]{36}$/);
      await expect(await fieldValue(page, "name")).toHaveText(`New matter ${tag}`);
      await expect(await fieldValue(page, "client_id")).toHaveText(`New client ${tag} (CN-${tag})`);
    });

    test("an entry removed while the wizard ran is reported on the step that picked it", async ({ page }) => {
      const token = await apiToken();
      const clientId = await apiCreate(token, "client", { name: `Gone client ${tag}`, unique_key: `CG-${tag}` });
      await apiCreate(token, "matter", { name: `Gone matter ${tag}`, unique_key: `MG-${tag}`, client_id: clientId });
      const courtId = await apiCreate(token, "jurisdiction", { name: `Closing court ${tag}` });
      await open(page, js, "/cases/new");
      await field(page, "Case name").fill(`Gone ${tag}`);
      await field(page, "Case number").fill(`3:24-cv-${tag}`);
      await press(page, "Next");
      await pick(page, js, "Matter", `Gone matter ${tag}`);
      await press(page, "Next");
      await pick(page, js, "Jurisdiction", `Closing court ${tag}`);
      await press(page, "Next");
      await pick(page, js, "Timekeepers", seed.timekeeper);
      await press(page, "Next");
      await expectStep(page, 5);
      await apiDelete(token, "jurisdiction", courtId);
      await press(page, "Create");
      await expectStep(page, 3);
      await expect(page.getByText("Pick an existing entry.")).toBeVisible();
      await pick(page, js, "Jurisdiction", seed.jurisdiction);
      await press(page, "Next");
      await press(page, "Next");
      await expectStep(page, 5);
      await press(page, "Create");
      await expect(page).toHaveURL(/\/cases\/[0-9a-f-]{36}$/);
      await expect(await fieldValue(page, "jurisdiction_id")).toHaveText(seed.jurisdiction);
    });

    test("a timekeeper's extra addresses go in one box, and a repeated one is refused", async ({ page }) => {
      await open(page, js, "/timekeepers/new");
      await field(page, "Full name").fill(`Pat ${tag}`);
      await field(page, "Email").fill(`pat-${tag.toLowerCase()}@firm.test`);
      await field(page, "Attorney").check();
      await press(page, "Next");
      await expectStep(page, 2);
      await press(page, "Next");
      await expectStep(page, 3);
      await expect(field(page, "Preference group").first()).toBeAttached();
      await field(page, "Additional receipt emails").fill("a@firm.test, A@firm.test");
      await press(page, "Create");
      await expect(page.getByText("Email added already")).toBeVisible();
      await expectStep(page, 3);
      await field(page, "Additional receipt emails").fill("a@firm.test\nb@firm.test");
      await press(page, "Create");
      await expect(page).toHaveURL(/\/timekeepers\/[0-9a-f-]{36}$/);
      await expect(await fieldValue(page, "additional_receipt_emails")).toHaveText("a@firm.test, b@firm.test");
      await expect(await fieldValue(page, "is_attorney")).toHaveText("Yes");
      await expect(await fieldValue(page, "billable")).toHaveText("No");
    });

    test("edit a record; deleting a client that has matters is refused with the API's reason", async ({ page }) => {
      const token = await apiToken();
      const clientId = await apiCreate(token, "client", { name: `Edit me ${tag}`, unique_key: `CE-${tag}` });
      await apiCreate(token, "matter", { name: `Keeps ${tag}`, unique_key: `MK-${tag}`, client_id: clientId });
      await open(page, js, `/clients/${clientId}`);
      await expect(page.getByTestId("page-title")).toHaveText(`Client: Edit me ${tag}`);
      await page.getByRole("link", { name: "Edit", exact: true }).click();
      await field(page, "Name").fill("");
      await press(page, "Save changes");
      await expect(page.getByText("This field is required.")).toBeVisible();
      await field(page, "Name").fill(`Edited ${tag}`);
      await field(page, "Status").selectOption("closed");
      if (!js) {
        // Narrowing a picker's options keeps what was typed in the other inputs.
        await field(page, "Search Originating timekeeper").fill(seed.timekeeper);
        await field(page, "Search Originating timekeeper").locator("xpath=following::button[1]").click();
        await expect(field(page, "Originating timekeeper").locator("option")).toHaveText(["None", seed.timekeeper]);
        await expect(field(page, "Name")).toHaveValue(`Edited ${tag}`);
        await expect(field(page, "Status")).toHaveValue("closed");
      }
      await pick(page, js, "Originating timekeeper", seed.timekeeper);
      await press(page, "Save changes");
      await expect(page).toHaveURL(new RegExp(`/clients/${clientId}$`));
      await expect(page.getByText("Changes saved.")).toBeVisible();
      await expect(await fieldValue(page, "name")).toHaveText(`Edited ${tag}`);
      await expect(await fieldValue(page, "status")).toHaveText("Closed");
      await expect(await fieldValue(page, "originating_timekeeper_id")).toHaveText(seed.timekeeper);

      await page.getByRole("button", { name: "Delete", exact: true }).click();
      await expect(page.getByTestId("confirm-delete")).toContainText(`Delete “Edited ${tag}”?`);
      await page.getByRole("button", { name: "Yes, delete", exact: true }).click();
      await expect(page.getByText("This client still has matters. Delete or move them first.")).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`/clients/${clientId}$`));
      await expect(await fieldValue(page, "name")).toHaveText(`Edited ${tag}`);

      // One without matters goes, and the list says so.
      const lonely = await apiCreate(token, "client", { name: `Lonely ${tag}`, unique_key: `CL-${tag}` });
      await open(page, js, `/clients/${lonely}`);
      await page.getByRole("button", { name: "Delete", exact: true }).click();
      await page.getByRole("button", { name: "Yes, delete", exact: true }).click();
      await expect(page).toHaveURL(/\/clients$/);
      await expect(page.getByText("Client deleted.")).toBeVisible();
      await page.goto(`/clients/${lonely}`);
      await expect(page.getByTestId("page-error")).toHaveText("Not found.");
    });

    test("a new user gets a role from the firm's roles; the same email again is refused", async ({ page }) => {
      const email = `new-${tag.toLowerCase()}@demo.ecfx.test`;
      const addUser = async () => {
        await open(page, js, "/users/new");
        await field(page, "Email").fill(email);
        await field(page, "Full name").fill(`Nia New ${tag}`);
        await field(page, "Display name").fill("Nia");
        await press(page, "Next");
        await expectStep(page, 2);
        await pick(page, js, "Role", "Manager");
        await press(page, "Create");
      };
      await open(page, js, "/users/new");
      await field(page, "Email").fill("not-an-address");
      await press(page, "Next");
      await expect(page.getByText("Enter a valid email address.")).toBeVisible();
      await expect(page.getByText("This field is required.")).toHaveCount(2);

      await addUser();
      await expect(page).toHaveURL(/\/users\/[0-9a-f-]{36}$/);
      await expect(page.getByText("User created.")).toBeVisible();
      await expect(await fieldValue(page, "security_role_id")).toHaveText("Manager");

      await addUser();
      await expectStep(page, 2);
      await expect(page.getByTestId("form-error")).toHaveText(`User with email ${email} already exists`);
    });

    test("a role that may only read sees records but cannot add or change them", async ({ page }) => {
      const token = await apiToken();
      const clientId = await apiCreate(token, "client", { name: `Read only ${tag}`, unique_key: `CR-${tag}` });
      await page.context().clearCookies();
      await startSession(page, USERS.viewonly);
      await page.goto("/clients/new");
      await expect(page).toHaveURL(/\/success$/);
      await page.goto(`/clients/${clientId}`);
      await expect(await fieldValue(page, "name")).toHaveText(`Read only ${tag}`);
      await expect(page.getByTestId("read-only")).toBeVisible();
      await expect(page.getByRole("link", { name: "Edit", exact: true })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Delete", exact: true })).toHaveCount(0);
      await page.goto(`/clients/${clientId}?edit`);
      await expect(field(page, "Name")).toHaveCount(0);
    });
  });
}

test.describe("reference pickers with JavaScript", () => {
  test("search as you type, and ask for more specific words when more than 20 match", async ({ page }) => {
    const tag = `B${Date.now().toString(36)}`;
    const token = await apiToken();
    for (let i = 0; i < 21; i++) await apiCreate(token, "client", { name: `Bulk ${tag} ${i}`, unique_key: `B-${tag}-${i}` });
    await startSession(page, USERS.admin);
    await page.goto("/matters/new");
    const client = page.getByRole("textbox", { name: "Client", exact: true });
    await expect(client).toHaveAttribute("data-picker", "search");
    await client.click();
    await client.fill(`Bulk ${tag}`);
    await expect(page.getByTestId("picker-too-many")).toHaveText("Too many results, please enter more specific keywords");
    await expect(page.getByRole("listbox").getByRole("option")).toHaveCount(20);
    await client.fill(`Bulk ${tag} 7`);
    await expect(page.getByRole("listbox").getByRole("option")).toHaveCount(1);
    await expect(page.getByTestId("picker-too-many")).toHaveCount(0);
    await page.getByRole("option", { name: `Bulk ${tag} 7 (B-${tag}-7)` }).click();
    await expect(page.locator('input[type="hidden"][name="client_id"]')).toHaveCount(1);
  });
});
