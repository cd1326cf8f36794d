import { describe, expect, it } from "vitest";
import { logEvent } from "../../server/queue/event-log";
import { sendErrorReports } from "../../server/notify/error-report";
import { DEMO, api, backends, sessionsOf, testClock, useApi } from "./harness";

// The firm's dictionary: its own words for catalogue entries, refused when they break a
// placeholder, kept to the firm, written with an AUDIT entry, and spoken at once by the API's
// errors and the firm's mail.

const ENTRY = "/api/v1/dictionary/common/pages.clients";
const NOT_FOUND = "/api/v1/dictionary/errors/notFound";
const RESET_SUBJECT = "/api/v1/dictionary/mail/resetSubject";

describe.each(backends)("firm dictionary (%s)", (backend) => {
  const clock = testClock();
  const server = useApi({ backend, clock });
  const sessionOf = sessionsOf(server, clock);
  const as = async (email: string) => api(server().url, (await sessionOf(email)).access_token);
  const search = async (email: string, query: string) => (await as(email)).get(`/api/v1/dictionary/search?${query}`);

  it("lists every catalogue entry with its default, searchable by key or text and pageable", async () => {
    const all = await search(DEMO.admin, "max=10");
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(10);
    expect(Number(all.headers.get("x-total-count"))).toBeGreaterThan(1000);
    const byKey = await search(DEMO.admin, "freeText=pages.clients&namespace=common");
    expect(byKey.body).toEqual([
      expect.objectContaining({ namespace: "common", key: "pages.clients", defaultText: "Clients", text: "Clients", overridden: false }),
    ]);
    const byText = await search(DEMO.admin, `freeText=${encodeURIComponent("Entity already exists")}`);
    expect(byText.body.map((r: { key: string }) => r.key)).toContain("conflict");
    const second = await search(DEMO.admin, "max=10&offset=10");
    expect(second.body[0]).not.toEqual(all.body[0]);
  });

  it("stores an override, lists it as overridden, and resets it to the default", async () => {
    const admin = await as(DEMO.admin);
    expect((await admin.put(ENTRY, { value: "Customers" })).status).toBe(204);
    expect((await admin.get(ENTRY)).body).toMatchObject({ text: "Customers", defaultText: "Clients", overridden: true, updatedBy: DEMO.admin });
    const overridden = await search(DEMO.admin, "overridden=true");
    expect(overridden.body.map((r: { key: string }) => r.key)).toEqual(["pages.clients"]);
    expect((await admin.get("/api/v1/dictionary/words")).body.overrides).toEqual({ common: { "pages.clients": "Customers" } });

    expect((await admin.request("DELETE", ENTRY)).status).toBe(204);
    expect((await admin.get(ENTRY)).body).toMatchObject({ text: "Clients", overridden: false });
    expect((await search(DEMO.admin, "overridden=true")).body).toEqual([]);
    expect((await admin.get("/api/v1/dictionary/words")).body.overrides).toEqual({});
  });

  it("refuses unknown or missing placeholders, empty and overlong texts, and unknown keys, storing nothing", async () => {
    const admin = await as(DEMO.admin);
    const tooMany = await admin.put("/api/v1/dictionary/errors/userExists", { value: "{{email}} is taken by {{firm}}" });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe("Unknown placeholder {{firm}}: this text may use only {{email}}.");
    const missing = await admin.put("/api/v1/dictionary/errors/userExists", { value: "That user exists already" });
    expect(missing.status).toBe(400);
    expect(missing.body.fieldErrors.value).toEqual(["Keep the placeholder {{email}} of the default text."]);
    const empty = await admin.put(ENTRY, { value: "  " });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("Enter a text, or reset the entry to its default instead.");
    expect((await admin.put(ENTRY, { value: "x".repeat(2001) })).body.message).toBe("A text may be at most 2000 characters long.");
    const unknown = await admin.put("/api/v1/dictionary/common/no.such.key", { value: "Anything" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("The dictionary has no entry common:no.such.key.");
    expect((await search(DEMO.admin, "overridden=true")).body).toEqual([]);
  });

  it("lets READ view and only FULL change; a role without firm access gets 403", async () => {
    const manager = await as(DEMO.manager);
    expect((await manager.get("/api/v1/dictionary/search?max=1")).status).toBe(200);
    expect((await manager.put(ENTRY, { value: "Customers" })).status).toBe(403);
    expect((await manager.request("DELETE", ENTRY)).status).toBe(403);
    expect((await manager.request("POST", "/api/v1/dictionary/import", { body: "Namespace,Key,Text\n", headers: { "content-type": "text/csv" } })).status).toBe(
      403,
    );
    const viewOnly = await as(DEMO.viewOnly);
    expect((await viewOnly.get("/api/v1/dictionary/search")).status).toBe(403);
    expect((await viewOnly.get("/api/v1/dictionary/export")).status).toBe(403);
    // Every signed-in user reads the words the console shows them.
    expect((await viewOnly.get("/api/v1/dictionary/words")).status).toBe(200);
  });

  it("keeps a firm's words to the firm: the other firm sees neither the override nor its effect", async () => {
    const admin = await as(DEMO.admin);
    const second = await as(DEMO.secondAdmin);
    expect((await admin.put(NOT_FOUND, { value: "Nothing here for Demo." })).status).toBe(204);
    try {
      expect((await admin.get("/api/v1/client/no-such-client")).body.message).toBe("Nothing here for Demo.");
      expect((await second.get("/api/v1/client/no-such-client")).body.message).toBe("Not found.");
      expect((await second.get(NOT_FOUND)).body).toMatchObject({ text: "Not found.", overridden: false });
      expect((await second.get("/api/v1/dictionary/words")).body.overrides).toEqual({});
      expect((await second.get("/api/v1/dictionary/search?overridden=true")).body).toEqual([]);
      // The other firm's reset of the same entry leaves this firm's words alone.
      expect((await second.request("DELETE", NOT_FOUND)).status).toBe(204);
      expect((await admin.get(NOT_FOUND)).body.text).toBe("Nothing here for Demo.");
    } finally {
      await admin.request("DELETE", NOT_FOUND);
    }
    expect((await admin.get("/api/v1/client/no-such-client")).body.message).toBe("Not found.");
  });

  it("writes an AUDIT entry for each change and each reset", async () => {
    const admin = await as(DEMO.admin);
    const judges = "/api/v1/dictionary/common/pages.judges";
    for (const change of [
      () => admin.put(judges, { value: "Justices" }),
      () => admin.put(judges, { value: "Benches" }),
      () => admin.request("DELETE", judges),
    ]) {
      clock.advance(1000);
      expect((await change()).status).toBe(204);
    }
    const rows = await server()
      .ctx.database.db.selectFrom("event_log")
      .select(["detail", "firm_id"])
      .where("level", "=", "AUDIT")
      .where("detail", "like", "%common:pages.judges%")
      .orderBy("created_at")
      .execute();
    const demoFirm = (await admin.get("/api/v1/firm")).body.id;
    expect(rows.map((r) => [r.firm_id, r.detail])).toEqual([
      [demoFirm, `${DEMO.admin} created the dictionary entry "common:pages.judges" (common:pages.judges): value: "Judges" → "Justices"`],
      [demoFirm, `${DEMO.admin} changed the dictionary entry "common:pages.judges" (common:pages.judges): value: "Justices" → "Benches"`],
      [demoFirm, `${DEMO.admin} deleted the dictionary entry "common:pages.judges" (common:pages.judges)`],
    ]);
  });

  it("exports every entry as CSV and imports the edited file back, all or nothing", async () => {
    const admin = await as(DEMO.admin);
    const exported = await admin.get("/api/v1/dictionary/export");
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toContain("text/csv");
    expect(exported.headers.get("content-disposition")).toMatch(/dictionary-\d{4}-\d{2}-\d{2}\.csv/);
    expect(exported.text.startsWith("\uFEFFNamespace,Key,Default text,Text\r\n")).toBe(true);
    expect(exported.text).toContain("common,pages.clients,Clients,Clients\r\n");

    const edited = exported.text
      .replace("common,pages.clients,Clients,Clients", "common,pages.clients,Clients,Customers")
      .replace(
        "errors,userExists,User with email {{email}} already exists,User with email {{email}} already exists",
        "errors,userExists,User with email {{email}} already exists,{{email}} has an account already",
      );
    const csv = { "content-type": "text/csv" };
    const imported = await admin.request("POST", "/api/v1/dictionary/import", { body: edited, headers: csv });
    expect(imported.status).toBe(200);
    expect(imported.body.changed).toBe(2);
    expect((await search(DEMO.admin, "overridden=true")).body.map((r: { key: string; text: string }) => [r.key, r.text])).toEqual([
      ["pages.clients", "Customers"],
      ["userExists", "{{email}} has an account already"],
    ]);
    // The export of the changed dictionary imports back to the same words.
    const again = await admin.get("/api/v1/dictionary/export");
    expect(again.text).toContain("common,pages.clients,Clients,Customers\r\n");
    expect((await admin.request("POST", "/api/v1/dictionary/import", { body: again.text, headers: csv })).body.changed).toBe(0);

    // One bad line among good ones: nothing is stored, every bad line is named.
    const bad = [
      "Namespace,Key,Text",
      "common,pages.matters,Files",
      "common,no.such.key,Anything",
      "errors,userExists,Taken by {{name}}",
      "common,pages.matters,Files again",
    ].join("\n");
    const refused = await admin.request("POST", "/api/v1/dictionary/import", { body: bad, headers: csv });
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors.file).toEqual([
      "Line 3: The dictionary has no entry common:no.such.key.",
      "Line 4: Unknown placeholder {{name}}: this text may use only {{email}}.",
      "Line 4: Keep the placeholder {{email}} of the default text.",
      "Line 5: The entry common:pages.matters is on line 2 already.",
    ]);
    expect((await admin.get("/api/v1/dictionary/common/pages.matters")).body.overridden).toBe(false);

    const noColumns = await admin.request("POST", "/api/v1/dictionary/import", { body: "a,b\n1,2\n", headers: csv });
    expect(noColumns.body.message).toBe("The file needs the columns Namespace, Key, Text.");
    const empty = await admin.request("POST", "/api/v1/dictionary/import", { body: "", headers: csv });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("Choose a non-empty .csv or .txt file to import.");
    const unreadable = await admin.request("POST", "/api/v1/dictionary/import", { body: 'Namespace,Key,Text\n"common,pages.clients,Open\n', headers: csv });
    expect(unreadable.status).toBe(400);
    expect(unreadable.body.message).toMatch(/^The file cannot be read as comma-separated text: /);

    // Importing the defaults back resets what the firm changed.
    const defaults = exported.text;
    expect((await admin.request("POST", "/api/v1/dictionary/import", { body: defaults, headers: csv })).body.changed).toBe(2);
    expect((await search(DEMO.admin, "overridden=true")).body).toEqual([]);
  });

  it("sends the firm's error report in the firm's words, and the other firm's in the defaults", async () => {
    const ctx = server().ctx;
    const db = ctx.database.db;
    const firmOf = async (email: string) => (await db.selectFrom("app_user").select("firm_id").where("email", "=", email).executeTakeFirstOrThrow()).firm_id;
    const firms = { demo: await firmOf(DEMO.admin), second: await firmOf(DEMO.secondAdmin) };
    await db
      .updateTable("firm")
      .set({ error_notification_emails: JSON.stringify(["it-desk@lawfirm.test"]), error_notification_level: "CRITICAL" })
      .where("id", "in", [firms.demo, firms.second])
      .execute();
    const admin = await as(DEMO.admin);
    expect((await admin.put("/api/v1/dictionary/mail/errorReportSubject", { value: "Demo alert: {{count}} events ({{level}})" })).status).toBe(204);
    try {
      const t0 = clock.now();
      await sendErrorReports(ctx, t0);
      for (const firmId of [firms.demo, firms.second]) await logEvent(db, { firmId, level: "CRITICAL", event: "failed", detail: "WORDS-CHECK", at: t0 + 1 });
      await sendErrorReports(ctx, t0 + 10);
      const mails = await db
        .selectFrom("outbound_mail")
        .select(["firm_id", "subject"])
        .where("purpose", "=", "error-report")
        .where("text_body", "like", "%WORDS-CHECK%")
        .execute();
      expect(mails.find((m) => m.firm_id === firms.demo)?.subject).toBe("Demo alert: 1 events (CRITICAL)");
      expect(mails.find((m) => m.firm_id === firms.second)?.subject).toBe("ECFX: 1 events at CRITICAL or above");
    } finally {
      await admin.request("DELETE", "/api/v1/dictionary/mail/errorReportSubject");
    }
  });

  it("sends the firm's mail in the firm's words, and the other firm's in the defaults", async () => {
    const url = server().url;
    const admin = await as(DEMO.admin);
    expect((await admin.put(RESET_SUBJECT, { value: "Demo: your new password" })).status).toBe(204);
    try {
      expect((await api(url).post("/auth/password-forgot", { email: DEMO.viewOnly })).status).toBe(202);
      expect((await api(url).post("/auth/password-forgot", { email: DEMO.secondAdmin })).status).toBe(202);
      const subjects = async (client: ReturnType<typeof api>, to: string) =>
        ((await client.get("/api/v1/outbox/search?max=100")).body as { purpose: string; to_addresses: string[]; subject: string }[])
          .filter((m) => m.purpose === "password-reset" && m.to_addresses.includes(to))
          .map((m) => m.subject);
      expect(await subjects(admin, DEMO.viewOnly)).toContain("Demo: your new password");
      expect(await subjects(await as(DEMO.secondAdmin), DEMO.secondAdmin)).toEqual(["Reset your ECFX password"]);
    } finally {
      await admin.request("DELETE", RESET_SUBJECT);
    }
  });
});
