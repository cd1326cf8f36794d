import { describe, expect, it } from "vitest";
import { DEMO, api, backends, creator, sessionsOf, useApi } from "./harness";

// A list page asks for its rows, the titles of what they refer to and its reference filters'
// choices in one call (`references=1`): the answer comes from the same read path as each
// entity's own search, so it never names another firm's rows.

describe.each(backends)("search with references (%s)", (backend) => {
  const server = useApi({ backend });
  const session = sessionsOf(server);
  const as = async (email: string) => api(server().url, (await session(email)).access_token);

  it("answers the rows with the titles they name and the choices of the reference filters", async () => {
    const admin = await as(DEMO.admin);
    const create = creator(admin);
    const client = await create("/api/v1/client", { name: "Reference Client", unique_key: "C-REF" });
    const matter = await create("/api/v1/matter", { name: "Reference Matter", unique_key: "M-REF", client_id: client });
    const court = await create("/api/v1/jurisdiction", { name: "Reference Court", ecfx_jurisdictions: ["txed"] });
    const keeper = await create("/api/v1/timekeeper", { full_name: "Rhea Reference", email: "rhea.reference@lawfirm.test" });
    const caseId = await create("/api/v1/case", {
      name: "Reference v. Title",
      case_number: "4:26-cv-00777",
      matter_id: matter,
      jurisdiction_id: court,
      assigned_timekeepers: [keeper],
    });

    const res = await admin.get("/api/v1/case/search?filter.case_number=4:26-cv-00777&references=1");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe("1");
    expect(res.body.total).toBe(1);
    expect(res.body.rows.map((r: { id: string }) => r.id)).toEqual([caseId]);
    expect(res.body.titles.matter_id).toEqual({ [matter]: "Reference Matter" });
    expect(res.body.titles.jurisdiction_id).toEqual({ [court]: "Reference Court" });
    expect(res.body.titles.assigned_timekeepers).toEqual({ [keeper]: "Rhea Reference" });
    // The jurisdictions are few: every one is a choice, in title order; only named ids have titles.
    const choices = res.body.options.jurisdiction_id as { value: string; label: string }[];
    expect(choices).toContainEqual({ value: court, label: "Reference Court" });
    expect(choices.map((c) => c.label)).toEqual([...choices.map((c) => c.label)].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
    // Without the question, the answer is the plain list it always was.
    const plain = await admin.get("/api/v1/case/search?filter.case_number=4:26-cv-00777");
    expect(Array.isArray(plain.body)).toBe(true);
  });

  it("names users' roles through the roles' own picker search", async () => {
    const admin = await as(DEMO.admin);
    const res = await admin.get(`/api/v1/user/search?filter.email=${encodeURIComponent(DEMO.viewOnly)}&references=1`);
    expect(res.status).toBe(200);
    const [user] = res.body.rows as { security_role_id: string }[];
    expect(res.body.titles.security_role_id).toEqual({ [user!.security_role_id]: "View Only" });
  });

  it("offers no choices of a reference with more rows than a list can hold", async () => {
    const admin = await as(DEMO.admin);
    const create = creator(admin);
    const client = await create("/api/v1/client", { name: "Many Matters Client", unique_key: "C-MANY" });
    for (let n = 0; n < 101; n++) await create("/api/v1/matter", { name: `Many Matter ${n}`, unique_key: `M-MANY-${n}`, client_id: client });
    const res = await admin.get("/api/v1/case/search?max=5&references=1");
    expect(res.status).toBe(200);
    expect(res.body.options.matter_id).toBeUndefined();
    expect(res.body.options.jurisdiction_id).toBeDefined();
    // The matters are only counted for the choices; the page's own still have their titles.
    const rows = res.body.rows as { matter_id: string }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(res.body.titles.matter_id[row.matter_id]).toEqual(expect.any(String));
  });

  it("never names another firm's rows: the second firm's page holds its own titles and choices only", async () => {
    const admin = await as(DEMO.admin);
    const first = (await admin.get("/api/v1/jurisdiction/search?max=100")).body as { id: string }[];
    const other = await as(DEMO.secondAdmin);
    const res = await other.get("/api/v1/case/search?max=50&references=1");
    expect(res.status).toBe(200);
    const named = [...Object.values(res.body.titles as Record<string, Record<string, string>>).flatMap((t) => Object.keys(t))];
    const offered = Object.values(res.body.options as Record<string, { value: string }[]>).flatMap((o) => o.map((c) => c.value));
    for (const id of [...named, ...offered]) expect(first.map((j) => j.id)).not.toContain(id);
    expect(JSON.stringify(res.body)).not.toContain("Reference Court");
  });
});
