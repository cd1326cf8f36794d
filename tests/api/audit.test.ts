import { describe, expect, it } from "vitest";
import { SERVER_RESOURCES } from "../../server/resources/registry";
import { describeChanges } from "../../server/resources/audit";
import { CREATE_ORDER, type Ids, minimalBody } from "./contract-fixtures";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

// Every change of the firm's configuration writes an AUDIT entry in the event log, in the same
// transaction: who, what, which record, the fields before and after; secrets are masked.
describe.each(backends)("audit entries (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  const audits = async (text: string) =>
    (
      await server()
        .ctx.database.db.selectFrom("event_log")
        .select(["detail", "event"])
        .where("level", "=", "AUDIT")
        .where("event", "=", "configuration changed")
        .where("detail", "like", `%${text}%`)
        .execute()
    ).map((r) => r.detail);

  it("is written for every create, change and delete of every configuration entity, by whom", async () => {
    const session = await sessionOf(DEMO.admin);
    const admin = api(server().url, session.access_token);
    const roleId = session.user.securityRoleId;
    const viewOnly = (await server().ctx.database.db.selectFrom("security_role").select("id").where("name", "=", "View Only").executeTakeFirstOrThrow()).id;
    const ids: Ids = {};
    const audited = SERVER_RESOURCES.filter((r) => r.def.audited).map((r) => r.def.key);
    expect(audited).toEqual(
      expect.arrayContaining([
        "users",
        "dms",
        "storage-policies",
        "notification-rule",
        "auto-case-creation",
        "ethical-walls",
        "preference-groups",
        "templates",
      ]),
    );
    for (const key of CREATE_ORDER) {
      const res = SERVER_RESOURCES.find((r) => r.def.key === key)!;
      const created = await admin.post(res.def.apiPath, minimalBody(key, "Auditkey", ids, key === "users" ? viewOnly : roleId));
      expect(created.status, `${key}: ${created.text}`).toBe(201);
      ids[key] = String(created.body.id);
      const entries = await audits(ids[key]!);
      if (!res.def.audited) {
        expect(entries, key).toEqual([]);
        continue;
      }
      expect(entries, key).toHaveLength(1);
      expect(entries[0]).toMatch(new RegExp(`^${DEMO.admin} created `));
    }
    const policy = SERVER_RESOURCES.find((r) => r.def.key === "storage-policies")!;
    const id = ids["storage-policies"]!;
    const before = (await admin.get(`${policy.def.apiPath}/${id}`)).body as { name: string };
    expect((await admin.put(`${policy.def.apiPath}/${id}`, { name: "Audited policy" })).status).toBe(200);
    expect(await audits(`changed storage policy "Audited policy" (${id}): name: "${before.name}" → "Audited policy"`)).toHaveLength(1);
    // A dependent-free rule can go; its deletion is audited too.
    const rule = SERVER_RESOURCES.find((r) => r.def.key === "notification-rule")!;
    expect((await admin.request("DELETE", `${rule.def.apiPath}/${ids["notification-rule"]}`)).status).toBeLessThan(300);
    expect((await audits(`deleted notification rule`)).some((d) => d.includes(ids["notification-rule"]!))).toBe(true);
  });

  it("is written for the firm's settings, its walls switch and its storage hierarchy", async () => {
    const admin = api(server().url, (await sessionOf(DEMO.admin)).access_token);
    const firm = (await admin.get("/api/v1/firm")).body as Record<string, unknown>;
    expect((await admin.put(`/api/v1/firm/${String(firm.id)}`, { ...firm, reply_to_email: "audit-desk@lawfirm.test" })).status).toBe(200);
    const settings = await audits("audit-desk@lawfirm.test");
    expect(settings).toHaveLength(1);
    expect(settings[0]).toContain(`reply_to_email: ${firm.reply_to_email ? JSON.stringify(firm.reply_to_email) : "—"} → "audit-desk@lawfirm.test"`);
    expect(settings[0]).not.toContain("web_preferences");

    expect((await admin.put("/api/v1/firm/internal-walls", { enabled: true })).status).toBe(200);
    expect(await audits("internal_walls_enabled: false → true")).toHaveLength(1);
    await admin.put("/api/v1/firm/internal-walls", { enabled: false });

    const hierarchy = ["case", "matter", "client", "practice_group", "location", "firm"];
    expect((await admin.put("/api/v1/firm/storage-hierarchy", { hierarchy, storage_policy_id: null })).status).toBe(200);
    expect(await audits(`storage_policy_hierarchy:`)).toHaveLength(1);
  });

  it("masks secrets, whatever their value", () => {
    const def = {
      fields: [
        { name: "client_secret", kind: "text" as const },
        { name: "vault", kind: "text" as const, secret: true },
      ],
    };
    const text = describeChanges(def, { client_secret: "old-s3cret", vault: "v1", name: "A" }, { client_secret: "new-s3cret", vault: "v2", name: "B" });
    expect(text).toBe('client_secret: (secret, not shown); vault: (secret, not shown); name: "A" → "B"');
    expect(describeChanges(def, null, { password: "hunter2" })).toBe("password: (secret, not shown)");
  });
});
