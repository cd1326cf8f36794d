import { describe, expect, it } from "vitest";
import { DEMO, api, backends, creator, sessionsOf, useApi } from "./harness";

// A list field kept in a link table (a case's assigned timekeepers, a jurisdiction's ECFX courts)
// comes back with its row, in the order of its values, from a search and from a read alike; a row
// without any has an empty list.

describe.each(backends)("link lists (%s)", (backend) => {
  const server = useApi({ backend });
  const session = sessionsOf(server);
  const admin = async () => api(server().url, (await session(DEMO.admin)).access_token);

  it("answers every case's timekeepers in order, from a search and from a read", async () => {
    const as = await admin();
    const create = creator(as);
    const client = await create("/api/v1/client", { name: "Link Client", unique_key: "C-LINK" });
    const place = {
      matter_id: await create("/api/v1/matter", { name: "Link Matter", unique_key: "M-LINK", client_id: client }),
      jurisdiction_id: await create("/api/v1/jurisdiction", { name: "Link Court", ecfx_jurisdictions: ["txed"] }),
    };
    const keepers: string[] = [];
    for (const name of ["Lena Link", "Lars Link", "Lia Link"]) {
      keepers.push(await create("/api/v1/timekeeper", { full_name: name, email: `${name.split(" ")[0]!.toLowerCase()}.link@lawfirm.test` }));
    }
    const many = await create("/api/v1/case", {
      name: "Link v. Many",
      case_number: "4:26-cv-00881",
      ...place,
      assigned_timekeepers: [keepers[2], keepers[0], keepers[1]],
    });
    const one = await create("/api/v1/case", { name: "Link v. One", case_number: "4:26-cv-00882", ...place, assigned_timekeepers: [keepers[1]] });

    const found = await as.get("/api/v1/case/search?filter.case_number=4:26-cv-0088&sort=case_number");
    expect(found.status).toBe(200);
    expect(found.body.map((r: { id: string; assigned_timekeepers: string[] }) => [r.id, r.assigned_timekeepers])).toEqual([
      [many, [...keepers].sort()],
      [one, [keepers[1]]],
    ]);
    const read = await as.get(`/api/v1/case/${many}`);
    expect(read.status).toBe(200);
    expect(read.body.assigned_timekeepers).toEqual([...keepers].sort());
  });

  it("answers an empty list for a row without any", async () => {
    const as = await admin();
    const create = creator(as);
    const mapped = await create("/api/v1/jurisdiction", { name: "Listed Court Mapped", ecfx_jurisdictions: ["txed", "cand"] });
    const unmapped = await create("/api/v1/jurisdiction", { name: "Listed Court Unmapped", ecfx_jurisdictions: [] });
    const found = await as.get("/api/v1/jurisdiction/search?filter.name=Listed%20Court&sort=name");
    expect(found.status).toBe(200);
    expect(found.body.map((r: { id: string; ecfx_jurisdictions: string[] }) => [r.id, r.ecfx_jurisdictions])).toEqual([
      [mapped, ["cand", "txed"]],
      [unmapped, []],
    ]);
    expect((await as.get(`/api/v1/jurisdiction/${unmapped}`)).body.ecfx_jurisdictions).toEqual([]);
  });
});
