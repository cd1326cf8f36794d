import { describe, expect, it } from "vitest";
import { newId } from "../../server/lib/ids";
import { DEMO, api, backends, creator, sessionsOf, useApi } from "./harness";
import { insertNoticeRow } from "./notice-rows";

// Every free-text search folds accents and case by one rule, the one the case search's index
// uses: "Pena" finds "Peña" and "peña" finds "PENA", in the inbox, its docket entries, users
// and cases alike, on either database.

describe.each(backends)("free-text search and accents (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);

  const found = async (path: string, text: string, field: string) => {
    const res = await api(server().url, (await sessionOf(DEMO.admin)).access_token).get(`${path}/search?max=100&freeText=${encodeURIComponent(text)}`);
    expect(res.status, res.text).toBe(200);
    return (res.body as Record<string, unknown>[]).map((r) => String(r[field])).sort();
  };

  it("finds accented and plain spellings of a name whichever is typed", async () => {
    const db = server().ctx.database.db;
    const admin = creator(api(server().url, (await sessionOf(DEMO.admin)).access_token));
    const firmId = (await db.selectFrom("app_user").select("firm_id").where("email", "=", DEMO.admin).executeTakeFirstOrThrow()).firm_id;

    const client = await admin("/api/v1/client", { name: "Accent Client", unique_key: "C-ACCENT" });
    const matter = await admin("/api/v1/matter", { name: "Accent matter", unique_key: "M-ACCENT", client_id: client });
    const keeper = await admin("/api/v1/timekeeper", { full_name: "Ana Accent", email: "ana.accent@lawfirm.test" });
    const jurisdiction = await admin("/api/v1/jurisdiction", { name: "S.D.N.Y. accents", ecfx_jurisdictions: ["nysd"] });
    const caseId = await admin("/api/v1/case", {
      name: "Peña v. Quorvex",
      case_number: "1:26-cv-07707",
      matter_id: matter,
      jurisdiction_id: jurisdiction,
      assigned_timekeepers: [keeper],
    });
    const role = await db.selectFrom("security_role").select("id").where("firm_id", "=", firmId).where("name", "=", "View Only").executeTakeFirstOrThrow();
    await admin("/api/v1/user", { email: "jose.pena@demo.ecfx.test", full_name: "José PEÑA Quorvex", display_name: "José", security_role_id: role.id });

    const notices = [
      ["Order in Peña v. Quorvex", ""],
      ["Minute entry", "Motion of PEÑA (Quorvex) granted"],
      ["Pena v. Quorvex hearing", ""],
    ];
    const at = Date.now();
    for (const [subject, snippet] of notices) {
      const id = newId();
      await insertNoticeRow(db, { id, firmId, at, status: "Processed", caseId });
      await db.updateTable("inbox_item").set({ subject, snippet }).where("id", "=", id).execute();
      await db
        .insertInto("envelope")
        .values({
          id: newId(),
          firm_id: firmId,
          inbox_item_id: id,
          case_id: caseId,
          name: "Order",
          docket_text: `${subject} ${snippet}`,
          created_at: at,
          updated_at: at,
        } as never)
        .execute();
    }
    const subjects = notices.map(([subject]) => subject).sort();

    for (const typed of ["Pena", "peña", "PEÑA"]) {
      expect(await found("/api/v1/case", `${typed} Quorvex`, "name")).toEqual(["Peña v. Quorvex"]);
      expect(await found("/api/v1/inbox-item", `${typed}`, "subject")).toEqual(subjects);
      expect((await found("/api/v1/envelope", `${typed}`, "docket_text")).length).toBe(3);
      expect(await found("/api/v1/user", `jose ${typed}`, "full_name")).toEqual(["José PEÑA Quorvex"]);
    }
    // Folding finds more spellings, never other words.
    expect(await found("/api/v1/inbox-item", "Penalty", "subject")).toEqual([]);
  });
});
