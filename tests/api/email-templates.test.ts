import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { defaultRolePermissions } from "../../server/auth/permissions";
import { processInboxItem } from "../../server/pipeline/process-inbox-item";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "../fixtures/notices", name));

describe.each(backends)("e-mail template preview (%s)", (backend) => {
  const server = useApi({ backend });
  const session = sessionsOf(server);
  const as = async (email: string) => api(server().url, (await session(email)).access_token);
  let itemId = "";

  /** An uploaded notice, parsed and filed on its case by the pipeline (documents not fetched: no worker runs). */
  async function processedNotice(email: string, raw: Buffer): Promise<string> {
    const upload = await (
      await as(email)
    ).request("POST", "/api/v1/inbox/upload", { body: new Uint8Array(raw), headers: { "content-type": "message/rfc822" } });
    expect(upload.status).toBe(201);
    await processInboxItem(server().ctx, upload.body.id);
    return upload.body.id as string;
  }

  beforeAll(async () => {
    const admin = await as(DEMO.admin);
    const jurisdiction = (await admin.post("/api/v1/jurisdiction", { name: "E.D. Tex.", ecfx_jurisdictions: ["txed"] })).body;
    const client = (await admin.post("/api/v1/client", { name: "Bluebonnet <Widgets> Inc.", unique_key: "C-77" })).body;
    const matter = (await admin.post("/api/v1/matter", { name: "Peña v. Bluebonnet", unique_key: "M-77", client_id: client.id })).body;
    const timekeeper = (await admin.post("/api/v1/timekeeper", { full_name: "Adaeze Okafor", email: "aokafor@lawfirm.test" })).body;
    const created = await admin.post("/api/v1/case", {
      name: "Peña Industries <script>alert(1)</script>",
      case_number: "2:24-cv-123",
      matter_id: matter.id,
      jurisdiction_id: jurisdiction.id,
      assigned_timekeepers: [timekeeper.id],
    });
    expect(created.status).toBe(201);
    itemId = await processedNotice(DEMO.admin, fixture("nef-district-qp-utf8.eml"));
  });

  const preview = async (email: string, body: Record<string, unknown>) => (await as(email)).post("/api/v1/email-template/preview", body);

  it("renders with the firm's latest processed notice, escaping what it shows", async () => {
    const res = await preview(DEMO.admin, {
      template:
        "<p>{{case.number}}|{{case.name}}|{{client.name}} {{client.number}}|{{matter.number}}|{{jurisdiction.court}}|{{#each assignedTimekeepers}}{{name}}{{/each}}|{{filedBy}}|{{#each documents}}[{{name}}]{{/each}}</p><pre>{{originalNotice}}</pre>",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ inboxItemId: itemId, sample: false });
    expect(res.body.html).toContain("2:24-cv-123|");
    expect(res.body.html).toContain("Peña Industries &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(res.body.html).not.toContain("<script>");
    expect(res.body.html).toContain(
      "Bluebonnet &lt;Widgets&gt; Inc. C-77|M-77|U.S. District Court for the Eastern District of Texas|Adaeze Okafor|Bluebonnet Widgets Inc.|",
    );
    expect(res.body.html).toContain("[Main Document][Proposed Order]");
    expect(res.body.html).toContain("Notice of Electronic Filing");
    expect(res.body.subject).toBe("[2:24-cv-123] Peña Industries <script>alert(1)</script> — Motion to Dismiss");
    expect(res.body.text).toContain("2:24-cv-123|Peña Industries <script>alert(1)</script>|");
  });

  it("renders the item asked for, and the default template with it", async () => {
    const template = (await (await as(DEMO.admin)).get("/api/v1/firm")).body;
    expect(template.default_email_template_id).toBeTruthy();
    const stored = await (await as(DEMO.admin)).get(`/api/v1/email-template/${template.default_email_template_id}`);
    expect(stored.status).toBe(200);
    const res = await preview(DEMO.admin, { template: stored.body.template, inboxItemId: itemId });
    expect(res.status).toBe(200);
    expect(res.body.inboxItemId).toBe(itemId);
    expect(res.body.html).toContain("2:24-cv-123");
    expect(res.body.html).toContain("MOTION to Dismiss");
    expect(res.body.text).toContain("Dear Avery Admin,");
  });

  it("answers 400 with the engine's message for a broken template", async () => {
    const res = await preview(DEMO.admin, { template: "{{#if case.name}}never closed" });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^The template cannot be read: .*Parse error/s);
    expect(res.body.fieldErrors.template[0]).toBe(res.body.message);
    const helper = await preview(DEMO.admin, { template: "{{nope case.name}}" });
    expect(helper.status).toBe(400);
    expect(helper.body.message).toContain('Missing helper: "nope"');
    expect((await preview(DEMO.admin, {})).status).toBe(400);
  });

  it("never shows another firm's notice: its item id is not found", async () => {
    const res = await preview(DEMO.secondAdmin, { template: "{{case.number}}", inboxItemId: itemId });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("No processed notice with this id.");
    // With no notice of its own the other firm previews the sample.
    const own = await preview(DEMO.secondAdmin, { template: "{{description}} {{firm.name}}" });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ inboxItemId: null, sample: true, html: "Motion to Dismiss (sample notice) Second Chair &amp; Co" });
  });

  it("refuses roles without read access to templates, and real notices to roles without the inbox", async () => {
    const db = server().ctx.database.db;
    const roleOf = async (email: string) => (await session(email)).user.securityRoleId;
    const noTemplates = { ...defaultRolePermissions("Docketing"), email_template: { access: "DENY" as const } };
    await db
      .updateTable("security_role")
      .set({ permissions: JSON.stringify(noTemplates) })
      .where("id", "=", await roleOf(DEMO.docketing))
      .execute();
    expect((await preview(DEMO.docketing, { template: "x" })).status).toBe(403);

    const noInbox = { ...defaultRolePermissions("View Only"), inbox_item: { access: "DENY" as const } };
    await db
      .updateTable("security_role")
      .set({ permissions: JSON.stringify(noInbox) })
      .where("id", "=", await roleOf(DEMO.viewOnly))
      .execute();
    const sample = await preview(DEMO.viewOnly, { template: "{{case.number}}" });
    expect(sample.status).toBe(200);
    expect(sample.body).toMatchObject({ sample: true, html: "2:24-cv-00123-JRG-RSP" });
    expect((await preview(DEMO.viewOnly, { template: "x", inboxItemId: itemId })).status).toBe(403);
    expect((await api(server().url).post("/api/v1/email-template/preview", { template: "x" })).status).toBe(401);
  });

  it("refuses to delete a template a preference group uses, or the firm's default, and deletes it once free", async () => {
    const admin = await as(DEMO.admin);
    const template = await admin.post("/api/v1/email-template", { name: "In use", template: "<p>{{case.number}}</p>" });
    expect(template.status).toBe(201);
    const group = await admin.post("/api/v1/timekeeper-group", { name: "Uses it", time_zone: "UTC", email_template_id: template.body.id });
    expect(group.status).toBe(201);
    const refused = await admin.request("DELETE", `/api/v1/email-template/${template.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("This template is attached to preference groups and cannot be deleted");
    const firm = (await admin.get("/api/v1/firm")).body;
    expect((await admin.request("DELETE", `/api/v1/email-template/${firm.default_email_template_id}`)).status).toBe(409);
    expect((await admin.request("PATCH", `/api/v1/timekeeper-group/${group.body.id}`, { json: { email_template_id: null } })).status).toBe(200);
    expect((await admin.request("DELETE", `/api/v1/email-template/${template.body.id}`)).status).toBe(204);
  });
});
