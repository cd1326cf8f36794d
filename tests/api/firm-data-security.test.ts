import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DmsStoreRequest, DmsTarget } from "../../server/dms/dms-target";
import { targetForCredential } from "../../server/dms/dms-targets";
import { type RunningApi, DEMO, api, backends, login, startApi, creator } from "./harness";

// Firm isolation on the data paths: each firm's files under a root of its own that no credential
// value leaves, records opened from the folder they were written under; nobody grants more than
// they hold; ethical walls on every read path; free-text counts within the firm; DMS credentials
// only for roles that may open the DMS page.

const RAW = "From: clerk@court.test\r\nTo: notices@demo.ecfx.test\r\nSubject: A notice\r\n\r\nA notice.\r\n";

describe.each(backends)("firm data security (%s)", (backend) => {
  let running: RunningApi;
  let storeRoot = "";
  const firm = { demo: 0, second: 0 };
  const as: Record<keyof typeof DEMO, ReturnType<typeof api>> = {} as never;
  const db = () => running.ctx.database.db;
  const userId = async (email: string) => (await db().selectFrom("app_user").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
  const roleId = async (firmId: number, name: string) =>
    (await db().selectFrom("security_role").select("id").where("firm_id", "=", firmId).where("name", "=", name).executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    storeRoot = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-roots-"));
    running = await startApi({ backend, env: { ECFX_FILE_STORE_ROOT: storeRoot } });
    for (const key of Object.keys(DEMO) as (keyof typeof DEMO)[]) as[key] = api(running.url, (await login(running.url, DEMO[key])).access_token);
    const firmOf = async (email: string) => (await db().selectFrom("app_user").select("firm_id").where("email", "=", email).executeTakeFirstOrThrow()).firm_id;
    firm.demo = await firmOf(DEMO.admin);
    firm.second = await firmOf(DEMO.secondAdmin);
  });

  afterAll(async () => {
    await running?.close();
    fs.rmSync(storeRoot, { recursive: true, force: true });
  });

  describe("free-text counts", () => {
    it("never count another firm's rows, even one whose text holds this firm's index token", async () => {
      const created = await as.admin.post("/api/v1/client", { name: `firm${firm.second}x Quokka Holdings`, unique_key: "C-QUOKKA" });
      expect(created.status, created.text).toBe(201);
      const own = await as.admin.get("/api/v1/client/search?freeText=quokka");
      expect(own.headers.get("x-total-count")).toBe("1");
      const other = await as.secondAdmin.get("/api/v1/client/search?freeText=quokka");
      expect(other.status).toBe(200);
      expect(other.body).toEqual([]);
      expect(other.headers.get("x-total-count")).toBe("0");
    });
  });

  describe("DMS credentials", () => {
    it("are served only to roles that may open the DMS page, and carry no secret", async () => {
      const created = await as.admin.post("/api/v1/generic-credential", { name: "Low roles probe", field: "probe" });
      expect(created.status, created.text).toBe(201);
      for (const low of [as.viewOnly, as.docketing]) {
        expect((await low.get("/api/v1/generic-credential/search")).status).toBe(403);
        expect((await low.get(`/api/v1/generic-credential/${created.body.id}`)).status).toBe(403);
        expect((await low.get("/api/v1/generic-credential/export")).status).toBe(403);
      }
      const manager = await as.manager.get("/api/v1/generic-credential/search");
      expect(manager.status).toBe(200);
      expect(Object.keys(manager.body[0]).sort()).toEqual(["created_at", "field", "id", "name", "updated_at"]);
    });
  });

  describe("privileges", () => {
    it("keeps a manager from giving anyone the administrator role, or changing an administrator", async () => {
      const adminRole = await roleId(firm.demo, "Administrator");
      const managerId = await userId(DEMO.manager);
      const adminId = await userId(DEMO.admin);
      const self = await as.manager.request("PATCH", `/api/v1/user/${managerId}`, { json: { security_role_id: adminRole } });
      expect(self.status).toBe(403);
      expect(self.body.message).toBe("You cannot give a role that holds more rights than your own.");
      const created = await as.manager.post("/api/v1/user", {
        email: "new.admin@demo.ecfx.test",
        full_name: "New Admin",
        display_name: "New",
        security_role_id: adminRole,
      });
      expect(created.status).toBe(403);
      expect(await db().selectFrom("app_user").select("id").where("email", "=", "new.admin@demo.ecfx.test").executeTakeFirst()).toBeUndefined();
      const email = await as.manager.request("PATCH", `/api/v1/user/${adminId}`, { json: { email: "taken.over@demo.ecfx.test" } });
      expect(email.status).toBe(403);
      expect(email.body.message).toBe("Only an administrator can change an administrator.");
      expect((await as.manager.request("DELETE", `/api/v1/user/${adminId}`)).status).toBe(403);
      const after = await db().selectFrom("app_user").select(["email", "security_role_id"]).where("id", "in", [adminId, managerId]).orderBy("email").execute();
      expect(after.map((u) => u.email).sort()).toEqual([DEMO.admin, DEMO.manager].sort());
      expect(after.find((u) => u.email === DEMO.manager)!.security_role_id).not.toBe(adminRole);
    });

    it("lets a manager give roles within their own and change a lesser user's e-mail, audited", async () => {
      const viewRole = await roleId(firm.demo, "View Only");
      const created = await as.manager.post("/api/v1/user", {
        email: "clerk@demo.ecfx.test",
        full_name: "Casey Clerk",
        display_name: "Casey",
        security_role_id: viewRole,
      });
      expect(created.status, created.text).toBe(201);
      const changed = await as.manager.request("PATCH", `/api/v1/user/${created.body.id}`, { json: { email: "casey.clerk@demo.ecfx.test" } });
      expect(changed.status, changed.text).toBe(200);
      const audit = await db().selectFrom("event_log").select(["level", "detail"]).where("firm_id", "=", firm.demo).where("level", "=", "AUDIT").execute();
      const details = audit.map((a) => a.detail);
      expect(details).toContain(`${DEMO.manager} gave clerk@demo.ecfx.test the role View Only (was —)`);
      expect(details).toContain(`${DEMO.manager} changed the e-mail of clerk@demo.ecfx.test to casey.clerk@demo.ecfx.test`);
    });

    it("keeps a user from changing someone who holds more than they do", async () => {
      // A custom role with full user rights but nothing else may not touch the manager.
      const now = Date.now();
      const perms = JSON.stringify({ user: { access: "FULL" }, security_role: { access: "READ" } });
      await db()
        .insertInto("security_role")
        .values({ id: "role-people-only", firm_id: firm.demo, name: "People only", is_system_defined: 0, permissions: perms, created_at: now, updated_at: now })
        .execute();
      await db().updateTable("app_user").set({ security_role_id: "role-people-only" }).where("email", "=", "casey.clerk@demo.ecfx.test").execute();
      const casey = await db().selectFrom("app_user").select("id").where("email", "=", "casey.clerk@demo.ecfx.test").executeTakeFirstOrThrow();
      // Casey signs in with the demo password.
      await db()
        .updateTable("app_user")
        .set({
          password_hash: (await db().selectFrom("app_user").select("password_hash").where("email", "=", DEMO.manager).executeTakeFirstOrThrow()).password_hash,
        })
        .where("id", "=", casey.id)
        .execute();
      const people = api(running.url, (await login(running.url, "casey.clerk@demo.ecfx.test")).access_token);
      const managerId = await userId(DEMO.manager);
      const refused = await people.request("PATCH", `/api/v1/user/${managerId}`, { json: { email: "stolen@demo.ecfx.test" } });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe("This user holds rights you do not have; you cannot change them.");
      expect((await db().selectFrom("app_user").select("email").where("id", "=", managerId).executeTakeFirstOrThrow()).email).toBe(DEMO.manager);
    });

    it("lets an administrator change roles, audited", async () => {
      const managerId = await userId(DEMO.manager);
      const viewRole = await roleId(firm.demo, "View Only");
      const managerRole = await roleId(firm.demo, "Manager");
      expect((await as.admin.request("PATCH", `/api/v1/user/${managerId}`, { json: { security_role_id: viewRole } })).status).toBe(200);
      expect((await as.admin.request("PATCH", `/api/v1/user/${managerId}`, { json: { security_role_id: managerRole } })).status).toBe(200);
      const audit = await db().selectFrom("event_log").select("detail").where("level", "=", "AUDIT").where("firm_id", "=", firm.demo).execute();
      expect(audit.map((a) => a.detail)).toContain(`${DEMO.admin} gave ${DEMO.manager} the role View Only (was Manager)`);
    });
  });

  describe("ethical walls on every read path", () => {
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      const post = creator(as.admin);
      ids.walled = await post("/api/v1/timekeeper", { full_name: "Wally Walled", email: "wally@lawfirm.test" });
      ids.client = await post("/api/v1/client", { name: "Zanzibar Client", unique_key: "C-ZAN" });
      ids.matter = await post("/api/v1/matter", { name: "Zanzibar matter", unique_key: "M-ZAN", client_id: ids.client });
      const jurisdiction = await post("/api/v1/jurisdiction", { name: "S.D.N.Y. zanzibar", ecfx_jurisdictions: ["nysd"] });
      ids.case = await post("/api/v1/case", {
        name: "Zanzibar v. Open",
        case_number: "1:24-cv-07777",
        matter_id: ids.matter,
        jurisdiction_id: jurisdiction,
        assigned_timekeepers: [ids.walled],
      });
      await post("/api/v1/ethical-wall", { name: "Keep Wally out", type: "exclusionary", matter_id: ids.matter, timekeepers: [ids.walled] });
      await db().updateTable("firm").set({ internal_walls_enabled: 1 }).where("id", "=", firm.demo).execute();

      const upload = await as.admin.request("POST", "/api/v1/inbox/upload", { body: RAW, headers: { "content-type": "message/rfc822" } });
      ids.item = upload.body.id;
      const parsed = JSON.stringify({ kind: "notice", notice: { dockets: [], court_id: "nysd", sent_at: null } });
      await db()
        .updateTable("inbox_item")
        .set({ case_id: ids.case, subject: "Zanzibar walled subject", snippet: "Zanzibar snippet", disposition: "Processed", status: "Succeeded", parsed })
        .where("id", "=", ids.item!)
        .execute();
      const now = Date.now();
      await db()
        .insertInto("envelope")
        .values({
          id: "env-zanzibar",
          firm_id: firm.demo,
          inbox_item_id: ids.item!,
          case_id: ids.case!,
          ecfx_jurisdiction_id: "nysd",
          name: "Zanzibar order",
          date: null,
          court_envelope_id: null,
          filed_by: "",
          service_contacts: "[]",
          docket_text: "ZANZIBAR DOCKET TEXT",
          created_at: now,
          updated_at: now,
        })
        .execute();
      await db().updateTable("app_user").set({ timekeeper_id: ids.walled }).where("email", "=", DEMO.viewOnly).execute();
    });

    afterAll(async () => {
      await db().updateTable("app_user").set({ timekeeper_id: null }).where("email", "=", DEMO.viewOnly).execute();
      await db().updateTable("firm").set({ internal_walls_enabled: 0 }).where("id", "=", firm.demo).execute();
    });

    const reads = (who: ReturnType<typeof api>) =>
      Promise.all([
        who.get("/api/v1/inbox-item/search?freeText=zanzibar"),
        who.get("/api/v1/inbox-item/search?max=100"),
        who.get(`/api/v1/inbox-item/${ids.item}`),
        who.get("/api/v1/inbox-item/export"),
        who.get("/api/v1/envelope/search?freeText=zanzibar"),
        who.get(`/api/v1/envelope/env-zanzibar`),
        who.get("/api/v1/envelope/export"),
        who.get(`/api/v1/inbox/ids?freeText=zanzibar`),
      ]);

    it("hides walled notices and envelopes from search, read, export and counts", async () => {
      const [search, all, one, exported, envelopes, envelope, envelopeCsv, idList] = await reads(as.viewOnly);
      expect(search.status).toBe(200);
      expect(search.headers.get("x-total-count")).toBe("0");
      expect(all.body.map((r: { id: string }) => r.id)).not.toContain(ids.item);
      expect(one.status).toBe(404);
      expect(exported.status).toBe(200);
      expect(exported.text).not.toMatch(/zanzibar/i);
      expect(envelopes.headers.get("x-total-count")).toBe("0");
      expect(envelope.status).toBe(404);
      expect(envelopeCsv.text).not.toMatch(/zanzibar/i);
      expect(JSON.stringify(idList.body)).not.toContain(ids.item);

      // The same reads by someone no wall keeps out show the notice.
      const [search2, , one2, exported2, envelopes2, envelope2] = await reads(as.admin);
      expect(search2.headers.get("x-total-count")).toBe("1");
      expect(one2.status).toBe(200);
      expect(exported2.text).toMatch(/Zanzibar walled subject/);
      expect(envelopes2.headers.get("x-total-count")).toBe("1");
      expect(envelope2.body.docket_text).toBe("ZANZIBAR DOCKET TEXT");
    });

    it("names no walled notice among the titles a list page's rows refer to", async () => {
      // An open notice marked as a duplicate of the walled one: its row is readable, the title it refers to is not.
      const upload = await as.admin.request("POST", "/api/v1/inbox/upload", { body: RAW, headers: { "content-type": "message/rfc822" } });
      await db().updateTable("inbox_item").set({ subject: "Open duplicate", duplicate_of_id: ids.item! }).where("id", "=", upload.body.id).execute();
      const page = (who: ReturnType<typeof api>) => who.get(`/api/v1/inbox-item/search?filter.id=${upload.body.id}&references=1`);
      const seen = await page(as.admin);
      expect(seen.body.rows.map((r: { id: string }) => r.id)).toEqual([upload.body.id]);
      expect(seen.body.titles.duplicate_of_id).toEqual({ [ids.item!]: "Zanzibar walled subject" });
      const walled = await page(as.viewOnly);
      expect(walled.status).toBe(200);
      expect(walled.body.rows.map((r: { id: string }) => r.id)).toEqual([upload.body.id]);
      expect(walled.body.titles.duplicate_of_id).toEqual({});
      expect(JSON.stringify(walled.body)).not.toContain("Zanzibar walled subject");
      await db().deleteFrom("inbox_item").where("id", "=", upload.body.id).execute();
    });

    it("keeps walled notices out of the template preview and the DMS list", async () => {
      const template = "{{docketText}} {{description}}";
      const named = await as.viewOnly.post("/api/v1/email-template/preview", { template, inboxItemId: ids.item });
      expect(named.status).toBe(404);
      const latest = await as.viewOnly.post("/api/v1/email-template/preview", { template });
      expect(latest.status).toBe(200);
      expect(latest.text).not.toMatch(/zanzibar/i);
      expect((await as.viewOnly.get(`/api/v1/inbox/${ids.item}/dms`)).status).toBe(403);

      const adminPreview = await as.admin.post("/api/v1/email-template/preview", { template, inboxItemId: ids.item });
      expect(adminPreview.status, adminPreview.text).toBe(200);
      expect(adminPreview.text).toMatch(/ZANZIBAR DOCKET TEXT/);
      expect((await as.admin.get(`/api/v1/inbox/${ids.item}/dms`)).status).toBe(200);
    });
  });

  describe("storage roots", () => {
    const pdf = Buffer.from("%PDF-1.4 first firm's filing");
    const request = (folder: string[], name: string) => ({ folder, name, extension: "pdf", bytes: pdf, contentType: "application/pdf", properties: {} });
    const firmRoot = (id: number) => path.join(storeRoot, `firm-${id}`);
    /** As the storage step files: the place first, then the bytes. */
    const storeVia = async (target: DmsTarget, req: DmsStoreRequest) => target.write(req, await target.intend(req, `key-${Math.random()}`));

    /** A succeeded storage record of the firm, as the pipeline leaves it, on an item of its own. */
    const record = async (client: ReturnType<typeof api>, firmId: number, credentialId: string, location: string, root: string | null) => {
      const policy = await client.post("/api/v1/storage-policy", { name: `Policy ${Math.random()}`, dms_credential_id: credentialId });
      expect(policy.status, policy.text).toBe(201);
      const item = (await client.request("POST", "/api/v1/inbox/upload", { body: RAW, headers: { "content-type": "message/rfc822" } })).body.id as string;
      const id = `rec-${Math.random().toString(36).slice(2)}`;
      const now = Date.now();
      await db()
        .insertInto("dms_record")
        .values({
          id,
          firm_id: firmId,
          inbox_item_id: item,
          document_id: null,
          storage_policy_id: policy.body.id,
          what: "notice",
          status: "succeeded",
          location,
          root,
          error: null,
          attempts: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      return id;
    };

    const credential = async (client: ReturnType<typeof api>, field: string) => {
      const created = await client.post("/api/v1/generic-credential", { name: `Store ${Math.random()}`, field });
      expect(created.status, created.text).toBe(201);
      return created.body.id as string;
    };

    it("writes every credential value of a firm under that firm's own root", async () => {
      for (const field of [".", "/", "demo-firm", `/firm-${firm.demo}`]) {
        const id = await credential(as.secondAdmin, field);
        const { target } = await targetForCredential(running.ctx, firm.second, id);
        const stored = await storeVia(target, request(["Clients"], `Filing ${field.replace(/\W/g, "_")}`));
        const written = path.join(firmRoot(firm.second), stored.root ?? "", stored.location);
        expect(fs.existsSync(written), `${field} → ${written}`).toBe(true);
        const rec = await record(as.secondAdmin, firm.second, id, stored.location, stored.root ?? null);
        expect((await as.secondAdmin.get(`/api/v1/dms-record/${rec}/content`)).text, `${field} opens`).toBe(pdf.toString());
      }
      expect(fs.existsSync(firmRoot(firm.demo)) ? fs.readdirSync(firmRoot(firm.demo), { recursive: true }) : []).toEqual([]);
      expect((await as.secondAdmin.post("/api/v1/generic-credential", { name: "Escape", field: `../firm-${firm.demo}` })).status).toBe(400);
    });

    it("does not let a symlinked credential folder lead to another firm", async () => {
      fs.mkdirSync(firmRoot(firm.demo), { recursive: true });
      fs.mkdirSync(firmRoot(firm.second), { recursive: true });
      fs.symlinkSync(firmRoot(firm.demo), path.join(firmRoot(firm.second), "shortcut"));
      const id = await credential(as.secondAdmin, "shortcut");
      await expect(targetForCredential(running.ctx, firm.second, id)).rejects.toThrow(/outside the firm's storage root/);
    });

    it("opens another firm's files through no credential value", async () => {
      // The first firm's filing, where a shared store once kept it and where its own root keeps it.
      for (const folder of [path.join(storeRoot, "demo-firm"), path.join(firmRoot(firm.demo), "demo-firm")]) {
        fs.mkdirSync(folder, { recursive: true });
        fs.writeFileSync(path.join(folder, "secret.pdf"), pdf);
      }
      const attempts: [string, string][] = [
        ["demo-firm", "secret.pdf"],
        [".", "demo-firm/secret.pdf"],
        ["/", `firm-${firm.demo}/demo-firm/secret.pdf`],
        ["shortcut", "demo-firm/secret.pdf"],
      ];
      for (const [field, location] of attempts) {
        const id = await credential(as.secondAdmin, field);
        const rec = await record(as.secondAdmin, firm.second, id, location, null);
        const opened = await as.secondAdmin.get(`/api/v1/dms-record/${rec}/content`);
        expect(opened.status, `${field} + ${location}`).toBe(404);
      }
    });

    it("opens a stored file from the folder it was written under, whatever the credential says now", async () => {
      const id = await credential(as.admin, "alpha");
      const { target } = await targetForCredential(running.ctx, firm.demo, id);
      const stored = await storeVia(target, request(["Kept"], "Kept filing"));
      expect(stored.root).toBe("alpha");
      const rec = await record(as.admin, firm.demo, id, stored.location, stored.root ?? null);
      expect((await as.admin.get(`/api/v1/dms-record/${rec}/content`)).text).toBe(pdf.toString());
      expect((await as.admin.request("PATCH", `/api/v1/generic-credential/${id}`, { json: { field: "beta" } })).status).toBe(200);
      const opened = await as.admin.get(`/api/v1/dms-record/${rec}/content`);
      expect(opened.status).toBe(200);
      expect(opened.text).toBe(pdf.toString());
    });
  });
});
