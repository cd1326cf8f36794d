import { beforeAll, describe, expect, it } from "vitest";
import { MATCHING_MAX } from "../../app/common/inbox-bulk";
import { newId } from "../../server/lib/ids";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

// "All items matching the filters" of the inbox list: the API resolves the table's query to ids
// (the caller's firm only, archived items as the table hides them, at most MATCHING_MAX), and
// those ids go to the bulk action.

interface Seed {
  subject: string;
  status?: string;
  hidden?: boolean;
  disposition?: string;
}

describe.each(backends)("inbox ids matching the table's filters (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);
  const firmIds = { demo: 0, second: 0 };
  const now = Date.now();
  let made = 0;

  const firmOf = async (email: string) =>
    (await server().ctx.database.db.selectFrom("app_user").select("firm_id").where("email", "=", email).executeTakeFirstOrThrow()).firm_id;

  /** Stored as received items in the state a test needs, newest last; no worker runs here. */
  async function seed(firmId: number, items: Seed[]): Promise<string[]> {
    const rows = items.map((item) => {
      made += 1;
      return {
        id: newId(),
        firm_id: firmId,
        created_at: now - 60_000 + made,
        updated_at: now,
        status: item.status ?? "Failed",
        action_required: "USER",
        disposition: item.disposition ?? "No Disposition",
        disposition_text: "",
        reason: "",
        source: "UPLOAD",
        source_type: "EMAIL",
        raw_content: Buffer.from(`Subject: ${item.subject}\r\n\r\nbody\r\n`),
        raw_size: 30,
        message_id: null,
        sender: "",
        recipients: "[]",
        subject: item.subject,
        snippet: "",
        parsed: null,
        docket_index: null,
        parent_id: null,
        duplicate_of_id: null,
        case_id: null,
        dms_status: "new",
        hidden: item.hidden ? 1 : 0,
        attempts: 0,
      };
    });
    for (let i = 0; i < rows.length; i += 500)
      await server()
        .ctx.database.db.insertInto("inbox_item")
        .values(rows.slice(i, i + 500))
        .execute();
    return rows.map((r) => r.id);
  }

  const client = async (email: string) => api(server().url, (await sessionOf(email)).access_token);

  let alphaFailed: string[] = [];
  let alphaSplit = "";
  let alphaHidden = "";
  let otherFirm = "";

  beforeAll(async () => {
    firmIds.demo = await firmOf(DEMO.admin);
    firmIds.second = await firmOf(DEMO.secondAdmin);
    alphaFailed = await seed(firmIds.demo, [{ subject: "Alpha notice 1" }, { subject: "Alpha notice 2" }, { subject: "Alpha notice 3" }]);
    await seed(firmIds.demo, [{ subject: "Alpha done 1", status: "Succeeded" }, { subject: "Alpha done 2", status: "Succeeded" }, { subject: "Beta notice" }]);
    alphaHidden = (await seed(firmIds.demo, [{ subject: "Alpha archived", hidden: true }]))[0]!;
    alphaSplit = (await seed(firmIds.demo, [{ subject: "Alpha split", disposition: "Split" }]))[0]!;
    otherFirm = (await seed(firmIds.second, [{ subject: "Alpha other firm" }]))[0]!;
  });

  it("resolves free text and column filters to the firm's ids, in the table's order, archived items left out", async () => {
    const admin = await client(DEMO.admin);
    const found = await admin.get("/api/v1/inbox/ids?freeText=alpha&filter.status=Failed");
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ ids: [alphaSplit, ...[...alphaFailed].reverse()], total: 4, max: MATCHING_MAX });
    expect(found.body.ids).not.toContain(alphaHidden);
    expect(found.body.ids).not.toContain(otherFirm);

    // The same rows as the table's search of the same query, page size aside.
    const page = await admin.get("/api/v1/inbox-item/search?freeText=alpha&filter.status=Failed&max=100&offset=0&sort=-created_at");
    expect(found.body.ids).toEqual(page.body.map((r: { id: string }) => r.id));
    // Paging of the table's URL does not narrow "all matching".
    expect((await admin.get("/api/v1/inbox/ids?freeText=alpha&filter.status=Failed&max=1&offset=2")).body.ids).toHaveLength(4);
  });

  it("applies the quick filter and the archived filter as the table does", async () => {
    const admin = await client(DEMO.admin);
    const notMapped = await admin.get("/api/v1/inbox/ids?freeText=alpha&filter.status=Failed&quick=notMapped");
    expect(notMapped.body.ids).toEqual([...alphaFailed].reverse());
    const archived = await admin.get("/api/v1/inbox/ids?freeText=alpha&filter.hidden=true");
    expect(archived.body.ids).toEqual([alphaHidden]);
    const sorted = await admin.get("/api/v1/inbox/ids?freeText=alpha%20notice&sort=created_at");
    expect(sorted.body.ids).toEqual(alphaFailed);
  });

  it("keeps each firm to its own items", async () => {
    const second = await client(DEMO.secondAdmin);
    const found = await second.get("/api/v1/inbox/ids?freeText=alpha");
    expect(found.body).toEqual({ ids: [otherFirm], total: 1, max: MATCHING_MAX });
  });

  it("refuses a filter the table does not allow", async () => {
    const admin = await client(DEMO.admin);
    expect((await admin.get("/api/v1/inbox/ids?filter.raw_content=x")).status).toBe(400);
    expect((await admin.get("/api/v1/inbox/ids?filter.created_at=2026-01-01..")).status).toBe(400);
    expect((await api(server().url).get("/api/v1/inbox/ids")).status).toBe(401);
  });

  it("lets a read-only role see the ids but not act on them", async () => {
    const viewer = await client(DEMO.viewOnly);
    const found = await viewer.get("/api/v1/inbox/ids?freeText=beta");
    expect(found.body.ids).toHaveLength(1);
    const refused = await viewer.post("/api/v1/inbox/bulk", { action: "retry", ids: found.body.ids });
    expect(refused.status).toBe(403);
  });

  it("feeds the bulk action: retry takes the failed items and says why it left the others", async () => {
    const admin = await client(DEMO.admin);
    const { ids } = (await admin.get("/api/v1/inbox/ids?freeText=alpha")).body as { ids: string[] };
    expect(ids).toHaveLength(6);
    const retried = await admin.post("/api/v1/inbox/bulk", { action: "retry", ids });
    expect(retried.status).toBe(200);
    expect([...retried.body.done].sort()).toEqual([...alphaFailed, alphaSplit].sort());
    expect(retried.body.skipped.map((s: { reason: string }) => s.reason)).toEqual(["status Succeeded", "status Succeeded"]);
    const statuses = await server().ctx.database.db.selectFrom("inbox_item").select("status").where("id", "in", alphaFailed).execute();
    expect(statuses.map((s) => s.status)).toEqual(["New", "New", "New"]);
  });

  it(`stops at ${MATCHING_MAX} ids and says how many matched`, async () => {
    const many = await seed(
      firmIds.demo,
      Array.from({ length: MATCHING_MAX + 3 }, (_, i) => ({ subject: `Gamma ${i}` })),
    );
    const admin = await client(DEMO.admin);
    const found = await admin.get("/api/v1/inbox/ids?freeText=gamma");
    expect(found.status).toBe(200);
    expect(found.body.total).toBe(MATCHING_MAX + 3);
    expect(found.body.max).toBe(MATCHING_MAX);
    expect(found.body.ids).toHaveLength(MATCHING_MAX);
    expect(new Set(found.body.ids).size).toBe(MATCHING_MAX);
    // The newest first, as the table shows them: the three oldest are the ones left out.
    expect(found.body.ids).not.toContain(many[0]);
    expect(found.body.ids).toContain(many.at(-1));
  }, 60_000);
});
