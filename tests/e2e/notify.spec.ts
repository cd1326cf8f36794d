import { randomBytes, randomInt } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type Page, expect, test } from "@playwright/test";
import nodemailer from "nodemailer";
import { choose, field, longSelect, open, pick, press } from "./forms";
import { SLOW_WAIT, API_URL, USERS, apiToken, e2eInstance, signedIn, apiFetch, firmApi, startSession } from "./helpers";

// A notice from the court to a timekeeper's inbox: a preference group made in the wizard with a
// template of the firm's own, a notice sent to the product's SMTP port, and the mail it sent read
// back on /dev (captured, as there is no relay) and on the item's inbox card.

const CASE_NUMBER = "2:24-cv-00123";
const SMTP_PORT = e2eInstance().smtpPort;
const INBOX = "notices@demo.ecfx.test";
const FIXTURE = path.join(import.meta.dirname, "../fixtures/notices/nef-district-qp-utf8.eml");
// Fresh names for every run of the file (a repeated or retried run meets the earlier records).
let tag = "";
let marker = "";
let keeper = { name: "", email: "" };

async function apiCall<T = Record<string, unknown>>(token: string, method: string, route: string, body?: unknown): Promise<T> {
  const res = await apiFetch(`${API_URL}${route}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as T;
}

test.beforeAll(async () => {
  // The Texas case of the fixture notice, on a jurisdiction mapped to E.D. Tex. The inbox tests
  // make the same case: when it is there already, the new timekeeper joins it.
  tag = randomBytes(4).toString("hex");
  marker = `E2E-MARKER-${tag}`;
  keeper = { name: `Noor Notify ${tag}`, email: `notify-${tag}@lawfirm.test` };
  const token = await apiToken();
  const timekeeper = await apiCall<{ id: string }>(token, "POST", "/api/v1/timekeeper", { full_name: keeper.name, email: keeper.email });
  const found = await apiCall<{ id: string; assigned_timekeepers: string[] }[]>(
    token,
    "GET",
    `/api/v1/case/search?filter.case_number=${encodeURIComponent(CASE_NUMBER)}`,
  );
  const existing = found[0];
  if (existing) {
    await apiCall(token, "PATCH", `/api/v1/case/${existing.id}`, { assigned_timekeepers: [...existing.assigned_timekeepers, timekeeper.id] });
    return;
  }
  const jurisdiction = await apiCall<{ id: string }>(token, "POST", "/api/v1/jurisdiction", {
    name: `Eastern District of Texas ${tag}`,
    ecfx_jurisdictions: ["txed"],
  });
  const client = await apiCall<{ id: string }>(token, "POST", "/api/v1/client", { name: `Bluebonnet Widgets ${tag}`, unique_key: `NTF-C-${tag}` });
  const matter = await apiCall<{ id: string }>(token, "POST", "/api/v1/matter", {
    name: `Peña v. Bluebonnet ${tag}`,
    unique_key: `NTF-M-${tag}`,
    client_id: client.id,
  });
  await apiCall(token, "POST", "/api/v1/case", {
    name: "Peña Industries, LLC v. Bluebonnet Widgets Inc.",
    case_number: CASE_NUMBER,
    matter_id: matter.id,
    jurisdiction_id: jurisdiction.id,
    assigned_timekeepers: [timekeeper.id],
  });
});

// Other files expect a firm without preference groups (the timekeeper wizard says there are none).
test.afterAll(async () => {
  const token = await apiToken();
  const route = `/api/v1/timekeeper-group/search?filter.name=${encodeURIComponent(tag)}`;
  for (const group of await apiCall<{ id: string }[]>(token, "GET", route)) {
    const res = await apiFetch(`${API_URL}/api/v1/timekeeper-group/${group.id}`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
    expect(res.status, await res.text()).toBe(204);
  }
  expect(await apiCall<unknown[]>(token, "GET", route)).toEqual([]);
});

/**
 * The fixture notice as a message of its own: its own Message-ID, and its own court document
 * number (the same document on the same case again would be a duplicate, and tell no one).
 */
function freshNotice(label: string): Buffer {
  const documentId = `17${randomInt(10 ** 8, 10 ** 9)}1`;
  const raw = fs
    .readFileSync(FIXTURE, "latin1")
    .replace(/^Message-I[Dd]:.*$/m, `Message-ID: <notify-${label}@e2e.test>`)
    .replace("doc1/175135791113", `doc1/${documentId}`);
  return Buffer.from(raw, "latin1");
}

async function sendOverSmtp(raw: Buffer) {
  await nodemailer
    .createTransport({ host: "127.0.0.1", port: SMTP_PORT, secure: false, ignoreTLS: true })
    .sendMail({ envelope: { from: "txed_cmecf@txed.uscourts.test", to: [INBOX] }, raw });
}

async function expectStep(page: Page, step: number, name: string) {
  await expect(page.getByTestId("wizard-step")).toContainText(`Step ${step} of 3: ${name}`);
}

/** The preference group wizard from start to finish; ends on the new group's page. */
async function createGroup(page: Page, js: boolean, group: { name: string; timeZone: string; template: string; timekeeper: string }) {
  await open(page, js, "/preference-groups/new");
  await expect(page.getByTestId("page-title")).toHaveText("New Preference group");
  await expectStep(page, 1, "Group");
  await field(page, "Name").fill(group.name);
  // The firm's own zone leads the list and is chosen already; the group's is searched for.
  const firmZone = String((await firmApi("GET")).default_time_zone);
  await expect(longSelect(page, js, "Time zone")).toHaveValue(firmZone);
  if (!js) await expect(field(page, "Time zone").locator("option").first()).toHaveAttribute("value", firmZone);
  await choose(page, js, "Time zone", group.timeZone);
  await press(page, "Next");
  await expectStep(page, 2, "Delivery");
  await field(page, "Delivery method").selectOption({ label: "PDF attached" });
  await field(page, "Notification cadence").selectOption({ label: "Realtime" });
  await pick(page, js, "E-mail template", group.template);
  await press(page, "Next");
  await expectStep(page, 3, "Timekeepers");
  await pick(page, js, "Timekeepers", group.timekeeper);
  await press(page, "Create");
  await expect(page).toHaveURL(/\/preference-groups\/[0-9a-f-]{36}$/);
  await expect(page.getByText("Preference group created.")).toBeVisible();
}

const detail = (page: Page, name: string) => page.getByTestId("record-details").locator(`tr[data-field="${name}"] td`);

test.describe("notifications with JavaScript", () => {
  test("a group made in the wizard sends a notice over SMTP with its template and the PDF; /dev and the inbox card show the mail", async ({ page }) => {
    test.setTimeout(120_000);
    const templateName = `Notify template ${tag}`;
    const groupName = `Realtime PDF ${tag}`;
    await startSession(page, USERS.admin);

    // The template, made in its wizard and previewed in its editor.
    await open(page, true, "/templates/new");
    await field(page, "Name").fill(templateName);
    await field(page, "Template").fill(`<p>${marker} {{case.number}}</p><p>{{case.name}}</p>`);
    await press(page, "Create");
    await expect(page).toHaveURL(/\/templates\/[0-9a-f-]{36}$/);
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await expect(page).toHaveURL(/\/templates\/edit\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("code-editor").locator(".monaco-editor")).toBeVisible(SLOW_WAIT);
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    // The firm's latest processed notice, or the sample: the marker comes with its case number.
    const subject = page.getByTestId("preview-subject");
    await expect(subject).toContainText(/\[[^\]]+\]/);
    const shownNumber = /\[([^\]]+)\]/.exec((await subject.textContent()) ?? "")?.[1];
    expect(shownNumber).toBeTruthy();
    const preview = page.frameLocator('iframe[title="Preview of the e-mail"]');
    await expect(preview.locator("p").first()).toHaveText(`${marker} ${shownNumber}`);

    // The group: PDF attached, real time, the new template, the new timekeeper.
    await createGroup(page, true, { name: groupName, timeZone: "America/Chicago", template: templateName, timekeeper: keeper.name });
    await expect(detail(page, "name")).toHaveText(groupName);
    await expect(detail(page, "time_zone")).toHaveText("America/Chicago");
    await expect(detail(page, "delivery_method")).toHaveText("PDF attached");
    await expect(detail(page, "notification_cadence")).toHaveText("Realtime");
    await expect(detail(page, "email_template_id")).toHaveText(templateName);
    await expect(detail(page, "timekeeper_ids")).toHaveText(keeper.name);

    // The court's notice reaches the firm's inbox address.
    await sendOverSmtp(freshNotice(tag));

    // The mail to the timekeeper is captured on /dev once the worker is through.
    await page.goto("/dev");
    const outbox = page.getByTestId("outbox");
    const row = outbox.getByRole("row").filter({ hasText: keeper.email });
    await expect(async () => {
      await page.reload();
      await expect(row).toHaveCount(1, { timeout: 1000 });
    }).toPass(SLOW_WAIT);
    await expect(row).toContainText(CASE_NUMBER);
    await row.getByRole("link").click();
    await expect(page).toHaveURL(/\/dev\/mail\/[^/]+$/);
    const mailId = page.url().split("/").pop()!;

    const mail = page.getByTestId("mail-detail");
    await expect(mail.getByRole("heading")).toContainText(`[${CASE_NUMBER}`);
    await expect(mail).toContainText(`To: ${keeper.email}`);
    // The group's template, not the firm's default, made the body.
    const body = mail.frameLocator('iframe[title="Preview"]');
    await expect(body.locator("p").first()).toContainText(`${marker} ${CASE_NUMBER}`);
    await expect(page.getByTestId("mail-text")).toContainText(`${marker} ${CASE_NUMBER}`);
    // The fetched document goes with it as a PDF attachment.
    await mail.getByRole("tab", { name: "Raw message" }).click();
    const raw = mail.getByRole("tabpanel", { name: "Raw message" });
    await expect(raw).toContainText("Content-Type: application/pdf");
    await expect(raw).toContainText(/Content-Disposition: attachment; filename=.*\.pdf/);

    // The item's card lists the mail, and what was filed (this firm has no storage policy).
    const token = await apiToken();
    const sent = await apiCall<{ inbox_item_id: string; subject: string }>(token, "GET", `/api/v1/outbox/${mailId}`);
    await page.goto(`/inbox-items/id/${sent.inbox_item_id}`);
    await expect(page.getByTestId("card-status")).toHaveText("Succeeded");
    await expect(page.getByTestId("card-case")).toContainText(CASE_NUMBER);
    const mailSection = page.getByTestId("card-mail");
    await expect(mailSection).toContainText("Mail sent");
    const mailRow = mailSection.getByRole("row").filter({ hasText: keeper.email });
    await expect(mailRow).toContainText(sent.subject);
    await expect(mailRow).toContainText("Captured (no relay)");
    const dms = page.getByTestId("card-dms");
    await expect(dms).toContainText("Filed in the DMS — Canceled");
    await expect(dms).toContainText("Nothing filed.");
  });
});

test.describe("notifications without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the preference group wizard works with plain form posts and the group is listed", async ({ page }) => {
    const token = await apiToken();
    const templateName = `Plain template ${tag}`;
    await apiCall(token, "POST", "/api/v1/email-template", { name: templateName, template: `<p>${marker} {{case.number}}</p>` });
    // A timekeeper belongs to one group: this one is new, so the other test's group keeps its member.
    const member = `Pat Plain ${tag}`;
    await apiCall(token, "POST", "/api/v1/timekeeper", { full_name: member, email: `plain-${tag}@lawfirm.test` });
    const groupName = `Plain group ${tag}`;
    await signedIn(page, USERS.admin);
    await createGroup(page, false, { name: groupName, timeZone: "America/Denver", template: templateName, timekeeper: member });
    await expect(detail(page, "timekeeper_ids")).toHaveText(member);
    await expect(detail(page, "email_template_id")).toHaveText(templateName);

    await page.goto(`/preference-groups?q=${encodeURIComponent(groupName)}`);
    const table = page.getByTestId("resource-table");
    await expect(table).toHaveAttribute("data-renderer", "plain");
    const listed = table.getByRole("row").filter({ hasText: groupName });
    await expect(listed).toHaveCount(1);
    await expect(listed).toContainText("PDF attached");
    await expect(listed).toContainText("Realtime");
    await expect(listed).toContainText("America/Denver");
  });
});
