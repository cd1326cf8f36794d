import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type Database, migrateToLatest, openDatabase } from "../db/database";
import { createFirm } from "../firm/create-firm";
import {
  DEFAULT_TEMPLATE,
  DEFAULT_TEMPLATE_NAME,
  type NoticeTemplateData,
  TemplateRenderError,
  ensureDefaultTemplate,
  htmlToText,
  noticeSubject,
  renderNoticeMail,
} from "./notice-template";
import { TEMPLATE_FIELD_SNIPPETS } from "../../app/common/template-preview";
import { sampleTemplateData } from "./sample-notice";

const data = (): NoticeTemplateData => ({
  ...sampleTemplateData("Demo Law LLP", { name: "Avery Admin", email: "avery@demo.test" }),
  documents: [
    { name: "Main Document", number: 0, sealed: false, url: "https://ecfx.test/d/1", attached: true },
    { name: "Sealed exhibit", number: 1, sealed: true },
  ],
  stampedByCourt: true,
});

describe("renderNoticeMail", () => {
  it("escapes what the notice says", () => {
    const mail = renderNoticeMail("<p>{{case.name}}</p>", { ...data(), case: { name: `<script>alert("x")</script>`, number: "1", caption: "" } });
    expect(mail.html).toBe("<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>");
    expect(mail.html).not.toContain("<script>");
    expect(mail.text).toBe(`<script>alert("x")</script>`);
  });

  it("reaches every field of the data", () => {
    const source = [
      "{{firm.name}}|{{recipient.name}}|{{recipient.email}}",
      "{{matter.name}}|{{matter.number}}|{{case.name}}|{{case.number}}|{{case.caption}}",
      "{{client.name}}|{{client.number}}|{{jurisdiction.name}}|{{jurisdiction.court}}",
      "{{formatDate date}}|{{formatDate date 'YYYY/MM/DD'}}|{{description}}|{{filedBy}}",
      "{{join serviceContacts ' ; '}}|{{#each documents}}[{{number}} {{name}} {{sealed}} {{url}} {{attached}}]{{/each}}",
      "{{#each assignedTimekeepers}}{{name}} {{email}}{{/each}}|{{docketText}}|{{originalNotice}}|{{join weblinks}}|{{stampedByCourt}}",
    ].join("\n");
    const d = data();
    const { text } = renderNoticeMail(source, d);
    for (const value of [
      d.firm.name,
      "Avery Admin",
      "avery@demo.test",
      d.matter.name,
      d.matter.number,
      d.case.name,
      d.case.number,
      d.case.caption,
      d.client.name,
      d.client.number,
      d.jurisdiction.name,
      d.jurisdiction.court,
      "March 5, 2024",
      "2024/03/05",
      d.description,
      d.filedBy,
      d.serviceContacts.join(" ; "),
      "[0 Main Document false https://ecfx.test/d/1 true]",
      "[1 Sealed exhibit true ]",
      "Adaeze Okafor aokafor@lawfirm.test",
      d.docketText,
      "SAMPLE NOTICE",
      d.weblinks[0]!,
      "|true",
    ]) {
      expect(text).toContain(value);
    }
  });

  it("reads the default template from its .hbs file, which the container image carries", () => {
    const file = fileURLToPath(new URL("./templates/default-notice.hbs", import.meta.url));
    expect(DEFAULT_TEMPLATE).toBe(fs.readFileSync(file, "utf8"));
    expect(DEFAULT_TEMPLATE).toMatch(/^<!DOCTYPE html>/);
    // The image copies the whole tree (COPY . .) and runs the sources: nothing may leave the template out.
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const ignored = fs
      .readFileSync(`${root}/.dockerignore`, "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    expect(ignored.filter((pattern) => /hbs|server|mail|templates|\*/.test(pattern))).toEqual([]);
    expect(fs.readFileSync(`${root}/Dockerfile`, "utf8")).toMatch(/COPY --from=build [^\n]*\/app \/app/);
  });

  it("has a default template that uses every field", () => {
    for (const field of [
      "firm.name",
      "recipient.name",
      "recipient.email",
      "matter.name",
      "matter.number",
      "case.name",
      "case.number",
      "case.caption",
      "client.name",
      "client.number",
      "jurisdiction.name",
      "jurisdiction.court",
      "date",
      "description",
      "filedBy",
      "serviceContacts",
      "documents",
      "url",
      "sealed",
      "attached",
      "assignedTimekeepers",
      "docketText",
      "originalNotice",
      "weblinks",
      "stampedByCourt",
    ]) {
      expect(DEFAULT_TEMPLATE).toContain(field);
    }
    const mail = renderNoticeMail(DEFAULT_TEMPLATE, data());
    expect(mail.html).toContain('<html lang="en">');
    expect(mail.html).toContain('href="https://ecfx.test/d/1"');
    expect(mail.text).toContain("Main Document (https://ecfx.test/d/1)");
    expect(mail.text).toContain("Sealed exhibit (sealed)");
    expect(mail.text).toContain("Dear Avery Admin,");
    // The original notice keeps its lines in the text part.
    expect(mail.text).toContain("Notice of Electronic Filing\nThe following transaction");
    expect(mail.text).not.toMatch(/<\/?(?:p|div|td|tr|table|a|li|ul|h1|h2|br)\b/i);
  });

  it("shows something for every snippet the editor offers", () => {
    for (const snippet of TEMPLATE_FIELD_SNIPPETS) {
      expect(renderNoticeMail(snippet, data()).text, snippet).not.toBe("");
    }
  });

  it("builds the subject from case number, case name and description", () => {
    expect(renderNoticeMail("x", data()).subject).toBe(
      "[2:24-cv-00123-JRG-RSP] Peña Industries, LLC v. Bluebonnet Widgets Inc. — Motion to Dismiss (sample notice)",
    );
    expect(noticeSubject({ ...data(), case: { name: "  Doe\nv. Roe ", number: "", caption: "" }, description: "" })).toBe("Doe v. Roe");
    expect(noticeSubject({ ...data(), case: { name: "", number: "", caption: "" }, description: "" })).toBe("Court notice");
    expect(noticeSubject({ ...data(), description: "x".repeat(500) }).length).toBeLessThanOrEqual(200);
  });

  it("throws a clear error for a broken template", () => {
    expect(() => renderNoticeMail("{{#if case.name}}open", data())).toThrow(TemplateRenderError);
    expect(() => renderNoticeMail("{{#if case.name}}open", data())).toThrow(/Parse error|Expecting/);
    expect(() => renderNoticeMail("{{noSuchHelper case.name}}", data())).toThrow(/Missing helper: "noSuchHelper"/);
  });

  it("cannot reach prototypes through the data", () => {
    expect(renderNoticeMail("{{case.constructor.name}}{{lookup case '__proto__'}}", data()).html).toBe("");
  });
});

describe("htmlToText", () => {
  it("drops head, styles and comments and keeps links readable", () => {
    const text = htmlToText(
      `<html><head><title>T</title><style>p{}</style></head><body><!-- c --><p>A &amp; B</p><a href="https://x.test/?a=1&amp;b=2">here</a><br>line</body></html>`,
    );
    expect(text).toBe("A & B\nhere (https://x.test/?a=1&b=2)\nline");
  });
});

describe("ensureDefaultTemplate", () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function firm() {
    database = openDatabase("sqlite::memory:");
    await migrateToLatest(database);
    const { firmId } = await createFirm(database, { name: "Template Test LLP" }, 1);
    // A new firm has its template from the start; these tests need a firm from before templates.
    const template = await database.db.selectFrom("firm").select("default_email_template_id").where("id", "=", firmId).executeTakeFirstOrThrow();
    expect(template.default_email_template_id).toBeTruthy();
    await database.db.updateTable("firm").set({ default_email_template_id: null }).where("id", "=", firmId).execute();
    await database.db.deleteFrom("email_template").where("firm_id", "=", firmId).execute();
    return { ctx: { database, clock: { now: () => 2 } }, firmId };
  }

  it("creates one default template, once, even for callers racing each other", async () => {
    const { ctx, firmId } = await firm();
    const ids = await Promise.all([ensureDefaultTemplate(ctx, firmId), ensureDefaultTemplate(ctx, firmId), ensureDefaultTemplate(ctx, firmId)]);
    expect(new Set(ids).size).toBe(1);
    expect(await ensureDefaultTemplate(ctx, firmId)).toBe(ids[0]);
    const rows = await ctx.database.db.selectFrom("email_template").selectAll().where("firm_id", "=", firmId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: ids[0], name: DEFAULT_TEMPLATE_NAME, template: DEFAULT_TEMPLATE });
    const stored = await ctx.database.db.selectFrom("firm").select("default_email_template_id").where("id", "=", firmId).executeTakeFirstOrThrow();
    expect(stored.default_email_template_id).toBe(ids[0]);
  });

  it("keeps a default the firm chose", async () => {
    const { ctx, firmId } = await firm();
    await ctx.database.db
      .insertInto("email_template")
      .values({
        id: "chosen",
        firm_id: firmId,
        name: "Ours",
        template: "<p>{{case.name}}</p>",
        created_at: 1,
        updated_at: 1,
        reference_id: null,
        unique_key: null,
      })
      .execute();
    await ctx.database.db.updateTable("firm").set({ default_email_template_id: "chosen" }).where("id", "=", firmId).execute();
    expect(await ensureDefaultTemplate(ctx, firmId)).toBe("chosen");
    expect(await ctx.database.db.selectFrom("email_template").select("id").execute()).toHaveLength(1);
  });
});
